"""What a page or an answer gives a phone, read as the browser and htmx read it: the versions,
links and poll schedules a page draws (templates/cetele/), the forms it holds (sent back as a
browser sends them) and the headers an answer carries."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from urllib.parse import urlencode

NEW_VERSION = re.compile(rb"poll/\?v=(\d+)")
SCHEDULE = re.compile(rb'data-poll-schedule="([0-9:,]*)"')
CSRF_HEADER = re.compile(rb"hx-headers='\{\"x-csrftoken\": \"([^\"]+)\"\}'")
HAND_LINK = re.compile(rb'/el/(\d+)/"')
VIEW_LINK = re.compile(r"/v/([A-Za-z0-9_-]{22,64})/")
JOIN_LINK = re.compile(r"/k/([A-Za-z0-9_-]{22,64})/")
SHEET_TRIGGER = re.compile(rb'<section id="sheet"[^>]*?hx-trigger="([^"]*)"', re.S)
ROWS_SECTION = re.compile(
    rb'<section id="table-rows"[^>]*?hx-get="([^"]+)"[^>]*?hx-trigger="([^"]*)"', re.S
)
EVERY = re.compile(rb"every (\d+)s")
ROWS_SEEN = re.compile(rb'<section id="table-rows"[^>]*?data-rows-seen="([^"]*)"', re.S)
# The tournament's live section (cetele/tournaments/_live.html): where it asks and how often.
LIVE_SECTION = re.compile(
    rb'<section id="live" hx-get="([^"]+)"[^>]*?data-poll-schedule="([0-9:,]*)"'
    rb'[^>]*?data-quiet="(\d+)"',
    re.S,
)
# A live page's stream (cetele.live.push), held by nginx's nchan when the app publishes.
STREAM = re.compile(rb'data-stream="(/canli/[0-9a-f]{32})"')
EDIT_PAGE = re.compile(r"^(?:https?://[^/]+)?/m/([A-Za-z0-9_-]{22,64})/")


TAG = re.compile(r"<(/?)(form|input|select|option|textarea)\b([^>]*)>", re.I)
ATTRIBUTE = re.compile(r"""([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")


def attributes(text: str) -> dict[str, str]:
    return {
        name.lower(): html.unescape(a if a is not None else b if b is not None else c or "")
        for name, a, b, c in ATTRIBUTE.findall(text)
    }


@dataclass
class Form:
    """A form as the page drew it: its URL and its controls in document order, each
    [name, type, value, checked], so that it is sent as a browser sends it (FormData)."""

    action: str
    controls: list[list]

    def data(self, chosen: dict[str, str], extra: tuple = ()) -> bytes:
        """The form's body with these fields set (a radio: the value chosen; anything else: its
        value), every other control as drawn; `extra`: the clicked button's name and value."""
        pairs = []
        for name, kind, value, checked in self.controls:
            if kind == "radio":
                if (chosen[name] == value) if name in chosen else checked:
                    pairs.append((name, value))
            elif kind == "checkbox":
                if chosen.get(name, checked if name not in chosen else False):
                    pairs.append((name, value or "on"))
            else:
                pairs.append((name, chosen.get(name, value)))
        return urlencode([*pairs, *extra]).encode()

    def value(self, name: str) -> str:
        return next((c[2] for c in self.controls if c[0] == name), "")

    def choices(self, name: str) -> list[str]:
        return [c[2] for c in self.controls if c[0] == name]


def read_form(page: str, marker: str) -> Form | None:
    """The form whose opening tag holds `marker` (e.g. 'id="hand-form"'), or None."""
    controls: list[list] = []
    action = None
    select = None  # [name, options: [(value, selected)]]
    for match in TAG.finditer(page):
        closing, tag, text = match[1], match[2].lower(), match[3]
        if action is None:
            if tag == "form" and not closing and marker in text:
                action = attributes(text).get("action", "")
            continue
        if tag == "form" and closing:
            break
        if closing:
            if tag == "select" and select:
                options = select[1]
                value = next((v for v, on in options if on), options[0][0] if options else "")
                controls.append([select[0], "select", value, True])
                select = None
            continue
        found = attributes(text)
        if tag == "option" and select is not None:
            select[1].append((found.get("value", ""), "selected" in found))
            continue
        name = found.get("name")
        if not name or "disabled" in found:
            continue
        if tag == "select":
            select = [name, []]
        elif tag == "input":
            kind = found.get("type", "text").lower()
            if kind in ("submit", "button", "image", "reset", "file"):
                continue
            controls.append([name, kind, found.get("value", ""), "checked" in found])
    return None if action is None else Form(action, controls)


def parse_schedule(text: bytes) -> list[tuple[float, float]]:
    """data-poll-schedule "120:16,900:8,…,0:120": (quiet under this many s, ask every s)."""
    pairs = []
    for part in text.decode().split(","):
        until, _, every = part.partition(":")
        if until.isdigit() and every.isdigit():
            pairs.append((float(until), float(every)))
    return pairs


def header(head: bytes, name: bytes) -> str | None:
    found = re.search(rb"(?i)\r\n" + name + rb":[ \t]*([^\r\n]*)", head)
    return found[1].decode("latin-1") if found else None


def saved_token(head: bytes) -> str | None:
    """The request token of the hand an answer says was saved (HX-Trigger cetele:hand-saved)."""
    found = header(head, b"hx-trigger")
    try:
        return json.loads(found)["cetele:hand-saved"]["token"] if found else None
    except (ValueError, KeyError, TypeError):
        return None
