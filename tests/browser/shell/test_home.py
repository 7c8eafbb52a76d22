"""The home page in a real phone browser."""

import pytest
from playwright.sync_api import expect

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


def test_a_new_match_sent_empty_is_answered_in_the_pages_words_not_the_browsers(phone):
    """The forms leave checking to the server (novalidate): a browser's own bubble speaks the
    phone's language, not the page's, and says nothing the page's message would not."""
    page, console = phone
    page.goto("/yeni/")

    page.get_by_role("button", name="Maçı başlat").click()

    expect(page.locator("#id_name_1_error")).to_have_text("Bu alan zorunludur.")
    assert "/yeni/" in page.url
    assert console.errors == []
