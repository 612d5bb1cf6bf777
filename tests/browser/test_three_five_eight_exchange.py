"""The 3-5-8 card exchange at the browser table: three people, three pages, the `give` clicked.

Seed 21 with every seat playing the first card the server lists (and the dealer naming spades
and discarding the last four it lists) ends the first hand with tricks off target by (-3, -2,
+5). In the second hand (dealer seat 1) the one up player, seat 2, must give 3 cards to seat 0
(the lower new target) and then 2 to seat 1; each receiver returns his highest cards of the
suits passed (rules/three_five_eight.md, "Exchange").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import click_and_wait, enabled_hand_cards, shot, state, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ["ana", "bea", "cid"]
SEED = 21
PAYOUTS = [-3, -2, 5]  # the first hand's tricks minus targets
PLAN = [(2, 0, 3), (2, 1, 2)]  # (giver, receiver, cards) in the forced order
RANKS = "AKQJT98765432"  # high to low
GLYPH = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# The page's state once it has caught up with `seq` and has no click on its way.
AT_SEQ = """(seq) => {
  const t = window.medianaTable;
  const s = t && t.state();
  return Boolean(s) && t.connected() && s.seq >= seq && !t.pending();
}"""

SERVER_STATE = """
import json
from gameplay.models import Table
from gameplay.services.matches import load_match
table = Table.objects.get(pk={table!r})
match = load_match(table)
view = match.view(None)
print(json.dumps({{"seq": table.seq, "deal": view["deal"], "phase": view["phase"],
                  "to_act": match.to_act(), "pending": view["exchange"]["pending"]}}))
"""


def at_seq(page, seq: int) -> dict[str, Any]:
    page.wait_for_function(AT_SEQ, arg=seq)
    return state(page)


def hand_in_page(page) -> list[str]:
    return page.eval_on_selector_all("#hand button.card-btn", "els => els.map(e => e.dataset.card)")


def card_text(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + GLYPH[card[1]]


def above(card: str, hand: list[str]) -> list[str]:
    """The cards of `hand` in `card`'s suit that are higher, highest first."""
    higher = [c for c in hand if c[1] == card[1] and RANKS.index(c[0]) < RANKS.index(card[0])]
    return sorted(higher, key=lambda c: RANKS.index(c[0]))


def cards_that_stay(giving: list[str], receiving: list[str], k: int) -> list[str]:
    """`k` of the giver's cards that the receiver keeps: the lowest first, each in a suit in
    which the receiver holds more higher cards than were already picked in that suit."""
    picked: list[str] = []
    for card in sorted(giving, key=lambda c: -RANKS.index(c[0])):
        if len(above(card, receiving)) > sum(c[1] == card[1] for c in picked):
            picked.append(card)
            if len(picked) == k:
                return picked
    raise AssertionError(f"no {k} cards of {giving} stay with {receiving}")


def returns(passed: list[str], receiving: list[str]) -> list[str]:
    """What the receiver sends back: per suit, as many of his highest cards (the passed ones
    included) as were passed to him in it."""
    back: list[str] = []
    for suit in "SHDC":  # in the server's order
        k = sum(c[1] == suit for c in passed)
        held = [c for c in receiving + passed if c[1] == suit]
        back += sorted(held, key=lambda c: RANKS.index(c[0]))[:k]
    return back


@pytest.fixture
def three_pages(browser) -> Iterator[list]:
    """A page per seat: seats 1 and 2 on a desktop, seat 0 on a phone."""
    contexts = [
        browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True),
        browser.new_context(viewport=DESKTOP),
        browser.new_context(viewport=DESKTOP),
    ]
    pages = []
    for context in contexts:
        context.set_default_timeout(15_000)
        pages.append(context.new_page())
    yield pages
    for context in contexts:
        context.close()


def test_the_3_5_8_exchange_is_given_by_clicking_in_the_page(server, three_pages, screenshots):
    created = server.create_table("three_five_eight", ",".join(NAMES), 0, seed=SEED, deals=2)
    table = created["table"]
    pages = three_pages
    errors = [watch_errors(page) for page in pages]
    for seat, page in enumerate(pages):
        page.goto(f"{server.url}/tables/{table}/?token={created['seats'][seat]['token']}")
    s = at_seq(pages[0], 0)
    assert s["view"]["phase"] == "trump" and s["to_act"] == [0]
    assert s["view"]["exchange"]["pending"] == []  # never in the first hand

    # The first hand, by clicking: the dealer names spades and discards the last four cards
    # the server lists; then everyone plays the first card the server lists.
    actions = 0
    while s["view"]["deal"] == 0:
        page = pages[s["to_act"][0]]
        s = at_seq(page, s["seq"])
        entry = s["legal"][0]
        if entry["act"] == "trump":
            click_and_wait(page, page.locator("#action-buttons button[data-suit='S']"))
        elif entry["act"] == "discard":
            for card in entry["from"][-4:]:
                page.locator(f"#hand button[data-card='{card}']").click()
            click_and_wait(page, page.locator("#confirm"))
        else:
            assert entry["act"] == "play"
            click_and_wait(page, page.locator(f"#hand button[data-card='{entry['card']}']"))
        actions += 1
        s = state(page)
    assert actions == 2 + 48

    # The second hand opens with the exchange; every page says who owes whom.
    assert s["view"]["dealer"] == 1 and s["view"]["phase"] == "exchange"
    assert s["view"]["results"][0]["payouts"] == PAYOUTS
    pending = s["view"]["exchange"]["pending"]
    assert [(p["from"], p["to"], p["count"]) for p in pending] == PLAN
    for page in pages:
        at_seq(page, s["seq"])
        owes = page.locator("#extra").inner_text().replace(" (you)", "").splitlines()
        assert owes == [f"Exchange: {NAMES[g]} owes {NAMES[r]} {k} cards" for g, r, k in PLAN]
        assert "Card exchange" in page.locator("#info").inner_text()

    passes = []
    for giver, to, k in PLAN:
        other = 3 - giver - to
        seq = s["seq"]
        gp, rp, op = pages[giver], pages[to], pages[other]
        s = at_seq(gp, seq)
        assert s["to_act"] == [giver] and s["legal"][0]["act"] == "give"
        assert (s["legal"][0]["to"], s["legal"][0]["choose"]) == (to, k)
        # Only the giver is asked to choose; the others' hands are greyed out.
        for page in (rp, op):
            at_seq(page, seq)
            assert page.locator("#choice").count() == 0
            assert enabled_hand_cards(page) == set()
        choice = gp.locator("#choice-text").inner_text()
        assert f"Give {k} cards to {NAMES[to]}" in choice and f"(0/{k})" in choice
        giver_before, receiver_before, other_before = map(hand_in_page, (gp, rp, op))
        assert enabled_hand_cards(gp) == set(giver_before)  # any card may be given
        cards = cards_that_stay(giver_before, receiver_before, k)
        back = returns(cards, receiver_before)
        confirm = gp.locator("#confirm")
        for card in cards:
            assert confirm.is_disabled()
            gp.locator(f"#hand button[data-card='{card}']").click()
        assert f"({k}/{k})" in gp.locator("#choice-text").inner_text()
        assert gp.locator("#hand button.picked").count() == k
        shot(gp, screenshots, f"three_five_eight-desktop-give-{k}-to-seat-{to}")
        click_and_wait(gp, confirm)  # the give

        # The giver's page: the given cards are gone, the returned ones came in.
        s = state(gp)
        assert s["seq"] == seq + 1
        giver_after = hand_in_page(gp)
        assert not set(cards) & set(giver_after)
        assert sorted(giver_after) == sorted((set(giver_before) - set(cards)) | set(back))
        line = (
            f"{NAMES[giver]} gives {k} cards to {NAMES[to]} ({' '.join(map(card_text, cards))}), "
            f"gets back {' '.join(map(card_text, back))}"
        )
        assert line in gp.locator("#log").inner_text()
        # The receiver's page shows the given cards in his hand (the returned ones left it).
        at_seq(rp, seq + 1)
        receiver_after = hand_in_page(rp)
        assert set(cards) <= set(receiver_after) and not set(back) & set(receiver_after)
        assert sorted(receiver_after) == sorted((set(receiver_before) | set(cards)) - set(back))
        assert rp.locator(f"#hand button[data-card='{cards[0]}']").is_visible()
        assert line in rp.locator("#log").inner_text()
        # The third seat sees only that cards changed hands, not which.
        at_seq(op, seq + 1)
        assert hand_in_page(op) == other_before
        log = op.locator("#log").inner_text()
        assert f"{NAMES[giver]} gives {k} cards to {NAMES[to]}\n" in log + "\n"
        assert line not in log
        passes.append({"seat": giver, "act": "give", "to": to, "cards": cards, "back": back})
        if to == 0:
            shot(rp, screenshots, "three_five_eight-phone-received")

    # The exchange is over: the new dealer names trump, on every page and on the server.
    assert s["view"]["phase"] == "trump" and s["to_act"] == [1]
    for page in pages:
        at_seq(page, s["seq"])
        assert page.locator("#extra").inner_text() == ""  # nobody owes anybody now
        assert "The dealer names trump" in page.locator("#info").inner_text()
    assert pages[1].locator("#action-buttons button[data-act='trump']").count() == 4
    out = server.manage("shell", "--no-imports", "-c", SERVER_STATE.format(table=table))
    server_state = json.loads(out.strip().splitlines()[-1])
    assert server_state == {
        "seq": s["seq"],
        "deal": 1,
        "phase": "trump",
        "to_act": [1],
        "pending": [],
    }
    record = server.export_record(table)
    assert record["deals"][1]["actions"] == [
        {"seat": p["seat"], "act": "give", "to": p["to"], "cards": p["cards"]} for p in passes
    ]
    assert errors == [[], [], []]
