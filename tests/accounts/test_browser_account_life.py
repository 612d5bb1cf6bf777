"""The rest of an account's life, in Chromium: an organizer invites ana to claim her player, ana
signs up from the link and confirms, reports a rude opponent, then deletes her account.

Screenshots: test-output/screenshots/accounts-{invite,claim,claimed,report,delete,deleted}.png.
"""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a long pass phrase"
SETUP = """
from django.contrib.auth import get_user_model
from league.models import Player
from league.services import events
from league.services.permissions import organizer_role
olga = get_user_model().objects.create_user("olga", password="{password}")
olga.user_permissions.add(organizer_role())
olga = get_user_model().objects.get(pk=olga.pk)
cup = events.create_event(olga, name="Spring cup", game="saichugen", allow_bot_accounts=False)
events.publish_event(cup, by=olga)
for name in ("ana", "rude-rudi", "cleo"):
    events.add_entry(cup, Player.objects.create(name=name), by=olga)
# Round 1 played: olga may invite ana only once ana has a result (league.services.claims).
from games import catalogue
from league.services import results, rounds
played = rounds.publish_round(rounds.generate_round(cup, by=olga), by=olga)
for table in played.fixtures.all():
    names = [seat.player.name for seat in table.seats.all()]
    record = catalogue.random_record(cup.game, players=names, n_deals=cup.deals_per_match, seed=1)
    results.record_result(table, by=olga, record=record)
print(cup.slug)
"""


def log_in(page, url: str, name: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("header a.who")


def test_claim_report_and_delete_in_the_browser(server, browser, screenshots):
    slug = server.manage("shell", "-c", SETUP.format(password=PASSWORD)).strip().splitlines()[-1]

    organizer = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(organizer, server.url, "olga")
    organizer.goto(f"{server.url}/events/{slug}/entries/")
    organizer.click("tr:has-text('ana') >> text=Invite to claim")
    organizer.wait_for_selector("#claim-link")
    link = organizer.input_value("#claim-link")
    assert re.fullmatch(rf"{re.escape(server.url)}/accounts/claim/\?token=[\w-]{{40,}}", link)
    organizer.screenshot(path=str(screenshots / "accounts-invite.png"), full_page=True)

    ana = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    ana.goto(link)
    ana.wait_for_selector("text=Claim a player")
    assert "Spring cup" in ana.inner_text("ul.vouching-events")  # olga's event vouches for it
    ana.screenshot(path=str(screenshots / "accounts-claim.png"), full_page=True)
    ana.click("main a:text-is('Sign up')")
    ana.fill("input[name=username]", "ana-web")
    ana.fill("input[name=password1]", PASSWORD)
    ana.fill("input[name=password2]", PASSWORD)
    ana.click("form button[type=submit]")
    ana.click("text=Yes, I am ana")
    ana.wait_for_selector("h1:has-text('ana')")
    assert "is yours now" in ana.inner_text("main")
    assert "Spring cup" in ana.inner_text("main")  # her events came with her
    ana.screenshot(path=str(screenshots / "accounts-claimed.png"), full_page=True)

    ana.goto(f"{server.url}/events/{slug}/")
    ana.click("text=rude-rudi")
    ana.click("main a.report")
    ana.check("input[value=abuse]")
    ana.fill("textarea[name=text]", "Insults in the table chat, round 1.")
    ana.screenshot(path=str(screenshots / "accounts-report.png"), full_page=True)
    ana.click("text=Send the report")
    ana.wait_for_selector("text=staff will read your report")

    ana.goto(f"{server.url}/accounts/profile/")
    ana.click("text=Delete your account")
    ana.fill("input[name=password]", PASSWORD)
    ana.screenshot(path=str(screenshots / "accounts-delete.png"), full_page=True)
    ana.click("text=Delete my account")
    ana.wait_for_selector("text=Your account is deleted")
    assert "Log in" in ana.inner_text("header")
    ana.screenshot(path=str(screenshots / "accounts-deleted.png"), full_page=True)

    organizer.goto(f"{server.url}/events/{slug}/")
    entries = organizer.inner_text("main")
    assert re.search(r"Deleted player [0-9a-f]{4}", entries) and "ana" not in entries
