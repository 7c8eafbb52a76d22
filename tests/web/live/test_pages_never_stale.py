"""The live sheet drawn once per version and kept (cetele/matches/sheet.py): every phone at a
version gets the same sheet for one query, and no change, link or language ever gets a stale one;
the pages around it are each request's own (no phone's token is in another's page)."""

import json
import re
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import scoring
from cetele.live.kept import FORMS, SHEETS, kept
from cetele.models import Hand, Match, NothingToUndo
from tests.factories import add_hand, form_data, make_match, sample_inputs, undo, undo_form

pytestmark = pytest.mark.django_db


def sheet_of(html: str) -> str:
    """The inside of <section id="sheet"> (which holds the summary's own <section>)."""
    start = html.index(">", html.index('<section id="sheet"')) + 1
    depth, at = 1, start
    for tag in re.finditer(r"<(/?)section\b", html[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            at = start + tag.start()
            break
    assert depth == 0, "the sheet is not closed"
    return html[start:at]


def view(client, match: Match) -> str:
    return client.get(reverse("sharing:view_match", args=[match.view_token])).content.decode()


def edit(client, match: Match) -> str:
    return client.get(reverse("matches:match_detail", args=[match.edit_token])).content.decode()


def test_a_second_phone_at_the_same_version_gets_the_sheet_for_one_query(
    client, django_assert_num_queries
):
    match = make_match(hands=13)
    first = view(client, match)

    with django_assert_num_queries(1):  # the match by its link; players and hands are not read
        second = view(Client(), match)

    assert sheet_of(second) == sheet_of(first)
    assert "Ali" in sheet_of(second) and "<tbody>" in sheet_of(second)


def test_the_scorer_s_page_at_a_kept_version_has_the_next_hand_s_form(client):
    match = make_match(hands=5)
    edit(client, match)

    html = edit(Client(), match)

    assert 'id="hand-form"' in html and "6. el" in html
    assert 'name="position" value="6"' in html
    assert html.count('name="finisher"') == 5  # a "bitirdi" per player, and "kimse bitmedi"


def test_the_sheet_is_drawn_once_per_version(client, monkeypatch):
    import cetele.matches.sheet

    drawn = []
    real_draw = cetele.matches.sheet.draw
    monkeypatch.setattr(cetele.matches.sheet, "draw", lambda *a: drawn.append(1) or real_draw(*a))
    match = make_match(hands=3)

    for _ in range(3):
        view(Client(), match)
    assert len(drawn) == 1
    add_hand(match, sample_inputs())
    for _ in range(3):
        view(Client(), match)
    assert len(drawn) == 2


def test_the_kept_sheet_has_nothing_of_one_request(client):
    """Two editors with different CSRF cookies get byte-identical sheets without any token."""
    match = make_match(planned_hands=2, hands=2)  # finished: the summary and chart are drawn too
    one, two = Client(), Client()

    sheets = [sheet_of(edit(phone, match)) for phone in (one, two)]

    assert sheets[0] == sheets[1]
    assert "csrfmiddlewaretoken" not in sheets[0] and "<form" not in sheets[0]
    assert "Maçın özeti" in sheets[0]


@pytest.mark.parametrize("change", ["add", "edit", "delete", "undo", "rename"])
def test_every_change_shows_at_once_on_a_sheet_that_was_kept(client, change):
    match = make_match(hands=2)
    before = sheet_of(view(client, match))
    hand = match.hands.last()
    if change == "add":
        add_hand(match, sample_inputs(finisher=3, remaining=77))
    elif change == "edit":
        match.edit_hand(hand.number, sample_inputs(finisher=3, remaining=77), hand.version)
    elif change == "delete":
        match.delete_hand(hand.number)
    elif change == "undo":
        undo(match)
    else:
        match.rename_players(["Ali", "Ayşe", "Cem", "Deniz"])

    after = sheet_of(view(client, match))

    assert after != before
    if change == "rename":
        assert "Cem" in after and "Can" not in after


def test_a_rotated_link_never_gets_a_sheet_with_the_old_links(client):
    match = make_match(hands=2)
    old = match.edit_token
    assert old in sheet_of(edit(client, match))

    client.post(reverse("sharing:match_rotate", args=[old]), {"kind": "edit", "confirm": "on"})
    match.refresh_from_db()

    sheet = sheet_of(edit(client, match))
    assert match.edit_token != old and match.edit_token in sheet and old not in sheet


def test_each_language_gets_its_own_sheet(client):
    match = make_match(planned_hands=1, hands=1)
    turkish = sheet_of(view(client, match))

    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    english = sheet_of(view(client, match))

    assert "Maçın özeti" in turkish and "Match summary" in english


def test_the_view_link_s_sheet_never_holds_the_edit_token(client):
    match = make_match(hands=2)
    edit(client, match)  # the editor's sheet is kept first

    sheet = sheet_of(view(client, match))

    assert match.edit_token not in sheet and match.view_token in sheet


def test_a_save_answers_without_the_sheet_and_the_scorer_s_poll_is_given_the_kept_one(
    client, django_assert_num_queries
):
    """The save's answer names the hand; the page then asks for the sheet as every phone does
    (static/cetele/app.js), and one drawing of the new version serves them all."""
    match = make_match(hands=1)
    shown = match.version
    answer = client.post(
        reverse("matches:hand_create", args=[match.edit_token]),
        form_data(sample_inputs(), position=2),
        headers={"HX-Request": "true"},
    )
    assert 'id="sheet"' not in answer.content.decode()
    saved = json.loads(answer["HX-Trigger"])["cetele:hand-saved"]
    hand = match.hands.get(number=saved["number"])
    assert saved["position"] == 2 and hand.number == match.hands.count() == 2

    poll = reverse("sharing:match_poll", args=[match.edit_token]) + f"?v={shown}"
    polled = sheet_of(client.get(poll, headers={"HX-Request": "true"}).content.decode())
    # Every row names its hand, for the page to mark the one it saved; nothing drawn is marked.
    assert re.findall(r'<tr data-hand="(\d+)">', polled) == [str(n) for n in (1, 2)]
    assert "just-saved" not in polled
    with django_assert_num_queries(2):  # the match by its link, its players: the sheet is kept
        other = edit(Client(), match)
    assert sheet_of(other) == polled


def test_a_drawing_many_phones_ask_for_at_once_is_drawn_once():
    """A table's phones are told of a change together and ask within a moment of each other:
    the first draws the sheet, and the others wait for its drawing rather than each drawing it
    too, slower for all."""
    draws = []
    drawing = threading.Event()

    def draw() -> str:
        draws.append(threading.get_ident())
        drawing.set()
        time.sleep(0.3)
        return "the sheet"

    key = f"sheet:{uuid.uuid4()}"
    with ThreadPoolExecutor(4) as phones:
        first = phones.submit(kept, key, draw)
        assert drawing.wait(5)
        others = [phones.submit(kept, key, draw) for _ in range(3)]
        shown = [first.result()] + [other.result() for other in others]
    assert shown == ["the sheet"] * 4
    assert len(draws) == 1


def test_the_sheets_cache_is_bounded():
    """Memory is bounded: some 100 MB per worker at 10,000 entries (cetele/settings.py)."""
    options = settings.CACHES[SHEETS]["OPTIONS"]["MAX_ENTRIES"]
    assert 2000 < options <= 10_000
    assert settings.CACHES[FORMS]["OPTIONS"]["MAX_ENTRIES"] <= 5_000


def test_the_next_hand_s_empty_fields_outlive_the_other_tables_sheets(client):
    """A table's empty fields are asked for again only at its next save, minutes later; by then
    a busy server has drawn more sheets and rows of other tables than it keeps. They must still
    be there: drawn again at every save, they were 8 % of a worker's CPU at 2,400 tables."""
    match = make_match(hands=2)
    page = reverse("matches:match_detail", args=[match.edit_token])
    fields = "cetele/hand_form/_hand_fields.html"
    assert fields in [t.name for t in client.get(page).templates]  # drawn, and kept

    for n in range(settings.CACHES[SHEETS]["OPTIONS"]["MAX_ENTRIES"] + 1):
        kept(f"sheet:another-table-{n}", lambda: "<table>…</table>")  # every other table's save

    assert fields not in [t.name for t in Client().get(page).templates]


def request_token_of(html: str) -> str:
    return re.search(r'name="request_token" value="([^"]+)"', html).group(1)


def test_the_kept_empty_fields_still_give_each_phone_its_own_one_time_token(client):
    """Two phones entering the same hand from the kept form: their saves must not be taken for
    one retried request."""
    match = make_match(hands=2)
    first, second = edit(Client(), match), edit(Client(), match)

    assert request_token_of(first) != request_token_of(second)
    for html in (first, second):
        fields = html[html.index('<div class="hand-level"') : html.index("</form>")]
        assert "csrfmiddlewaretoken" not in fields and "request_token" not in fields


def test_a_renamed_player_is_on_the_next_empty_form(client):
    match = make_match(hands=2)
    assert "Can" in edit(client, match)

    match.rename_players(["Ali", "Ayşe", "Cem", "Deniz"])

    form = edit(client, match).split('id="hand-form"')[1]
    assert "Cem" in form and "Can" not in form


def hand_form_of(html: str) -> str:
    """The hand form, its one-time values (CSRF token, request token) blanked."""
    start = html.index('<form id="hand-form"')
    form = html[start : html.index("</form>", start)]
    form = re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]*', r"\1", form)
    return re.sub(r'(name="request_token" value=")[^"]*', r"\1", form)


def test_each_save_s_answer_is_the_form_the_page_shows_for_the_next_hand(client):
    """At every place, the last hand's too, a save's answer is the form the page draws for the
    next hand by itself, with its own one-time token; after the last hand, "Maç bitti"."""
    last_hand_counts_ten = {"preset": "cetele-standart", "override": {"last_hand_multiplier": 10}}
    rules = scoring.resolve_rules(last_hand_counts_ten)
    match = Match.start(["Ali", "Ayşe", "Can", "Deniz"], teams=False, planned_hands=4, rules=rules)
    tokens = set()
    for position in (1, 2, 3):
        answer = save(client, match, position=position).content.decode()

        assert f"{position}. el kaydedildi." in answer
        assert hand_form_of(answer) == hand_form_of(edit(client, match))
        assert f'name="position" value="{position + 1}"' in answer
        assert ("Son el: ×10" in answer) == (position == 3)
        tokens.add(re.search(r'name="request_token" value="([^"]+)"', answer)[1])
    assert len(tokens) == 3  # a new one-time token for every form

    answer = save(client, match, position=4).content.decode()
    assert "4. el kaydedildi." in answer and "Maç bitti" in answer


def test_a_renaming_just_before_a_save_is_on_its_answer_s_form_and_sheet(client, monkeypatch):
    match = make_match(hands=1)
    shown = match.version
    saving = Match.add_hand

    def renamed_first(self, *args, **kwargs):  # another phone renames, then this save writes
        Match.objects.get(pk=self.pk).rename_players(["Ali", "Ayşe", "Cem", "Deniz"])
        return saving(self, *args, **kwargs)

    monkeypatch.setattr(Match, "add_hand", renamed_first)
    answer = save(client, match, position=2).content.decode()

    form = answer.split('id="hand-form"')[1]
    assert "Cem" in form and "Can" not in form
    poll = reverse("sharing:match_poll", args=[match.edit_token]) + f"?v={shown}"
    sheet = sheet_of(client.get(poll, headers={"HX-Request": "true"}).content.decode())
    assert "Cem" in sheet and "Can" not in sheet


def save(client, match: Match, position: int):
    data = form_data(sample_inputs(), position=position)
    url = reverse("matches:hand_create", args=[match.edit_token])
    return client.post(url, data, headers={"HX-Request": "true"})


def test_the_empty_form_follows_the_language(client):
    match = make_match(hands=2)
    assert "Eli kaydet" in edit(client, match)

    client.post("/i18n/setlang/", {"language": "en", "next": "/"})

    html = edit(client, match)
    assert "Save hand" in html and "Eli kaydet" not in html


def chips_of(html: str) -> str:
    """The gösterge's chips on the scorer's form."""
    start = html.index('<div class="indicator-chips">')
    return html[start : html.index("data-without-js", start)]  # "Göstergeyi göster", after them


def test_the_kept_empty_chips_never_hide_a_gosterge_a_phone_set(client):
    """The chips with none chosen are drawn once and kept; a page whose hand has a gösterge
    shows it checked, the next hand's form none again, and each language and each kind of rules
    ("sahte okey" or not) its own chips."""
    plain = make_match(hands=2)
    riziko = Match.start(
        ["Ali", "Ayşe", "Can", "Deniz"],
        teams=False,
        planned_hands=5,
        rules=scoring.resolve_rules(
            {"preset": "cetele-standart", "override": {"riziko": {"multiplier": 2}}}
        ),
    )
    assert "checked" not in chips_of(edit(client, plain))
    assert 'name="riziko"' not in chips_of(edit(client, plain))
    assert 'name="riziko"' in chips_of(edit(client, riziko))  # kept apart by the rules
    # with the containers a preview's errors are sent to (out of band, by their ids)
    for field in ("colour", "indicator"):
        assert f'<div id="id_{field}-errors" class="field-errors">' in chips_of(edit(client, plain))
    assert 'id="id_riziko-errors"' in chips_of(edit(client, riziko))

    client.post(
        reverse("matches:hand_create", args=[plain.edit_token]),
        {"action": "indicator", "position": "3", "colour": "blue", "indicator": "7"},
    )
    shown = chips_of(edit(client, plain))
    assert 'value="blue" id="id_colour_1" checked' in shown
    assert 'value="7" id="id_indicator_6" checked' in shown

    client.post(
        reverse("matches:hand_create", args=[plain.edit_token]),
        form_data(sample_inputs(), position=3),
    )
    assert "checked" not in chips_of(edit(client, plain))  # the next hand's gösterge is not set

    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    english = chips_of(edit(client, plain))
    assert "Blue" in english and "Mavi" not in english


def test_a_database_restored_under_a_running_server_never_shows_the_kept_sheet_of_another_past(
    client,
):
    """`manage.py restore` may run while gunicorn does: the match goes back to an earlier
    version, then reaches the same version number again with other hands."""
    match = make_match(hands=2)
    before_restore = sheet_of(view(client, match))  # kept at version 2
    Hand.objects.filter(match=match, number=2).delete()
    Match.objects.filter(pk=match.pk).update(
        version=1, touched_at=timezone.now() - timedelta(hours=1)
    )  # what a backup taken after the first hand holds
    match.refresh_from_db()

    add_hand(match, sample_inputs(finisher=3, remaining=77))  # version 2 again, another hand

    match.refresh_from_db()
    assert match.version == 2
    after = sheet_of(view(client, match))
    assert after != before_restore
    assert ">77<" in after or "77</a>" in after


# --- The pages around the sheet: each request's own

PAGES = {
    "edit": ("matches:match_detail", "edit_token"),
    "view": ("sharing:view_match", "view_token"),
}


def page_url(match: Match, role: str) -> str:
    name, token = PAGES[role]
    return reverse(name, args=[getattr(match, token)])


def csrf_tokens_of(html: str) -> set[str]:
    forms = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    return {*forms, *re.findall(r'"x-csrftoken": "([^"]+)"', html)}


@pytest.mark.parametrize("role", ["edit", "view"])
def test_no_phone_s_csrf_token_or_request_token_is_in_another_phone_s_page(role):
    """Two phones, one after the other at the same version: each page (and each save's answer)
    carries its own phone's CSRF token and one-time token, never the other's."""
    match = make_match(hands=3)
    url = page_url(match, role)
    phones = [Client(), Client()]
    pages = [phone.get(url).content.decode() for phone in phones]
    if role == "edit":
        pages += [
            save(phone, match, position=4 + n).content.decode() for n, phone in enumerate(phones)
        ]
    mine = {0: pages[0::2], 1: pages[1::2]}

    for phone, own in mine.items():
        others = "".join(mine[1 - phone])
        for html in own:
            tokens = csrf_tokens_of(html)
            assert tokens and not any(token in others for token in tokens)
            if role == "edit":
                assert request_token_of(html) not in others


def test_each_request_gets_its_own_values_in_its_page(client):
    match = make_match(hands=3)
    url = page_url(match, "edit")
    client.get(url)
    other = Client()

    pages = [phone.get(f"{url}?from=qr&x=<b>").content.decode() for phone in (client, other)]

    for html in pages:
        assert f'name="next" value="{url}?from=qr&amp;x=%3Cb%3E"' in html
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        assert f'"x-csrftoken": "{token}"' in html and len(token) == 64
        assert int(re.search(r'data-quiet="(\d+)"', html).group(1)) < 60
    assert request_token_of(pages[0]) != request_token_of(pages[1])
    # Each phone's CSRF token is its own cookie's: a form posted from its page is accepted.
    strict = Client(enforce_csrf_checks=True)
    html = strict.get(url).content.decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    undo_url = reverse("matches:match_undo", args=[match.edit_token])
    undo = strict.post(undo_url, {"csrfmiddlewaretoken": csrf, **undo_form(match)})
    assert undo.status_code == 302


def test_a_flash_message_is_shown_once_and_only_to_its_phone(client):
    match = make_match(hands=3)
    url = page_url(match, "edit")
    client.get(url)  # the sheet at this version is kept

    client.post(reverse("matches:match_undo", args=[match.edit_token]), undo_form(match))
    shown = client.get(url).content.decode()
    again = client.get(url).content.decode()

    note = "3. el çeteleden çıkarıldı."
    assert note in shown
    assert note not in again and note not in Client().get(url).content.decode()


def test_the_quiet_time_on_a_page_is_counted_at_each_request(client):
    match = make_match(hands=3)
    url = page_url(match, "view")
    client.get(url)
    Match.objects.filter(pk=match.pk).update(touched_at=timezone.now() - timedelta(minutes=10))
    match.refresh_from_db()
    client.get(url)  # kept at this moment of change

    later = timezone.now() + timedelta(minutes=5)
    import cetele.live.schedule

    real_now = cetele.live.schedule.timezone.now
    try:
        cetele.live.schedule.timezone.now = lambda: later
        html = client.get(url).content.decode()
    finally:
        cetele.live.schedule.timezone.now = real_now
    assert 899 <= int(re.search(r'data-quiet="(\d+)"', html).group(1)) <= 905


def test_geri_al_names_and_undoes_the_latest_change_not_undone_through_every_kind():
    """The one rule behind "Geri al: …" on the sheet and
    behind undo(): the latest change that is not an undo and was not undone."""
    match = make_match(hands=0)
    steps = [  # (a change, the action "Geri al" then names)
        (lambda: add_hand(match, sample_inputs()), "create"),
        (lambda: add_hand(match, sample_inputs(finisher=2)), "create"),
        (lambda: match.edit_hand(1, sample_inputs(finisher=3), 1), "edit"),
        (lambda: undo(match), "create"),  # the correction undone: the second hand's adding is next
        (lambda: undo(match), "create"),  # an undo is never itself undone: the first hand's adding
        (lambda: match.rename_players(["Ali", "Ayşe", "Cem", "Deniz"]), "rename"),
        (lambda: match.delete_hand(1), "delete"),
        (lambda: undo(match), "rename"),
        (lambda: undo(match), "create"),
        (lambda: undo(match), None),
    ]
    assert match.last_undoable_change() is None
    for change, expected in steps:
        change()
        last = match.last_undoable_change()
        if expected is None:
            assert last is None
            continue
        assert last.action == expected
    with pytest.raises(NothingToUndo):  # the latest change is an undo: "Geri al" never names one
        match.undo(match.changes.first().pk)
    assert not match.hands.exists()
    assert [p.name for p in match.players.all()] == ["Ali", "Ayşe", "Can", "Deniz"]
