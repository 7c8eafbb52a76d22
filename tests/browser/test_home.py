"""The home page in a real phone browser."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_home_page_loads_on_a_phone_with_htmx_and_no_console_error(phone):
    page, console = phone

    response = page.goto("/")

    assert response.status == 200
    assert page.locator("h1").inner_text() == "Çetele"
    assert page.get_by_role("link", name="Yeni maç").is_visible()
    assert page.evaluate("typeof window.htmx") == "object"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert console.errors == []
