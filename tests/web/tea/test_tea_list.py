"""A table's tea list saved from a page drawn before another phone saved it: told in a sentence,
nothing written over the other phone's list. (At the same moment, against real servers:
tests/web/tea/test_write_races.py.)"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from cetele.tea.models import TeaItem
from tests.web.tables.test_tables_and_rematches import table_with

pytestmark = pytest.mark.django_db


def list_form(page: str, **extra: str) -> dict:
    """The list's form as its page drew it (the default items), with `extra` typed into it."""
    seen = re.search(r'name="seen" value="([^"]*)"', page).group(1)
    form = {"seen": seen, "rule": "loser", "name_0": "çay", "name_1": "kahve", "name_2": "su"}
    return form | extra


def test_a_list_saved_from_a_page_older_than_another_phones_save_is_refused_in_a_sentence():
    table = table_with()
    url = reverse("tea:table_tea", args=[table.edit_token])
    first, second = Client(), Client()
    first_page = first.get(url).content.decode()
    second_page = second.get(url).content.decode()
    assert second.post(url, list_form(second_page, name_new_0="oralet")).status_code == 302

    late = first.post(url, list_form(first_page, name_new_0="ayran", name_1="Türk kahvesi"))

    assert late.status_code == 409
    page = late.content.decode()
    assert "Çay listesi az önce başka bir telefondan değişti; sizinki kaydedilmedi." in page
    assert 'value="oralet"' in page  # the list as it is now, to change again
    names = list(TeaItem.objects.filter(table=table).values_list("name", flat=True))
    assert names == ["çay", "kahve", "su", "oralet"]

    again = first.post(url, list_form(page, name_3="oralet", name_new_0="ayran"))
    assert again.status_code == 302
    names = list(TeaItem.objects.filter(table=table).values_list("name", flat=True))
    assert names == ["çay", "kahve", "su", "oralet", "ayran"]
