"""cetele.shell.form_renderer writes the input widgets in Python: every page with a form must come
out
exactly as Django's own renderer makes it, and so must odd values (markup, quotes, safe strings,
True/False/None attributes, lazy and localised labels)."""

import re

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.test import override_settings
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from cetele.shell.form_renderer import WRITTEN, FastWidgets
from tests.factories import add_hand, make_match, sample_inputs

DJANGO = "django.forms.renderers.DjangoTemplates"
OURS = "cetele.shell.form_renderer.FastWidgets"
RANDOM = [
    re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'),
    re.compile(r'("x-csrftoken": ")[^"]+'),
    re.compile(r'(name="request_token" value=")[^"]+'),
    re.compile(r'(name="request_token"[^>]*value=")[^"]+'),
    re.compile(r'(data-quiet=")\d+'),  # seconds: the two renders may fall on either side of one
]


def normalised(html: str) -> str:
    for pattern in RANDOM:
        html = pattern.sub(r"\1…", html)
    return html


def both_ways(client, method: str, url: str, data=None, **headers) -> tuple[str, str]:
    pages = []
    for renderer in (DJANGO, OURS):
        with override_settings(FORM_RENDERER=renderer):
            call = client.post if method == "post" else client.get
            response = call(url, data, headers=headers) if data is not None else call(url)
            assert response.status_code == 200, (renderer, url, response.status_code)
            pages.append(normalised(response.content.decode()))
    return pages[0], pages[1]


@pytest.mark.django_db
def test_every_page_with_a_form_is_the_same_with_either_renderer(client):
    match = make_match(hands=2, planned_hands=13)
    edit = match.edit_token
    hand = match.hands.order_by("number").first()
    pages = [
        ("get", reverse("match_create"), None),
        ("get", reverse("preset_new"), None),
        ("get", reverse("match_detail", args=[edit]), None),
        ("get", reverse("hand_detail", args=[edit, hand.number]), None),
        ("get", reverse("match_players", args=[edit]), None),
        ("get", reverse("match_share", args=[edit]), None),
        ("get", reverse("table_create"), None),
    ]
    # The hand sheet with a penalty row per seat, then with errors beside the fields.
    penalty = {"action": "add-penalty-0", "finisher": "1", "p0-opened": "series"}
    wrong = {"action": "save", "finisher": "1", "p0-opened": "no", "p0-remaining": "-5"}
    for data in (penalty, wrong):
        for name in ("p0", "p1", "p2", "p3"):
            data.setdefault(f"{name}-pen-TOTAL_FORMS", "0")
            data.setdefault(f"{name}-pen-INITIAL_FORMS", "0")
        pages.append(("post", reverse("hand_create", args=[edit]), data))
    for method, url, data in pages:
        django_page, our_page = both_ways(client, method, url, data)
        assert our_page == django_page, url
    assert 'type="radio"' in our_page or "<input" in our_page


@pytest.mark.django_db
def test_a_house_rules_match_sheet_is_the_same_with_either_renderer(client):
    """Riziko, the indicator's colours and the last hand's multiplier add their own inputs."""
    from tests.web.test_hand_entry import house_rules_match

    match = house_rules_match(planned_hands=2)
    add_hand(match, sample_inputs(finisher=0, remaining=10) | {"colour": "blue"})
    django_page, our_page = both_ways(
        client, "get", reverse("match_detail", args=[match.edit_token])
    )
    assert our_page == django_page


ODD = [
    '"><script>alert(1)</script>',
    "a&b 'c'",
    mark_safe("<b>safe</b>"),
    5,
    1.5,
    0,
    "",
    gettext_lazy("Kafa"),
]


@pytest.mark.parametrize("language", ["tr", "en"])
@pytest.mark.parametrize("value", [None, *ODD])
@pytest.mark.parametrize(
    "widget",
    [
        forms.TextInput,
        forms.NumberInput,
        forms.HiddenInput,
        forms.CheckboxInput,
        forms.EmailInput,
        forms.PasswordInput,
    ],
)
def test_an_input_widget_with_odd_values_is_the_same(widget, value, language):
    attrs = {
        "id": 'id_"x"',
        "class": "<c>",
        "required": True,
        "disabled": False,
        "data-none": None,
        "data-n": 7,
        "data-f": 2.5,
        "data-safe": mark_safe("<i>"),
        "aria-label": gettext_lazy("Kafa"),
    }
    with translation.override(language):
        django_html = widget(attrs=attrs).render('na"me<', value, renderer=DjangoTemplates())
        our_html = widget(attrs=attrs).render('na"me<', value, renderer=FastWidgets())
    assert our_html == django_html


@pytest.mark.parametrize("language", ["tr", "en"])
@pytest.mark.parametrize("widget", [forms.RadioSelect, forms.CheckboxSelectMultiple])
@pytest.mark.parametrize("wrap_label", [True, False])
def test_radio_and_checkbox_options_with_odd_labels_are_the_same(widget, wrap_label, language):
    choices = [(str(n), label) for n, label in enumerate(ODD)] + [("", "boş")]
    field = forms.ChoiceField if widget is forms.RadioSelect else forms.MultipleChoiceField

    class Form(forms.Form):
        pick = field(choices=choices, widget=widget(attrs={"class": "x", "data-q": '"'}))

    with translation.override(language):
        tags = []
        for renderer in (DjangoTemplates(), FastWidgets()):
            form = Form({"pick": "1"}, renderer=renderer, auto_id="id_%s")
            tags.append([option.tag(wrap_label=wrap_label) for option in form["pick"]])
            bare = Form({"pick": "1"}, renderer=renderer, auto_id=False)
            tags.append([option.tag(wrap_label=wrap_label) for option in bare["pick"]])
    assert tags[2] == tags[0]
    assert tags[3] == tags[1]


def test_only_the_templates_it_can_write_are_written_the_rest_go_to_django():
    """A template this module does not know (textarea, labels, …) is Django's to render, and
    every input template it writes only includes input.html or input_option.html in Django."""
    from pathlib import Path

    import django

    widgets = Path(django.__file__).parent / "forms/templates/django/forms/widgets"
    for name in WRITTEN:
        text = (widgets / Path(name).name).read_text().strip()
        if Path(name).name in (
            "input.html",
            "input_option.html",
            "select.html",
            "select_option.html",
        ):
            continue
        assert text in (
            '{% include "django/forms/widgets/input.html" %}',
            '{% include "django/forms/widgets/input_option.html" %}',
        ), name
    assert "django/forms/widgets/textarea.html" not in WRITTEN


@pytest.mark.parametrize("language", ["tr", "en"])
@pytest.mark.parametrize("groups", [False, True])
@pytest.mark.parametrize("multiple", [False, True])
def test_a_select_with_odd_options_and_groups_is_the_same(groups, multiple, language):
    choices = [(str(n), label) for n, label in enumerate(ODD)] + [("", "boş")]
    if groups:
        choices = [("<grup>", choices[:4]), (gettext_lazy("Kafa"), choices[4:]), ("x", "tek")]
    widget = forms.SelectMultiple if multiple else forms.Select
    attrs = {"class": "s", "data-q": '"<', "required": True, "disabled": False}
    value = ["1", "x"] if multiple else "1"
    with translation.override(language):
        django_html = widget(attrs=attrs, choices=choices).render(
            "pick", value, renderer=DjangoTemplates()
        )
        our_html = widget(attrs=attrs, choices=choices).render(
            "pick", value, renderer=FastWidgets()
        )
    assert our_html == django_html


def test_error_lists_empty_or_not_are_the_same():
    from django.forms.utils import ErrorList

    for errors in ([], ["<b>bad</b>", mark_safe("<i>ok</i>")]):
        django_list = ErrorList(errors, renderer=DjangoTemplates(), field_id="id_x")
        our_list = ErrorList(errors, renderer=FastWidgets(), field_id="id_x")
        assert str(our_list) == str(django_list)
        assert our_list.as_ul() == django_list.as_ul()
