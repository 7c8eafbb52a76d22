"""Names that are names: Unicode NFC, no invisible or direction-changing characters, and never a
name with nothing visible in it (cetele.shell.names), wherever people type one."""

import pytest
from django.urls import reverse

from cetele.models import HousePreset, Player, Table
from cetele.shell.names import NameField, clean_name
from tests.factories import make_match, new_match_data
from tests.web.house_rules.test_preset_editor import editor_data
from tests.web.phones import sent_back

ZWSP, RLO, PDF, LRI, PDI, BOM, ZWJ = (
    "\u200b",
    "\u202e",
    "\u202c",
    "\u2066",
    "\u2069",
    "\ufeff",
    "\u200d",
)


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Ayşe", "Ayşe"),
        ("Ays\u0327e", "Ayşe"),  # decomposed ş: NFC
        ("Ali" + ZWSP, "Ali"),
        (RLO + "ilA" + PDF, "ilA"),  # no more reversed display
        (LRI + "Can" + PDI, "Can"),
        (BOM + "Deniz", "Deniz"),
        ("Ali\u00a0\u00a0K.", "Ali K."),  # no-break spaces
        ("  Ali \t K. ", "Ali K."),
        ("Ali\x00\x07", "Ali"),
        ("Şef 👨" + ZWJ + "🍳", "Şef 👨" + ZWJ + "🍳"),  # an emoji sequence keeps its joiner
        ("❤\ufe0f" + ZWJ + "🔥", "❤\ufe0f" + ZWJ + "🔥"),
        (ZWJ + "Ali" + ZWJ, "Ali"),  # a joiner joining nothing goes
        ("Ali " + ZWJ + " K.", "Ali K."),
        ("\u3164Can", "Can"),  # a Hangul filler draws nothing
    ],
)
def test_a_name_is_kept_in_one_normal_form_without_invisible_characters(typed, kept):
    assert clean_name(typed) == kept


@pytest.mark.parametrize(
    "typed", [ZWSP, ZWSP * 3, RLO, BOM + " ", "\u3164", "\u2800", "\u0301", ZWJ]
)
def test_a_name_with_nothing_visible_is_refused(typed):
    field = NameField(max_length=30, required=False)

    with pytest.raises(Exception, match="görünen bir harf yok"):
        field.clean(typed)


def test_an_empty_optional_name_is_still_just_empty():
    assert NameField(max_length=30, required=False).clean("") == ""


@pytest.mark.django_db
def test_a_new_match_refuses_an_invisible_player_and_cleans_the_others(client):
    refused = client.post("/yeni/", new_match_data(name_3=ZWSP))
    started = client.post("/yeni/", new_match_data(name_1=RLO + "ilA", name_2="Ays\u0327e"))

    assert refused.status_code == 200
    assert "görünen bir harf yok" in refused.content.decode()
    assert started.status_code == 302
    assert list(Player.objects.order_by("seat").values_list("name", flat=True)) == [
        "ilA",
        "Ayşe",
        "Can",
        "Deniz",
    ]


@pytest.mark.django_db
def test_renaming_players_refuses_an_invisible_name(client):
    match = make_match()
    names = {f"seat_{seat}": name for seat, name in enumerate(["Ali", "Ayşe", "Can", "Deniz"])}

    refused = client.post(f"/m/{match.edit_token}/oyuncular/", {**names, "seat_1": ZWSP})
    cleaned = client.post(f"/m/{match.edit_token}/oyuncular/", {**names, "seat_1": RLO + "ab"})

    assert refused.status_code == 200 and "görünen bir harf yok" in refused.content.decode()
    assert cleaned.status_code == 302
    assert match.players.get(seat=1).name == "ab"


@pytest.mark.django_db
def test_a_house_preset_needs_a_visible_name(client):
    refused = client.post("/kurallar/yeni/", editor_data(name=ZWSP + RLO))
    saved = client.post("/kurallar/yeni/", editor_data(name=RLO + "Bizim masa" + PDF))

    assert refused.status_code == 200 and HousePreset.objects.count() == 1
    assert saved.status_code == 302
    assert HousePreset.objects.get().name == "Bizim masa"


@pytest.mark.django_db
def test_a_table_needs_visible_player_names(client):
    data = {"name": "Cuma", "player_1": "Ali", "player_2": ZWSP}

    refused = client.post("/masa/yeni/", data)

    assert refused.status_code == 200
    assert "görünen bir harf yok" in refused.content.decode()
    assert Table.objects.count() == 0


# --- Two phones with the edit link renaming at once --------------------------------------------


@pytest.mark.django_db
def test_a_page_drawn_before_another_phones_rename_keeps_that_rename(client):
    match = make_match()  # Ali, Ayşe, Can, Deniz
    url = reverse("matches:match_players", args=[match.edit_token])
    drawn = sent_back(client.get(url).content.decode())
    client.post(url, drawn | {"seat_2": "Cem"})  # another phone

    response = client.post(url, drawn | {"seat_0": "Ali Rıza"})

    assert response.status_code == 302
    names = list(match.players.values_list("name", flat=True))
    assert names == ["Ali Rıza", "Ayşe", "Cem", "Deniz"]


@pytest.mark.django_db
def test_a_rename_to_a_name_another_phone_gave_meanwhile_is_refused_with_a_sentence(client):
    match = make_match()
    url = reverse("matches:match_players", args=[match.edit_token])
    drawn = sent_back(client.get(url).content.decode())
    client.post(url, drawn | {"seat_2": "Cem"})  # another phone

    response = client.post(url, drawn | {"seat_0": "CEM"})

    assert "Bu ad başka bir oyuncuda da var" in response.content.decode()
    names = list(match.players.values_list("name", flat=True))
    assert names == ["Ali", "Ayşe", "Cem", "Deniz"]
