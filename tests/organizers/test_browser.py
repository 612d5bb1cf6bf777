"""Registration and self check-in in Chromium: the organizer opens sign-up with one place, two
players sign up from the event page (the second lands on the waiting list), the organizer opens
check-in, the first player checks in, then withdraws — and the second moves up, with a notice.

Screenshots: /tmp/shots_people/registration-*.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_people")
PASSWORD = "a long pass phrase"
SETUP = """
from django.contrib.auth import get_user_model
from league.services import events
from league.services.permissions import organizer_role
from league.services.players import player_for_user
users = get_user_model().objects
olga = users.create_user("olga", password="{password}")
olga.user_permissions.add(organizer_role())
olga = users.get(pk=olga.pk)
for name in ("ana", "ben"):
    player_for_user(users.create_user(name, password="{password}"))
cup = events.create_event(olga, name="Autumn 3-5-8", game="three_five_eight", format="league",
                          rounds=3, deals_per_match=1, play_online=False)
events.publish_event(cup, by=olga)
print(cup.slug)
"""


def log_in(browser, url: str, name: str):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")
    return page


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"registration-{name}.png"), full_page=True)


def test_sign_up_waiting_list_and_self_check_in(server, browser):
    slug = server.manage("shell", "-c", SETUP.format(password=PASSWORD)).strip().splitlines()[-1]
    event_url = f"{server.url}/events/{slug}/"

    olga = log_in(browser, server.url, "olga")
    olga.goto(event_url)
    olga.click("text=Registration and self check-in")
    olga.check("input[name=signup_open]")
    olga.fill("input[name=capacity]", "1")
    olga.click("#signup-rules button[type=submit]")
    olga.wait_for_selector("text=Sign-up rules saved.")
    shot(olga, "1-organizer-opens")

    ana = log_in(browser, server.url, "ana")
    ana.goto(event_url)
    ana.click("#sign-up")
    ana.wait_for_selector("text=You are entered.")
    shot(ana, "2-ana-entered")

    ben = log_in(browser, server.url, "ben")
    ben.goto(event_url)
    assert ben.inner_text("#sign-up") == "Join the waiting list"
    ben.click("#sign-up")
    ben.wait_for_selector("text=You are number 1 on the waiting list.")
    shot(ben, "3-ben-waiting")

    olga.click("text=Open check-in for round 1…")
    olga.wait_for_selector("text=Open self check-in for round 1?")
    shot(olga, "4-confirm-check-in")
    olga.click("button:has-text('Open check-in')")
    olga.wait_for_selector("text=Self check-in is open.")

    ana.goto(event_url)
    ana.wait_for_selector("text=Check-in for the next round is open")
    ana.click("#check-in")
    ana.wait_for_selector("text=You are checked in for the next round.")
    shot(ana, "5-ana-checked-in")

    olga.reload()
    assert "1 of 1 checked in" in olga.inner_text("#check-in")
    assert "ben" in olga.inner_text("#waiting-list")
    shot(olga, "6-organizer-sees-check-in")

    ana.click("text=Withdraw…")
    ana.wait_for_selector("text=Withdraw from Autumn 3-5-8?")
    shot(ana, "7-confirm-withdraw")
    ana.click("main button:has-text('Withdraw')")
    ana.wait_for_selector("text=You withdrew from Autumn 3-5-8.")

    ben.goto(event_url)
    ben.wait_for_selector("text=You are entered.")
    assert ben.inner_text("header .bell .count") == "1"  # the notice: he moved up
    shot(ben, "8-ben-moved-up")

    # The organizer imports a list in which "Ana" means the player "ana" or somebody new.
    olga.goto(f"{event_url}entries/import/")
    olga.fill("textarea[name=text]", "Ana,Circolo Roma,IT,ana.rossi@example.org\nCarla,,FR")
    olga.click("main button:has-text('Import')")
    olga.wait_for_selector("text=Which player do you mean?")
    shot(olga, "9-import-asks")
    olga.check("input[value=rename]")
    olga.fill("input[name^=rename_]", "Ana Rossi")
    olga.click("main button:has-text('Import')")
    olga.wait_for_selector("text=2 players entered.")
    # Her address is kept; the invitation waits for her first result (league.services.claims).
    row = olga.inner_text("tr[data-player='Ana Rossi']")
    assert "ana.rossi@example.org" in row and "once they have a result" in row
    shot(olga, "10-entries")
    for page in (olga, ana, ben):
        page.context.close()
