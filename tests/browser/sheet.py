"""What a user does on the hand form, as reusable steps for browser tests.

`enter_hand` taps the way a player at the table would, as few times as the form allows, and
returns how many taps it took (every click, every field focused to type into, a select opened
and an option chosen), the digits typed aside.
"""

from playwright.sync_api import expect

OPENED_LABELS = {"no": "Açmadı", "series": "Seri", "pairs": "Çift"}
COLOUR_LABELS = {"red": "Kırmızı", "blue": "Mavi", "black": "Siyah", "yellow": "Sarı/yeşil"}


def is_a_save(request) -> bool:
    """Whether a request a page route sees is a tap on "Eli kaydet" (or the outbox sending one),
    not a preview: htmx adds the last submit button clicked to the form's own requests, so the
    preview of the keystroke just before the tap carries action=save too (its target is the
    preview, and the server never saves from it: cetele.matches.views.hand_action)."""
    return "action=save" in (request.post_data or "") and (
        request.headers.get("hx-target") != "hand-preview"
    )


def start_match(
    page, names: list[str], *, preset: str | None = None, hands: int = 5, teams: bool = False
) -> None:
    page.goto("/")
    page.get_by_role("link", name="Yeni maç").click()
    for seat in range(4):
        page.fill(f"#id_name_{seat + 1}", names[seat] if seat < len(names) else "")
    if teams:
        page.check("#id_teams")
    if preset:
        page.select_option("#id_preset", preset)
    page.select_option("#id_planned_hands", str(hands))
    page.get_by_role("button", name="Maçı başlat").click()
    page.wait_for_url("**/m/*/")


class Taps:
    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def click(self, locator) -> None:
        locator.click()
        self.count += 1

    def fill(self, selector: str, value: str) -> None:
        self.page.click(selector)  # the tap that puts the cursor there
        self.count += 1
        self.page.keyboard.type(value)

    def select(self, selector: str, value: str) -> None:
        self.page.select_option(selector, value)
        self.count += 2  # open the list, pick the option


def open_more(taps: Taps, page, seat: int) -> None:
    details = page.locator(f"#seat-{seat} details.more")
    if details.get_attribute("open") is None:
        taps.click(details.locator("summary"))


def enter_hand(page, names: list[str], inputs: dict, *, save_label: str = "Eli kaydet") -> int:
    """Fill the hand form the way a person taps it, then save; returns the taps it took."""
    taps = Taps(page)
    form = page.locator("#hand-form")
    finisher = inputs.get("finisher")
    level = form.locator(".hand-level")
    if finisher is None:
        taps.click(level.get_by_text("Kimse bitmedi"))
    else:
        taps.click(page.locator(f"#seat-{finisher} .finish"))
    if inputs.get("okey_finish"):
        taps.click(level.get_by_text("Okeyle bitti"))
    if inputs.get("kafa"):
        taps.click(level.get_by_text("Kafa", exact=True))
    # The gösterge: "sahte okey", its colour, its number (the okey's number less one).
    picker = form.locator("#indicator-picker")
    if inputs.get("riziko"):
        taps.click(picker.get_by_text("Sahte okey"))
    if inputs.get("colour"):
        taps.click(picker.locator(".colours").get_by_text(COLOUR_LABELS[inputs["colour"]]))
    for seat, entry in enumerate(inputs["players"]):
        row = page.locator(f"#seat-{seat}")
        if row.locator(".partner-note").is_visible():
            # The finisher's partner writes 0 (teams): their row has nothing to type but
            # penalties, as a player at the table sees it.
            entry = {"penalties": entry.get("penalties", [])}
        opened = entry.get("opened", "no")
        if entry.get("remaining") is not None:
            # Typing a sum marks "Seri" by itself.
            taps.fill(f"#id_p{seat}-remaining", str(entry["remaining"]))
        if opened == "pairs" or (
            opened == "series" and seat != finisher and entry.get("remaining") is None
        ):
            taps.click(row.locator(f".opened-{opened}"))
        for key, label in (("okeys", "okeys-label"), ("fake_okeys", "fake-label")):
            if entry.get(key):
                open_more(taps, page, seat)
                group = row.locator(f"[aria-labelledby='p{seat}-{label}']")
                taps.click(group.get_by_text(str(entry[key]), exact=True))
        for index, event in enumerate(entry.get("penalties", [])):
            open_more(taps, page, seat)
            taps.click(row.get_by_role("button", name="+ Ceza ekle"))
            prefix = f"#id_p{seat}-pen-{index}-"
            page.wait_for_selector(prefix + "kind")
            if page.input_value(prefix + "kind") != event["kind"]:
                taps.select(prefix + "kind", event["kind"])
            if event.get("taken"):
                taps.click(page.locator(f"label:has({prefix}taken)"))
            if event.get("tile"):
                taps.select(prefix + "tile", str(event["tile"]))
            if event.get("by") is not None:
                taps.select(prefix + "by", str(event["by"]))
            if event.get("points") is not None:
                taps.fill(prefix + "points", str(event["points"]))
    if inputs.get("okey_number") is not None:
        # The gösterge's number, shown once it matters (a colour tapped, an okey left).
        indicator = (inputs["okey_number"] - 2) % 13 + 1
        taps.click(picker.locator(".numbers").get_by_text(str(indicator), exact=True))
    taps.click(page.get_by_role("button", name=save_label))
    return taps.count


def totals(page) -> list[str]:
    return page.locator("table.sheet tfoot td").all_inner_texts()


def sheet_shows(page, hands: int) -> None:
    """Wait until the sheet has the rows of `hands` hands. A save's answer has the next form but
    not the sheet, which the page then asks for (static/cetele/app.js)."""
    expect(page.locator("table.sheet tbody tr")).to_have_count(hands)


def wait_for_hand(page, number: int) -> None:
    """Wait until the form is for hand `number` and the sheet shows the hands before it."""
    page.wait_for_selector(f"#entry-title:text('{number}. el')")
    sheet_shows(page, number - 1)
