"""The rules pages: the built-in presets, house presets behind their own unguessable links,
the preset editor with its worked example, and adjusting a preset for one match only.

There are no accounts: a house preset's view link shows it and starts matches with it, its edit
link changes it. Nothing here lists house presets; a phone remembers its own (static app.js).
"""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import scoring
from cetele.house_rules.form import RulesetForm, SeenForm
from cetele.house_rules.rulesets import differences, find_house, house_by_token, worked_example
from cetele.matches.forms import MatchForm, RotateLinkForm
from cetele.models import HousePreset, Match, PresetChanged
from cetele.sharing.links import EDIT as EDIT_LINK
from cetele.sharing.links import VIEW as VIEW_LINK
from cetele.sharing.links import forgotten, hand_over, house_keys_guarded, secret_link
from cetele.sharing.pages import rotation_refused
from cetele.shell.language import preset_description, preset_name

DEFAULT_PRESET = "cetele-standart"
NEW, EDIT, MATCH = "new", "edit", "match"


def start_url(value: str) -> str:
    """The new-match page with this preset chosen."""
    return f"{reverse('matches:match_create')}?{urlencode({'preset': value})}"


def editor_url(source: str) -> str:
    return f"{reverse('house_rules:preset_new')}?{urlencode({'from': source})}"


# --- Reading rules ---------------------------------------------------------------------------


@require_safe
def rules_list(request: HttpRequest) -> TemplateResponse:
    """Every built-in preset with its description; this phone's house presets via app.js."""
    presets = [
        {"slug": slug, "name": preset_name(preset), "description": preset_description(preset)}
        for slug, preset in scoring.PRESETS.items()
    ]
    context = {"presets": presets, "forget": forgotten(request)}  # after a deletion (signed)
    return TemplateResponse(request, "cetele/house_rules/rules_list.html", context)


@require_safe
def rules_detail(request: HttpRequest, slug: str) -> TemplateResponse:
    """A built-in preset's full rules."""
    preset = scoring.PRESETS.get(slug)
    if preset is None:
        raise Http404(_("Böyle bir hazır kural yok."))
    context = {
        "name": preset_name(preset),
        "description": preset_description(preset),
        "rules": preset.rules,
        "start_url": start_url(slug),
        "copy_url": editor_url(slug),
    }
    return TemplateResponse(request, "cetele/house_rules/rules_detail.html", context)


@require_safe
@secret_link(role=VIEW_LINK, finds=None)
def house_detail(request: HttpRequest, token: str) -> TemplateResponse:
    """A house preset: its full rules, what it changed from its built-in, start a match."""
    house = house_by_token("view_token", token)
    base = house.base_rules
    context = {
        "house": house,
        "name": house.name,
        "description": house.description,
        "rules": house.rules,
        "base": base,
        "base_name": preset_name(scoring.PRESETS[house.base_slug]) if base else "",
        "changed": bool(differences(house.rules, base)),
        "start_url": start_url(house.choice_value),
        "copy_url": editor_url(house.view_token),
        "view_url": request.build_absolute_uri(
            reverse("house_rules:house_detail", args=[house.view_token])
        ),
    }
    return TemplateResponse(request, "cetele/house_rules/rules_detail.html", context)


# --- The editor ------------------------------------------------------------------------------


def editor_source(source: str) -> tuple[str, dict, str, str]:
    """(base slug, ruleset, name, description) to start the editor from, or 404."""
    if source in scoring.PRESETS:
        preset = scoring.PRESETS[source]
        name = _("%(name)s (bizim masa)") % {"name": preset_name(preset)}
        return source, preset.rules, name, ""
    house = find_house(source)
    if house is None:
        raise Http404(_("Böyle bir kural yok."))
    name = _("%(name)s (kopya)") % {"name": house.name}
    return house.base_slug, house.rules, name, house.description


def render_editor(request: HttpRequest, form: RulesetForm, **context) -> TemplateResponse:
    """The editor page; the example uses the draft when it is valid, else `example_rules`."""
    rules = form.ruleset if form.is_bound else context.get("example_rules")
    context.update(form=form, example=worked_example(rules) if rules else None)
    return TemplateResponse(request, "cetele/house_rules/rules_editor.html", context)


def form_action(request: HttpRequest) -> str:
    return request.POST.get("action", "preview")


@require_http_methods(["GET", "HEAD", "POST"])
@house_keys_guarded(query=("from",))  # ?from=<house key> is a key like /ev/<key>/
def preset_new(request: HttpRequest) -> HttpResponse:
    """Build a house preset, starting from a built-in or a house preset (?from=)."""
    base_slug, rules, name, description = editor_source(request.GET.get("from") or DEFAULT_PRESET)
    context = {"mode": NEW, "form_url": request.get_full_path(), "example_rules": rules}
    if request.method != "POST":
        initial = {**RulesetForm.initial_from_rules(rules, name=name), "description": description}
        return render_editor(request, RulesetForm(initial=initial), **context)
    form = RulesetForm(request.POST)
    if form_action(request) == "save" and form.is_valid():
        house = HousePreset.objects.create(
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            rules=form.ruleset,
            base_slug=base_slug,
        )
        messages.success(
            request,
            _(
                "Kurallar kaydedildi. Bu sayfanın bağlantısı düzenleme bağlantısıdır: saklayın. "
                "Paylaşmak için aşağıdaki bağlantıyı gönderin."
            ),
        )
        return hand_over(
            request, redirect("house_rules:house_edit", house.edit_token), house.edit_token
        )
    form.is_valid()
    return render_editor(request, form, **context)


@require_http_methods(["GET", "HEAD", "POST"])
# The URL is the key to change the preset: no cache may keep the page.
@secret_link(role=EDIT_LINK, finds=None)
def house_edit(request: HttpRequest, token: str) -> HttpResponse:
    """Change a house preset (its edit link). Matches already started keep their copy."""
    house = house_by_token("edit_token", token)
    context = {
        "mode": EDIT,
        "house": house,
        "form_url": reverse("house_rules:house_edit", args=[house.edit_token]),
        "example_rules": house.rules,
        "view_url": request.build_absolute_uri(
            reverse("house_rules:house_detail", args=[house.view_token])
        ),
        "start_url": start_url(house.choice_value),
        "rotate_form": RotateLinkForm(),
    }
    if request.method != "POST":
        initial = {
            **RulesetForm.initial_from_rules(house.rules, name=house.name),
            "description": house.description,
        }
        context["seen_form"] = SeenForm(initial={"seen": house.seen})
        return render_editor(request, RulesetForm(initial=initial), **context)
    form = RulesetForm(request.POST)
    seen = SeenForm(request.POST)
    if form_action(request) == "save" and form.is_valid() and seen.is_valid():
        try:
            house.change(
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                rules=form.ruleset,
                seen=seen.cleaned_data["seen"],
            )
        except PresetChanged as changed:
            # The page keeps what this user typed; a second save, from it, is deliberate.
            context["seen_form"] = SeenForm(initial={"seen": changed.now.seen})
            form.add_error(
                None,
                _(
                    "Bu kuralları siz düzenlerken başka biri kaydetti. Yazdıklarınız aşağıda "
                    "duruyor; yine de bunlar geçerli olsun derseniz yeniden kaydedin."
                ),
            )
        else:
            messages.success(
                request,
                _("Kurallar kaydedildi. Daha önce başlamış maçlar kendi kopyalarıyla sürer."),
            )
            return redirect("house_rules:house_edit", house.edit_token)
    form.is_valid()
    context.setdefault("seen_form", seen)  # drawn again as it came, for the next save
    return render_editor(request, form, **context)


@require_POST
@secret_link(role=EDIT_LINK, finds=None)
def house_rotate(request: HttpRequest, token: str) -> HttpResponse:
    """Give the house preset's edit or view link a new token; the old one stops working at once
    (phones that still hold it are told it changed). Matches started with it keep their copy."""
    house = house_by_token("edit_token", token)
    form = RotateLinkForm(request.POST)
    if not form.is_valid():
        back = reverse("house_rules:house_edit", args=[house.edit_token])
        label = _("Yeni paylaşma bağlantısı")
        return rotation_refused(request, form, request.path, back, label)
    new = house.rotate_token(form.cleaned_data["kind"])
    messages.success(
        request,
        _("Yeni bağlantı hazır; eskisi artık açılmıyor. Gereken kişilere yenisini gönderin."),
    )
    return hand_over(request, redirect("house_rules:house_edit", house.edit_token), new)


@require_POST
def rules_preview(request: HttpRequest) -> TemplateResponse:
    """The worked example scored with the draft rules (the editor's HTMX region)."""
    form = RulesetForm(request.POST)
    form.is_valid()
    context = {"form": form, "example": worked_example(form.ruleset) if form.ruleset else None}
    return TemplateResponse(request, "cetele/house_rules/rules_editor.html#example", context)


# --- One match's own rules ----------------------------------------------------------------


@require_POST
@house_keys_guarded(form=("preset",))
def match_adjust(request: HttpRequest) -> HttpResponse:
    """ "Bu maç için değiştir": the editor, filled from the chosen preset, carrying the match
    form along; "Bu kurallarla başlat" starts the match with the adjusted rules, keeping the
    preset's as its base so that the match's rules page marks what changed."""
    match_form = MatchForm(request.POST)
    if not match_form.is_valid():
        return TemplateResponse(request, "cetele/matches/match_create.html", {"form": match_form})
    source, base, preset_rules = match_form.rules()
    context = {
        "mode": MATCH,
        "match_form": match_form,
        "form_url": reverse("house_rules:match_adjust"),
        "example_rules": preset_rules,
    }
    if RulesetForm.prefix + "-name" not in request.POST:  # just arrived from the match form
        form = RulesetForm(initial=RulesetForm.initial_from_rules(preset_rules))
        return render_editor(request, form, **context)
    form = RulesetForm(request.POST)
    if form_action(request) == "start" and form.is_valid():
        planned = match_form.cleaned_data["planned_hands"]
        if planned in form.ruleset["hands"]:
            match = Match.start(
                match_form.names(),
                teams=match_form.cleaned_data["teams"],
                planned_hands=planned,
                rules=form.ruleset,
                preset_slug=source,
                base_rules=base,
                hidden_totals=match_form.cleaned_data["hidden_totals"],
                first_dealer=match_form.cleaned_data["first_dealer"],
            )
            return hand_over(
                request, redirect("matches:match_detail", match.edit_token), match.edit_token
            )
        form.add_error(
            "hands",
            _("Bu maç %(hands)s el olacak: bu uzunluğu da işaretleyin.") % {"hands": planned},
        )
    form.is_valid()
    return render_editor(request, form, **context)
