"""The okey and the dealer on every phone (cetele.deal): the gösterge of the hand being entered,
set by a joined phone or the scorer, gives the hand's okey number, colour and riziko; the dealer
follows the hand's place from the first dealer chosen at the start."""

import pytest
from django.test import Client
from django.urls import reverse

import scoring
from cetele.deal.models import OpenIndicator
from cetele.models import Match
from tests.factories import add_hand, form_data, make_match, new_match_data, sample_inputs
from tests.web.phones import edit, join, joined_phone, view

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
HOUSE_RULES = {
    "riziko": {"multiplier": 2},
    "colours": {"multipliers": {"red": 1, "blue": 4, "black": 3, "yellow": 2}, "scope": "finish"},
}


def house_match(**override) -> Match:
    rules = scoring.resolve_rules(
        {"preset": "cetele-standart", "override": {**HOUSE_RULES, **override}}
    )
    return Match.start(["Ali", "Ayşe", "Can", "Deniz"], teams=False, planned_hands=5, rules=rules)


def gosterge(position: int, colour: str = "", number: str = "", fake: bool = False) -> dict:
    data = {"position": str(position), "colour": colour, "indicator": number}
    if fake:
        data["riziko"] = "on"
    return data


def fake_okey_left(inputs: dict, seat: int = 1) -> dict:
    """`inputs` with a fake okey left in `seat`'s rack: its value is the okey's number."""
    players = [dict(entry) for entry in inputs["players"]]
    players[seat]["fake_okeys"] = 1
    return {**inputs, "players": players}


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


# --- The gösterge ---------------------------------------------------------------------------------


def test_a_joined_phone_sets_the_gosterge_and_every_phone_shows_the_okey():
    match = make_match()
    phone = joined_phone(match, 1)
    shown = Match.objects.get(pk=match.pk).version
    viewer = Client()
    page(viewer, view("sharing:view_match", match))

    response = phone.post(join("deal:join_indicator", match), gosterge(1, "red", "7"), headers=HTMX)

    assert response.status_code == 200
    assert "Okey: kırmızı 8" in response.content.decode()
    kept = OpenIndicator.objects.get(match=match)
    kept_values = (kept.position, kept.colour, kept.number, kept.fake, kept.seat)
    assert kept_values == (1, "red", 7, False, 1)
    # The view link's poll compares the version: it hears of it and gets the sheet.
    poll = viewer.get(view("sharing:view_poll", match) + f"?v={shown}", headers=HTMX)
    assert poll.status_code == 200 and "Okey: kırmızı 8" in poll.content.decode()
    line = "1. el · Dağıtan: Ali · <strong data-okey>Okey: kırmızı 8</strong>"
    assert line in page(Client(), edit("matches:match_detail", match))
    assert line in page(viewer, view("sharing:view_match", match))
    joined = page(phone, join("seats:join_match", match))
    assert "Okey: kırmızı 8" in joined and "Ayşe gösterdi" in joined
    # The scorer's form starts from it: the red chip and the 7 are chosen.
    scorer = page(Client(), edit("matches:match_detail", match))
    assert 'name="colour" value="red" id="id_colour_0" checked' in scorer
    assert 'name="indicator" value="7" id="id_indicator_6" checked' in scorer


def test_an_indicator_of_13_gives_an_okey_of_1_and_the_hand_scores_with_it(client):
    match = make_match()
    phone = joined_phone(match, 2)
    phone.post(join("deal:join_indicator", match), gosterge(1, "blue", "13"))
    assert "Okey: mavi 1" in page(client, edit("matches:match_detail", match))

    # The scorer's form posts the gösterge it shows; a fake okey left counts the okey's number.
    inputs = fake_okey_left(sample_inputs(finisher=0, remaining=10))
    data = form_data(inputs, position=1) | {"indicator": "13", "colour": "blue"}
    assert client.post(edit("matches:hand_create", match), data).status_code == 302

    saved = match.hands.get()
    assert saved.inputs["okey_number"] == 1 and saved.inputs["colour"] == "blue"
    assert saved.result == scoring.score_json({"rules": match.rules, "hand": saved.inputs})
    assert not OpenIndicator.objects.filter(match=match).exists()  # the save cleared it


def test_a_fake_okey_indicator_is_riziko_and_the_okey_still_needs_its_tile(client):
    """ "Sahte okey": the hand is riziko; the tile turned up in its place still gives the okey,
    which a fake okey left in a rack counts (cetele.deal.tiles)."""
    match = house_match()
    phone = joined_phone(match, 3)
    phone.post(join("deal:join_indicator", match), gosterge(1, fake=True))
    sheet = page(client, edit("matches:match_detail", match))
    assert "Gösterge: sahte okey (riziko)" in sheet
    assert 'name="riziko" id="id_riziko" checked' in sheet

    inputs = fake_okey_left(sample_inputs(finisher=0, remaining=10))
    no_colour = client.post(
        edit("matches:hand_create", match), form_data(inputs, position=1) | {"riziko": "on"}
    )
    assert "Göstergenin rengini seçin." in no_colour.content.decode()
    no_number = client.post(
        edit("matches:hand_create", match),
        form_data(inputs, position=1) | {"riziko": "on", "colour": "black"},
    )
    assert "göstergeyi seçin" in no_number.content.decode()
    assert not match.hands.exists()

    phone.post(join("deal:join_indicator", match), gosterge(1, "black", "4", fake=True))
    assert "Gösterge: sahte okey (riziko) · Okey: siyah 5" in page(
        client, view("sharing:view_match", match)
    )
    data = form_data(inputs, position=1) | {"riziko": "on", "colour": "black", "indicator": "4"}
    assert client.post(edit("matches:hand_create", match), data).status_code == 302
    saved = match.hands.get()
    assert saved.inputs["riziko"] is True and saved.inputs["okey_number"] == 5
    assert saved.inputs["colour"] == "black"
    assert saved.result == scoring.score_json({"rules": match.rules, "hand": saved.inputs})
    assert saved.scores[0] == -101 * 2 * 3  # the finish row × 2 (riziko) × 3 (siyah)


def test_the_okey_number_is_asked_as_the_gosterge_only_where_a_count_needs_it(client):
    match = make_match()
    form = page(client, edit("matches:match_detail", match))
    assert 'id="id_okey_number"' not in form or 'type="hidden" name="okey_number"' in form
    assert "Okey kaç?" not in form  # the select is gone: the gösterge is asked

    needs = client.post(
        edit("matches:hand_create", match),
        form_data(fake_okey_left(sample_inputs(finisher=0, remaining=10)), position=1),
    )
    assert 'id="id_indicator-errors"' in needs.content.decode()
    errors = needs.content.decode().split('id="id_indicator-errors"')[1][:400]
    assert "göstergeyi seçin" in errors
    assert not match.hands.exists()

    # A hand with no okey left needs neither: it saves without a gösterge.
    plain = client.post(edit("matches:hand_create", match), form_data(sample_inputs(), position=1))
    assert plain.status_code == 302
    assert "okey_number" not in match.hands.get().inputs


def test_a_hand_kept_on_a_phone_before_the_gosterge_still_saves_its_okey_number(client):
    match = make_match()
    inputs = fake_okey_left(sample_inputs(finisher=0, remaining=10))
    data = form_data(inputs, position=1)
    data.pop("indicator", None)
    data["okey_number"] = "9"  # what the form sent before the gösterge
    assert client.post(edit("matches:hand_create", match), data).status_code == 302
    assert match.hands.get().inputs["okey_number"] == 9


@pytest.mark.parametrize(
    "data, message",
    [
        (gosterge(1, "green", "7"), "Göstergenin rengini listeden seçin."),
        (gosterge(1, "red", "14"), "Göstergenin sayısını 1 ile 13 arasından seçin."),
        ({"colour": "red", "indicator": "7"}, "Gösterge hangi el için, anlaşılamadı."),
    ],
)
@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_bad_gosterge_is_told_and_changes_nothing(data, message, headers):
    match = make_match()
    phone = joined_phone(match, 1)
    version = Match.objects.get(pk=match.pk).version

    response = phone.post(join("deal:join_indicator", match), data, headers=headers, follow=True)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not OpenIndicator.objects.exists()
    assert Match.objects.get(pk=match.pk).version == version


def test_a_gosterge_for_a_hand_already_saved_is_told_and_not_applied(client):
    match = make_match()
    phone = joined_phone(match, 1)
    add_hand(match, sample_inputs())

    response = phone.post(join("deal:join_indicator", match), gosterge(1, "red", "7"), follow=True)

    assert "1. el kaydedildi; gösterge kullanılmadı." in response.content.decode()
    assert not OpenIndicator.objects.exists()


def test_a_phone_without_a_seat_cannot_set_the_gosterge():
    match = make_match()
    response = Client().post(
        join("deal:join_indicator", match), gosterge(1, "red", "7"), follow=True
    )
    assert "önce adınızı seçin" in response.content.decode()
    assert not OpenIndicator.objects.exists()


def test_the_scorer_sets_and_corrects_the_gosterge_in_the_hand_form_without_javascript(client):
    match = make_match()
    joined_phone(match, 1).post(join("deal:join_indicator", match), gosterge(1, "red", "7"))

    data = {"action": "indicator", "position": "1", "colour": "yellow", "indicator": "12"}
    response = client.post(edit("matches:hand_create", match), data)

    assert response.status_code == 200
    kept = OpenIndicator.objects.get(match=match)
    assert (kept.colour, kept.number, kept.seat) == ("yellow", 12, None)
    assert "Okey: sarı/yeşil 13" in response.content.decode()
    assert not match.hands.exists()  # showing the gösterge saves no hand
    joined = page(joined_phone(match, 2), join("seats:join_match", match))
    assert "Okey: sarı/yeşil 13" in joined and "çeteleyi tutan gösterdi" in joined


SCORERS = "Göstergeyi çeteleyi tutan gösterdi (Okey: sarı/yeşil 13); sizinki kullanılmadı."


def scorer_sets(match: Match, colour: str, number: str) -> None:
    data = {"action": "indicator", "position": "1", "colour": colour, "indicator": number}
    assert Client().post(edit("matches:hand_create", match), data).status_code == 200


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_phones_gosterge_does_not_replace_the_one_the_scorer_set(headers):
    """The scorer is the authority: a phone's gösterge sent late (it waited without signal) or
    from a page that had not heard of the scorer's is told and changes nothing."""
    match = make_match()
    phone = joined_phone(match, 1)
    scorer_sets(match, "yellow", "12")
    version = Match.objects.get(pk=match.pk).version

    response = phone.post(
        join("deal:join_indicator", match), gosterge(1, "red", "7"), headers=headers, follow=True
    )

    assert response.status_code == 200
    text = response.content.decode()
    assert SCORERS in text
    kept = OpenIndicator.objects.get(match=match)
    assert (kept.colour, kept.number, kept.seat) == ("yellow", 12, None)
    assert Match.objects.get(pk=match.pk).version == version
    # The phone's chips show the scorer's gösterge, not its own taps.
    assert 'name="indicator" value="12" id="gosterge_indicator_11" checked' in text
    assert 'value="7" id="gosterge_indicator_6" checked' not in text
    if headers:
        assert response["HX-Retarget"] == "#indicator"


def test_a_phone_that_says_the_scorers_gosterge_changes_nothing_and_is_not_refused():
    match = make_match()
    scorer_sets(match, "yellow", "12")
    version = Match.objects.get(pk=match.pk).version

    response = joined_phone(match, 1).post(
        join("deal:join_indicator", match), gosterge(1, "yellow", "12"), headers=HTMX
    )

    text = response.content.decode()
    assert "kullanılmadı" not in text and "Okey: sarı/yeşil 13" in text
    assert OpenIndicator.objects.get(match=match).seat is None  # still the scorer's
    assert Match.objects.get(pk=match.pk).version == version


def test_a_phone_still_changes_a_gosterge_another_phone_set():
    match = make_match()
    joined_phone(match, 1).post(join("deal:join_indicator", match), gosterge(1, "red", "7"))

    joined_phone(match, 2).post(join("deal:join_indicator", match), gosterge(1, "red", "8"))

    kept = OpenIndicator.objects.get(match=match)
    assert (kept.colour, kept.number, kept.seat) == ("red", 8, 2)


def test_the_scorers_tap_on_a_chip_keeps_it_and_answers_with_the_preview(client):
    match = make_match()
    data = {"action": "indicator", "position": "1", "colour": "red", "indicator": "3"}
    headers = {**HTMX, "HX-Target": "hand-preview"}

    response = client.post(edit("matches:hand_create", match), data, headers=headers)

    text = response.content.decode()
    assert 'id="hand-preview"' in text and 'id="hand-form"' not in text
    assert '<span id="okey-words" class="okey-words" hx-swap-oob="true">Okey: kırmızı 4' in text
    assert OpenIndicator.objects.get(match=match).number == 3


def test_a_correction_shows_and_edits_the_hands_gosterge_as_stored(client):
    match = house_match()
    inputs = fake_okey_left(sample_inputs(finisher=0, remaining=10)) | {
        "okey_number": 1,
        "colour": "red",
        "riziko": False,
    }
    hand = add_hand(match, inputs)

    form = page(client, edit("matches:hand_detail", match, hand.number))
    assert "Dağıtan: Ali · Okey: kırmızı 1" in form
    assert 'name="indicator" value="13" id="id_indicator_12" checked' in form
    assert 'name="colour" value="red" id="id_colour_0" checked' in form

    data = form_data(inputs, version=hand.version) | {"colour": "red", "indicator": "13"}
    client.post(edit("matches:hand_edit", match, hand.number), data)
    hand.refresh_from_db()
    facts = ("okey_number", "colour", "riziko")
    # Unchanged: the gösterge gives back the stored facts.
    assert [hand.inputs[name] for name in facts] == [inputs[name] for name in facts]
    data = form_data(inputs, version=hand.version) | {
        "colour": "blue",
        "indicator": "6",
        "riziko": "on",
    }
    assert client.post(edit("matches:hand_edit", match, hand.number), data).status_code == 302
    hand.refresh_from_db()
    assert (hand.inputs["okey_number"], hand.inputs["colour"], hand.inputs["riziko"]) == (
        7,
        "blue",
        True,
    )
    assert hand.result == scoring.score_json({"rules": match.rules, "hand": hand.inputs})


def test_a_hand_saved_before_the_gosterge_shows_as_before(client):
    match = make_match()
    hand = add_hand(match, sample_inputs())
    text = page(client, edit("matches:hand_detail", match, hand.number))
    assert "Dağıtan: Ali</p>" in text and "Okey:" not in text.split('id="hand-form"')[0]


# --- The dealer -----------------------------------------------------------------------------------


def test_the_first_dealer_is_chosen_at_the_start_and_passes_on_by_the_hands_place(client):
    response = client.post(reverse("matches:match_create"), new_match_data(first_dealer="2"))
    match = Match.objects.get()
    assert response.status_code == 302 and match.first_dealer == 2
    assert "1. el · Dağıtan: Can" in page(client, edit("matches:match_detail", match))
    assert '<span class="dealer">Dağıtan: Can</span>' in page(
        client, edit("matches:match_detail", match)
    )

    first = add_hand(match, sample_inputs())
    add_hand(match, sample_inputs())
    assert "3. el · Dağıtan: Ali" in page(
        client, view("sharing:view_match", match)
    )  # 2 + 2 wraps to 0
    assert "Dağıtan: Deniz" in page(
        client, edit("matches:hand_detail", match, match.hands.last().number)
    )

    # It follows the place: with the first hand deleted, the second is the first and Can's.
    match.delete_hand(first.number)
    match.refresh_from_db()
    assert "2. el · Dağıtan: Deniz" in page(client, view("sharing:view_match", match))
    assert "Dağıtan: Can" in page(
        client, edit("matches:hand_detail", match, match.hands.get().number)
    )


def test_a_new_match_without_the_choice_starts_with_the_first_player_dealing(client):
    client.post(reverse("matches:match_create"), new_match_data())
    assert Match.objects.get().first_dealer == 0


def test_an_empty_seat_cannot_deal_first(client):
    data = new_match_data(name_4="", first_dealer="3")
    response = client.post(reverse("matches:match_create"), data)
    assert response.status_code == 200
    assert "İlk eli dağıtan oyunculardan biri olmalı" in response.content.decode()
    assert not Match.objects.exists()


def test_the_dealer_can_be_changed_on_the_first_hand_only(client):
    match = make_match()
    version = Match.objects.get(pk=match.pk).version
    assert 'name="first_dealer"' in page(client, edit("matches:match_detail", match))

    response = client.post(edit("deal:match_dealer", match), {"first_dealer": "3"}, follow=True)
    assert "İlk eli Deniz dağıtıyor." in response.content.decode()
    match.refresh_from_db()
    assert match.first_dealer == 3 and match.version == version + 1
    assert "1. el · Dağıtan: Deniz" in page(client, view("sharing:view_match", match))

    bad = client.post(edit("deal:match_dealer", match), {"first_dealer": "7"}, follow=True)
    assert "Kimin dağıttığını listeden seçin. Hiçbir şey değişmedi." in bad.content.decode()

    add_hand(match, sample_inputs())
    assert 'name="first_dealer"' not in page(client, edit("matches:match_detail", match))
    late = client.post(edit("deal:match_dealer", match), {"first_dealer": "1"}, follow=True)
    assert "dağıtan artık sırayla geçer" in late.content.decode()
    match.refresh_from_db()
    assert match.first_dealer == 3
    assert "2. el · Dağıtan: Ali" in page(client, edit("matches:match_detail", match))


def test_a_gosterge_sent_by_htmx_for_a_hand_saved_meanwhile_brings_the_next_hands_section():
    match = make_match(planned_hands=2)
    phone = joined_phone(match, 1)
    add_hand(match, sample_inputs())

    response = phone.post(join("deal:join_indicator", match), gosterge(1, "red", "7"), headers=HTMX)

    assert response["HX-Retarget"] == "#indicator"
    text = response.content.decode()
    assert "1. el kaydedildi; gösterge kullanılmadı." in text
    assert '<input type="hidden" name="position" value="2">' in text
    # The last hand saved meanwhile: the sentence alone, nothing to write for.
    add_hand(match, sample_inputs())
    over = phone.post(join("deal:join_indicator", match), gosterge(2, "red", "7"), headers=HTMX)
    assert "HX-Retarget" not in over
    assert "2. el kaydedildi; gösterge kullanılmadı." in over.content.decode()
    assert 'name="position"' not in over.content.decode()
    assert not OpenIndicator.objects.exists()


def test_the_rows_poll_brings_the_gosterge_to_the_scorer_and_to_the_other_phones():
    match = make_match()
    match.refresh_from_db()
    other = joined_phone(match, 2)
    scorer = Client()
    asked = f"?v={match.version}&d={match.draft_version}&p=1"
    joined_phone(match, 1).post(join("deal:join_indicator", match), gosterge(1, "red", "7"))

    rows = scorer.get(edit("seats:seat_rows", match) + asked, headers=HTMX).content.decode()
    assert 'data-indicator="{&quot;colour&quot;: &quot;red&quot;, &quot;indicator&quot;: 7' in rows
    theirs = other.get(join("seats:join_rows", match) + asked, headers=HTMX).content.decode()
    section = theirs.split('<section id="indicator"')[1]
    assert section.startswith(' class="card indicator-card"') and 'hx-swap-oob="true"' in section
    assert "Okey: kırmızı 8" in section and "Ayşe gösterdi" in section
    assert 'name="indicator" value="7" id="gosterge_indicator_6" checked' in section


def test_a_colour_tapped_before_its_number_draws_no_sheet_again_and_the_scorer_still_takes_it():
    """Two taps a hand, colour then number: the colour alone is not the okey yet, so no phone's
    sheet changes (the viewers' polls stay "nothing changed"); the scorer's form takes it from
    the rows, and the number then brings the okey to every sheet, in one new version."""
    match = make_match()
    phone = joined_phone(match, 1)
    match.refresh_from_db()
    version, draft_version = match.version, match.draft_version
    viewer = Client()
    page(viewer, view("sharing:view_match", match))

    phone.post(join("deal:join_indicator", match), gosterge(1, "red"), headers=HTMX)

    match.refresh_from_db()
    assert (match.version, match.draft_version) == (version, draft_version + 1)
    poll = viewer.get(view("sharing:view_poll", match) + f"?v={version}", headers=HTMX)
    assert poll.status_code == 204
    assert "data-okey" not in page(
        viewer, view("sharing:view_match", match)
    )  # "Gösterge: kırmızı": no
    asked = f"?v={version}&d={draft_version}&p=1"
    rows = Client().get(edit("seats:seat_rows", match) + asked, headers=HTMX)
    assert rows.status_code == 200 and "HX-Trigger" not in rows  # rows news, no new sheet
    assert 'data-indicator="{&quot;colour&quot;: &quot;red&quot;' in rows.content.decode()

    phone.post(join("deal:join_indicator", match), gosterge(1, "red", "7"), headers=HTMX)

    match.refresh_from_db()
    assert match.version == version + 1
    poll = viewer.get(view("sharing:view_poll", match) + f"?v={version}", headers=HTMX)
    assert poll.status_code == 200 and "Okey: kırmızı 8" in poll.content.decode()
