"""By the day in Chromium, briefly: a person makes a 1-day-a-move table against two bots in the
lobby form; the table's clock reads in hours, the header counts the table, My games lists it
under "Your turn"."""

from __future__ import annotations

import pytest

from tests.browser.conftest import browser, server  # noqa: F401  (fixtures)
from tests.browser.play import wait_ready, watch_errors
from tests.lobby_pages.test_browser import new_page, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_table_by_the_day_in_the_browser(server, browser):  # noqa: F811
    page = new_page(browser)
    errors = watch_errors(page)
    try:
        sign_up(page, server.url, "Dana")
        page.goto(f"{server.url}/play/")
        page.select_option("#create-form select[name=game]", "saichugen")
        page.select_option("#create-form select[name=pace]", "1-day")
        page.fill("#create-form input[name=bots]", "2")
        page.click("#create-form button[type=submit]")
        wait_ready(page)  # Saichugen: everyone commits at once, Dana too
        page.wait_for_function(
            "() => /\\b(23 h|1 d) /.test(document.querySelector('[data-clock-seat=\"0\"]')"
            ".textContent)"
        )
        assert page.inner_text("#pace") == "1 day a move"
        page.reload()
        assert page.inner_text("header [data-your-turns]") == "1"
        page.click("header >> text=My games")
        page.wait_for_selector("#your-turn")
        assert "Saichugen" in page.inner_text("#your-turn")
        assert "left" in page.inner_text("#your-turn")
        assert not errors, errors
    finally:
        page.context.close()
