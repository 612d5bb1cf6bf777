"""A person plays whole matches at the browser table against bots, by clicking, in Chromium.

Each test checks the final scores shown on the page against the exported game record, scored
by `score_record`, and saves desktop and phone screenshots under test-output/screenshots/.
"""

from __future__ import annotations

import json

import pytest

from tests.browser.play import (
    MOVED,
    check_final_against_record,
    click_and_wait,
    enabled_hand_cards,
    legal_cards,
    shot,
    state,
    take_turn,
    wait_ready,
    watch_errors,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_person_plays_a_whole_saichugen_game_against_two_bots(
    server, desktop, phone, screenshots
):
    created = server.create_table(
        "saichugen", "ana,Bot Bianca,Bot Bruno", 2, seed=11, seconds_per_move=90
    )
    table, me = created["table"], created["seats"][0]["token"]
    url = f"{server.url}/tables/{table}/?token={me}"
    assert desktop.request.get(f"{server.url}/tables/{table}/record.json").status == 404
    errors = watch_errors(desktop)
    frames: list[tuple[str, dict]] = []

    def on_socket(ws):
        ws.on("framesent", lambda payload: frames.append(("sent", json.loads(payload))))
        ws.on("framereceived", lambda payload: frames.append(("got", json.loads(payload))))

    desktop.on("websocket", on_socket)
    desktop.goto(url)
    s = wait_ready(desktop)
    assert s["seat"] == 0 and s["game"] == "saichugen"
    assert desktop.locator("#whoami").inner_text() == "you play seat 1"
    # The hand in strength order (A lowest), every card legal, the clock running.
    hand = desktop.eval_on_selector_all("#hand button", "els => els.map(e => e.dataset.card)")
    strength = ["A23456789TJQK".index(c[0]) * 4 + "CDHS".index(c[1]) for c in hand]
    assert strength == sorted(strength) and len(hand) == 17
    assert enabled_hand_cards(desktop) == legal_cards(s)
    clock = desktop.locator("[data-clock-seat='0']")
    before = clock.inner_text()
    assert before.endswith(" left")
    # Counting down (waited for, not slept: a loaded machine may skip a tick of the timer).
    desktop.wait_for_function(
        "before => document.querySelector(\"[data-clock-seat='0']\").innerText !== before",
        arg=before,
        timeout=5000,
    )

    commits = 0
    while state(desktop)["status"] != "finished":
        s = wait_ready(desktop)
        if s["status"] == "finished":
            break
        if commits == 6:
            # The connection drops: a clear message, then it reconnects and resyncs by itself.
            desktop.evaluate("() => window.medianaTable.drop()")
            desktop.locator("#banner").wait_for(state="visible")
            assert "Connection lost" in desktop.locator("#banner").inner_text()
            desktop.locator("#banner").wait_for(state="hidden")
            s = wait_ready(desktop)
        card = desktop.locator("#hand button.card-btn.legal").nth(commits % 3)
        picked = card.get_attribute("data-card")
        if commits == 4:
            # Lose the race on purpose: the page believes the table is one seq behind, so the
            # server answers `stale`; the client re-sends the same click by itself. Set and
            # clicked in one script, so no state arriving in between can undo it.
            desktop.evaluate(
                """(card) => {
                  window.medianaTable.state().seq -= 1;
                  document.querySelector(`#hand button.card-btn[data-card='${card}']`).click();
                }""",
                picked,
            )
            desktop.wait_for_function(MOVED, arg=s["seq"])
        else:
            click_and_wait(desktop, card)
        commits += 1
        after = state(desktop)
        if after["status"] == "playing":
            assert after["view"]["committed"][0] or after["view"]["trick"] != s["view"]["trick"]
        assert picked not in after["view"].get("hand", [])
        if commits == 7:
            shot(desktop, screenshots, "saichugen-desktop-playing")
            phone.goto(url)
            wait_ready(phone)
            shot(phone, screenshots, "saichugen-phone-playing")
    assert commits == 15  # five rounds of three tricks, one commit each
    scored = check_final_against_record(desktop, server, table)
    record = server.export_record(table)
    mine = [a for a in record["deals"][0]["actions"] if a["seat"] == 0]
    assert len(mine) == 15  # no click lost, none applied twice
    # Lost races (the forced one, and the bots committing at the same moment as ana): every
    # `stale` click was sent again by the page with the same id and a newer seq.
    stale = {m["id"] for way, m in frames if way == "got" and m.get("code") == "stale"}
    assert stale
    for click in stale:
        seqs = [m["seq"] for way, m in frames if way == "sent" and m.get("id") == click]
        assert len(seqs) >= 2 and seqs == sorted(set(seqs)), seqs
    log = desktop.locator("#log").inner_text()
    assert "Round 5" in log and "Match over" in log
    shot(desktop, screenshots, "saichugen-desktop-final")
    phone.goto(url)
    phone.locator("#final").wait_for(state="visible")
    shot(phone, screenshots, "saichugen-phone-final")
    assert scored["winners"]
    assert errors == []


# The bots of seat 1 and 2 have committed: ana's click completes the trick.
BOTS_COMMITTED = """() => {
  const v = window.medianaTable.state().view;
  return v.committed[1] && v.committed[2];
}"""


def test_a_state_arriving_between_press_and_release_does_not_swallow_the_click(server, desktop):
    """Another seat's move redraws the hand; a click pressed before it and released after it
    still plays the card (a replaced button would have lost it: CI once saw exactly that)."""
    created = server.create_table(
        "saichugen", "ana,Bot Bianca,Bot Bruno", 2, seed=12, seconds_per_move=90
    )
    table, me = created["table"], created["seats"][0]["token"]
    desktop.goto(f"{server.url}/tables/{table}/?token={me}")
    s = wait_ready(desktop)
    card = desktop.locator("#hand button.card-btn.legal").first
    picked = card.get_attribute("data-card")
    box = card.bounding_box()
    desktop.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    desktop.mouse.down()
    desktop.evaluate("() => window.medianaTable.render()")  # as a bot's commit arriving would
    desktop.mouse.up()
    desktop.wait_for_function(MOVED, arg=s["seq"])
    after = state(desktop)
    assert after["view"]["committed"][0] or after["view"]["trick"] != s["view"]["trick"]
    assert picked not in after["view"]["hand"]


def test_the_click_that_ends_a_deal_is_not_carried_into_the_next_one(server, desktop):
    # Seed 7: ana commits her lowest card each time, last in every trick, so her 15th click
    # (QS) ends the first deal; the second deal gives her QS again. The page must see that click
    # applied (another decision), not keep it waiting for a seq where it is "still legal".
    created = server.create_table("saichugen", "ana,Bot Bianca,Bot Bruno", 2, seed=7, deals=2)
    table, me = created["table"], created["seats"][0]["token"]
    errors = watch_errors(desktop)
    desktop.goto(f"{server.url}/tables/{table}/?token={me}")
    for _ in range(15):
        wait_ready(desktop)
        desktop.wait_for_function(BOTS_COMMITTED)
        card = desktop.locator("#hand button.card-btn.legal").first
        last = card.get_attribute("data-card")
        click_and_wait(desktop, card)  # nothing pending and the table moved on
    s = state(desktop)
    assert s["view"]["deal"] == 1 and last == "QS" and "QS" in s["view"]["hand"]
    assert desktop.locator("#prompt-text").inner_text() == "Your turn: commit a card face down."
    # A new click on the same card in the new deal is a new action, applied once.
    click_and_wait(desktop, desktop.locator("#hand button[data-card='QS']"))
    assert "QS" not in state(desktop)["view"]["hand"]
    record = server.export_record(table)
    mine = [[a["card"] for a in d["actions"] if a["seat"] == 0] for d in record["deals"]]
    assert len(mine[0]) == 15 and mine[0][-1] == "QS" and mine[1] == ["QS"]
    assert errors == []


def play_out(page, prefer=None, on_turn=None) -> list[str]:
    """Take turns by clicking until the match is over; returns the kinds of moves made."""
    moves: list[str] = []
    while True:
        s = wait_ready(page)
        if s["status"] == "finished":
            return moves
        if on_turn is not None:
            on_turn(s, moves)
        moves.append(take_turn(page, prefer))


def test_a_person_plays_a_whole_3_5_8_hand_on_a_phone(server, phone, desktop, screenshots):
    created = server.create_table("three_five_eight", "ana,Bot Bianca,Bot Bruno", 2, seed=5)
    table, me = created["table"], created["seats"][0]["token"]
    url = f"{server.url}/tables/{table}/?token={me}"
    errors = watch_errors(phone)
    phone.goto(url)
    s = wait_ready(phone)
    # Seat 0 deals: it names trump (buttons), then discards four (select, then confirm).
    assert s["view"]["phase"] == "trump"
    assert phone.locator("#hand button.card-btn:not([disabled])").count() == 0
    shot(phone, screenshots, "three_five_eight-phone-trump")
    click_and_wait(phone, phone.locator("#action-buttons button[data-suit='H']"))
    s = wait_ready(phone)
    assert s["view"]["trump"] == "H" and s["legal"][0]["act"] == "discard"
    hand = phone.eval_on_selector_all("#hand button", "els => els.map(e => e.dataset.card)")
    # Sorted with the trump suit first.
    assert all(c[1] == "H" for c in hand[: sum(c[1] == "H" for c in hand)])
    confirm = phone.locator("#confirm")
    for card in hand[-4:]:
        assert confirm.is_disabled()
        phone.locator(f"#hand button[data-card='{card}']").tap()
    assert "4/4" in phone.locator("#choice-text").inner_text()
    phone.locator(f"#hand button[data-card='{hand[-1]}']").tap()  # changed my mind
    assert confirm.is_disabled()
    phone.locator(f"#hand button[data-card='{hand[-5]}']").tap()
    shot(phone, screenshots, "three_five_eight-phone-discard")
    click_and_wait(phone, confirm)
    s = wait_ready(phone)
    assert set(s["view"]["discards"]["cards"]) == set(hand[-5:-1])
    assert s["view"]["phase"] == "play"

    def check_turn(s, moves):
        # Exactly the legal cards are enabled (must follow suit: the others are disabled).
        assert enabled_hand_cards(phone) == legal_cards(s)
        if len(moves) == 8:
            shot(phone, screenshots, "three_five_eight-phone-playing")
            desktop.goto(url)
            wait_ready(desktop)
            shot(desktop, screenshots, "three_five_eight-desktop-playing")

    moves = play_out(phone, on_turn=check_turn)
    assert moves.count("play") == 16
    check_final_against_record(phone, server, table)
    shot(phone, screenshots, "three_five_eight-phone-final")
    desktop.goto(url)
    desktop.locator("#final").wait_for(state="visible")
    shot(desktop, screenshots, "three_five_eight-desktop-final")
    assert errors == []


def test_a_person_plays_a_mediatore_deal_with_an_auction_while_someone_watches(
    server, desktop, phone, screenshots
):
    # Seed 4: Bot 1 bids chiamo, ana overbids with mediatore and calls 3d, which Bot 1 must
    # hand over; ana then discards four and gives one back (the exchange template).
    created = server.create_table(
        "mediatore", "ana,Bot Bianca,Bot Bruno,Bot Carla", 3, seed=4, seconds_per_move=120
    )
    table, me = created["table"], created["seats"][0]["token"]
    errors = watch_errors(desktop)
    desktop.goto(f"{server.url}/tables/{table}/?token={me}")
    phone.goto(f"{server.url}/tables/{table}/")  # a spectator
    s = wait_ready(desktop)
    assert s["view"]["phase"] == "auction"
    assert desktop.locator("#action-buttons button").count() >= 2
    assert "Bot Bianca bids Chiamo" in desktop.locator("#log").inner_text()
    shot(desktop, screenshots, "mediatore-desktop-auction")
    prefer = [{"act": "bid", "contract": "chiamo"}, {"act": "bid", "contract": "mediatore"}]
    seen: dict[str, dict] = {}

    def look(s, moves):
        act = s["legal"][0]["act"]
        seen.setdefault(act, s)
        if act == "exchange":
            shot(desktop, screenshots, "mediatore-desktop-exchange")
        if act == "play" and "play" not in moves:
            watcher = phone.evaluate("() => window.medianaTable.state()")
            assert watcher["seat"] is None and "hand" not in watcher["view"]
            assert phone.locator("#hand-box").is_hidden()
            shot(phone, screenshots, "mediatore-phone-spectator")

    moves = play_out(desktop, prefer=prefer, on_turn=look)
    assert moves[0] == "bid" and "call" in moves and "exchange" in moves
    assert moves.count("play") == 9
    record = server.export_record(table)
    acts = [(a["seat"], a["act"]) for a in record["deals"][0]["actions"]]
    assert (0, "bid") in acts and (1, "bid") in acts and (0, "exchange") in acts
    exchange = next(a for a in record["deals"][0]["actions"] if a["act"] == "exchange")
    assert len(exchange["discard"]) == 4 and exchange["give"] not in exchange["discard"]
    check_final_against_record(desktop, server, table)
    shot(desktop, screenshots, "mediatore-desktop-final")
    phone.locator("#final").wait_for(state="visible")
    shot(phone, screenshots, "mediatore-phone-spectator-final")
    assert errors == []


def test_a_person_plays_a_schieberamsch_deal_picking_up_the_skat(server, desktop, screenshots):
    created = server.create_table("schieberamsch", "ana,Bot Bianca,Bot Bruno", 2, seed=3)
    table, me = created["table"], created["seats"][0]["token"]
    errors = watch_errors(desktop)
    desktop.goto(f"{server.url}/tables/{table}/?token={me}")
    wait_ready(desktop)
    hand = desktop.eval_on_selector_all("#hand button", "els => els.map(e => e.dataset.card)")
    jacks = [c for c in hand if c[0] == "J"]
    assert hand[: len(jacks)] == sorted(jacks, key=["JC", "JS", "JH", "JD"].index)  # trumps first
    prefer = [{"act": "pickup"}, {"act": "pass"}]
    moves = play_out(desktop, prefer=prefer)
    # Seed 3: nobody announces a Grand Hand; ana picks up the skat and puts two cards back.
    assert moves[:3] == ["pass", "pickup", "discard"]
    assert moves.count("play") == 10
    check_final_against_record(desktop, server, table)
    shot(desktop, screenshots, "schieberamsch-desktop-final")
    assert errors == []
