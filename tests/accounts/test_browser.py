"""A newcomer signs up in a real browser, lands logged in and finds their API token."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_newcomer_signs_up_opens_the_profile_and_sees_their_token(server, desktop, screenshots):
    page = desktop
    page.goto(f"{server.url}/")
    page.click("header >> text=Sign up")
    page.wait_for_selector("input[name=username]")
    page.fill("input[name=username]", "Newcomer")
    page.fill("input[name=password1]", "a long pass phrase")
    page.fill("input[name=password2]", "a long pass phrase")
    page.screenshot(path=str(screenshots / "accounts-signup.png"), full_page=True)
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")
    assert page.inner_text("header a.who") == "Newcomer"  # logged in

    page.click("header a.who")
    page.wait_for_selector("#api-token")
    token = page.inner_text("#api-token").strip()
    assert len(token) >= 40
    assert page.input_value("input[name=name]") == "Newcomer"  # the account's player
    page.screenshot(path=str(screenshots / "accounts-profile.png"), full_page=True)

    page.click("header >> text=Log out")
    page.wait_for_selector("header >> text=Log in")
    page.click("header >> text=Log in")
    page.wait_for_selector("input[name=login]")
    page.fill("input[name=login]", "newcomer")  # any case
    page.fill("input[name=password]", "wrong")
    page.click("form button[type=submit]")
    page.wait_for_selector("input[name=login]")
    page.screenshot(path=str(screenshots / "accounts-login.png"), full_page=True)
