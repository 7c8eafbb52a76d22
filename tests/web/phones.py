"""A match's URLs through each of its links, and a phone that joined its table: what the tests of
the join link, the gösterge and objections open."""

import re

from django.test import Client
from django.urls import reverse

from cetele.models import Match


def edit(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.edit_token, *args])


def view(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.view_token, *args])


def join(name: str, match: Match, *args) -> str:
    return reverse(name, args=[match.join_token, *args])


def joined_phone(match: Match, seat: int) -> Client:
    """A phone that opened the join link and picked the player at `seat`."""
    phone = Client()
    response = phone.post(join("seats:join_match", match), {"seat": str(seat)})
    assert response.status_code == 302, response.content.decode()[:500]
    return phone


def sent_back(page: str) -> dict:
    """What a page's form sends as it was drawn: every input's name and value (hidden ones too)."""
    inputs = re.findall(r"<input[^>]*>", page)
    named = (re.search(r'name="([^"]+)"', tag) for tag in inputs)
    values = (re.search(r'value="([^"]*)"', tag) for tag in inputs)
    return {n.group(1): v.group(1) if v else "" for n, v in zip(named, values, strict=True) if n}
