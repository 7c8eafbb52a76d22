"""What a user does on the hand sheet, as reusable steps for browser tests."""

OPENED_LABELS = {"no": "Açmadı", "series": "Seri açtı", "pairs": "Çift açtı"}


def start_match(page, names: list[str], *, preset: str | None = None, hands: int = 5) -> None:
    page.goto("/")
    page.get_by_role("link", name="Yeni maç").click()
    for seat in range(4):
        page.fill(f"#id_name_{seat + 1}", names[seat] if seat < len(names) else "")
    if preset:
        page.select_option("#id_preset", preset)
    page.select_option("#id_planned_hands", str(hands))
    page.get_by_role("button", name="Maçı başlat").click()
    page.wait_for_url("**/m/*/")


def enter_hand(page, names: list[str], inputs: dict, *, save_label: str = "Eli kaydet") -> None:
    """Fill the hand form the way a person taps it, then save."""
    form = page.locator("#hand-form")
    finisher = inputs.get("finisher")
    finisher_group = form.locator("[aria-labelledby=finisher-label]")
    finisher_group.get_by_label("Kimse bitmedi" if finisher is None else names[finisher]).check()
    if inputs.get("okey_finish"):
        form.get_by_label("Okeyle bitti").check()
    if inputs.get("kafa"):
        form.get_by_label("Kafa (elden bitti)").check()
    for seat, entry in enumerate(inputs["players"]):
        fieldset = page.locator(f"#seat-{seat}")
        if seat != finisher or entry.get("opened") == "pairs":
            fieldset.get_by_label(OPENED_LABELS[entry.get("opened", "no")], exact=True).check()
        if entry.get("remaining") is not None:
            page.fill(f"#id_p{seat}-remaining", str(entry["remaining"]))
        for index, event in enumerate(entry.get("penalties", [])):
            fieldset.get_by_role("button", name="+ Ceza ekle").click()
            prefix = f"#id_p{seat}-pen{index}-"
            page.wait_for_selector(prefix + "kind")
            page.select_option(prefix + "kind", event["kind"])
            if event.get("taken"):
                page.check(prefix + "taken")
            if event.get("tile"):
                page.select_option(prefix + "tile", str(event["tile"]))
            if event.get("points") is not None:
                page.fill(prefix + "points", str(event["points"]))
    page.get_by_role("button", name=save_label).click()


def totals(page) -> list[str]:
    return page.locator("table.sheet tfoot td").all_inner_texts()
