"""The table page as a card table, in Chromium (issue #16, "A card table").

The seats sit around the felt with you at the bottom (a spectator sees seat 0 there) and the
others in play order — 3-5-8 plays clockwise (the next seat on your left), Mediatore
anticlockwise (on your right) — and each card of a trick lies in front of the seat that played
it. A trick just gathered stays on the felt for a moment. Your hand is readable (not greyed)
during the auction and trump choice. On a phone nothing is cut and the hand stays on the
screen. The card sound is off until turned on, and the choice is remembered. A spectator reads
names, never "your".

Screenshots go to /tmp/shots_layout/.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from games.core.records import score_record
from tests.browser.conftest import PHONE
from tests.browser.play import (
    click_and_wait,
    legal_cards,
    shot,
    state,
    take_turn,
    wait_ready,
    watch_errors,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots_layout")
MEDIATORE_PREFER = [{"act": "bid", "contract": "chiamo"}, {"act": "bid", "contract": "mediatore"}]
LONG_NAMES = "Roberta Annunziata,Bot Bianca Maria,Bot Bruno Bellini,Bot Carla Castellani"

# Elements whose text must never be cut (an ellipsis, or a box narrower than its content).
CUT = """() => [...document.querySelectorAll(
    ".seat-name, .seat-facts, .seat-status, table.scores th, table.scores td, .tag")]
  .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map((e) => `${e.className || e.tagName}: ${e.textContent} ${e.scrollWidth}>${e.clientWidth}`)"""
# The middle of an element's box, in page coordinates.
CENTER = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2]; }"""
# How the cards of the hand look: opacity and filter of each card face.
LOOKS = """() => [...document.querySelectorAll("#hand .card-btn")].map((b) => {
  const c = getComputedStyle(b.querySelector(".card"));
  return {card: b.dataset.card, disabled: b.disabled, opacity: Number(c.opacity), filter: c.filter};
})"""
# The cards drawn in the current-trick area, by seat.
TRICK_CARDS = """() => Object.fromEntries([...document.querySelectorAll("#trick .slot")]
  .filter((s) => s.querySelector(".card[data-card]"))
  .map((s) => [s.dataset.slotSeat, s.querySelector(".card").dataset.card]))"""
# A lead in the play phase made up from the auction's state: the first card of the hand may be
# led with or without "busso"; one trick was played before, led with "busso" by seat 1.
LEAD_WITH_SIGNALS = """(real) => {
  const s = JSON.parse(JSON.stringify(real));
  const card = s.view.hand[0];
  s.view.phase = "play";
  s.view.trick = [];
  s.view.leader = 0;
  s.view.played = [{leader: 1, cards: ["3s", "2s", "As", "Rs"], winner: 1, signal: "busso"}];
  s.legal = [{act: "play", card}, {act: "play", card, signal: "busso"}];
  window.Mediana.show(s);
}"""


@pytest.fixture(scope="module")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@pytest.fixture(scope="module")
def bots_match(server):
    """A finished two-deal Mediatore match of four bots with long names (payouts in the table)."""
    names = "Bot Roberta Annunziata," + LONG_NAMES.split(",", 1)[1]
    table = server.create_table("mediatore", names, 4, deals=2, seed=5)["table"]
    deadline = time.monotonic() + 120
    while not score_record(server.export_record(table), n_deals=2)["complete"]:
        assert time.monotonic() < deadline, f"table {table} did not finish"
        time.sleep(0.5)
    return table


def center(page, selector: str) -> tuple[float, float]:
    x, y = page.evaluate(CENTER, selector)
    return x, y


def readable(looks: list[dict]) -> bool:
    return all(c["opacity"] == 1 and c["filter"] == "none" for c in looks)


def test_trick_cards_lie_in_front_of_the_seat_that_played_them(server, desktop, shots):
    # Seed 5: ana deals (seat 0), names trump and discards; Bot Bianca (seat 1, the dealer's left
    # in a clockwise game) leads the first trick, Bot Bruno (seat 2) follows, then ana.
    created = server.create_table("three_five_eight", "ana,Bot Bianca,Bot Bruno", 2, seed=5)
    page = desktop
    errors = watch_errors(page)
    page.goto(f"{server.url}/tables/{created['table']}/?token={created['seats'][0]['token']}")
    s = wait_ready(page)
    assert s["view"]["phase"] == "trump"
    # Naming trump: the hand is there to be read — no card greyed, none clickable.
    looks = page.evaluate(LOOKS)
    assert looks and all(c["disabled"] for c in looks) and readable(looks)
    assert "card-turn" not in page.get_attribute("#hand", "class")
    shot(page, shots, "three_five_eight-desktop-trump")
    # Around the table: you at the bottom, the next seat on your left, the other on your right.
    positions = page.eval_on_selector_all(
        "#seats .seat", "els => els.map(e => [e.dataset.seat, e.dataset.pos])"
    )
    assert positions == [["0", "bottom"], ["1", "left"], ["2", "right"]]
    me, left, right = (center(page, f"#seats .seat[data-seat='{s}']") for s in range(3))
    assert left[0] < me[0] < right[0] and me[1] > left[1] and me[1] > right[1]

    click_and_wait(page, page.locator("#action-buttons button[data-suit='H']"))
    take_turn(page)  # discard four (select, then confirm)
    s = wait_ready(page)
    assert s["view"]["phase"] == "play" and len(s["view"]["trick"]) == 2
    shot(page, shots, "three_five_eight-desktop-midtrick")
    # The two cards on the felt lie by their seats, not in play order.
    drawn = page.evaluate(TRICK_CARDS)
    assert drawn == {str(t["seat"]): t["card"] for t in s["view"]["trick"]}
    assert page.get_attribute("#trick .slot[data-slot-seat='1']", "data-pos") == "left"
    assert page.get_attribute("#trick .slot[data-slot-seat='2']", "data-pos") == "right"
    card_left = center(page, "#trick .slot[data-slot-seat='1']")
    card_right = center(page, "#trick .slot[data-slot-seat='2']")
    card_me = center(page, "#trick .slot[data-slot-seat='0']")
    assert card_left[0] < card_me[0] < card_right[0]
    assert left[0] < card_left[0] and card_right[0] < right[0]
    assert me[1] > card_me[1]  # your card in front of you, between you and the table's middle
    # Your turn to play: now the cards you may not play (follow suit) look so.
    looks = {c["card"]: c for c in page.evaluate(LOOKS)}
    legal = legal_cards(s)
    assert legal and set(looks) > legal
    assert all(looks[c]["opacity"] == 1 for c in legal)
    assert all(looks[c]["opacity"] < 1 for c in set(looks) - legal)

    # Ana's card ends the trick: the server has gathered it (and the bots lead on), but the felt
    # shows the whole trick a moment longer, the winner's card marked, then clears it.
    card = page.locator("#hand button.card-btn.legal").first
    mine = card.get_attribute("data-card")
    click_and_wait(page, card)
    assert len(state(page)["view"]["played"]) == 1
    held = page.evaluate(TRICK_CARDS)
    assert page.locator("#trick.held").count() == 1
    assert held == {**drawn, "0": mine}
    won = state(page)["view"]["played"][0]["winner"]
    assert page.get_attribute("#trick .slot.won", "data-slot-seat") == str(won)
    shot(page, shots, "three_five_eight-desktop-held")
    page.wait_for_selector("#trick:not(.held)", timeout=3000)
    assert page.evaluate(TRICK_CARDS) == {
        str(t["seat"]): t["card"] for t in state(page)["view"]["trick"]
    }
    assert errors == []


def test_a_mediatore_deal_anticlockwise_with_a_spectator(server, desktop, browser, shots):
    # Seed 76 (as in test_table_page.py): an auction (the bots bid), a contract with an exchange
    # with the monte, played out; a spectator watches on a phone.
    created = server.create_table(
        "mediatore", "Roberta Annunziata,Bot Bianca,Bot Bruno,Bot Carla", 3, seed=76
    )
    table = created["table"]
    page = desktop
    errors = watch_errors(page)
    page.goto(f"{server.url}/tables/{table}/?token={created['seats'][0]['token']}")
    watcher_context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    watcher = watcher_context.new_page()
    watcher.goto(f"{server.url}/tables/{table}/")
    s = wait_ready(page)
    assert s["view"]["phase"] == "auction"
    # The auction: your hand readable, not greyed (and not clickable).
    looks = page.evaluate(LOOKS)
    assert len(looks) == 9 and all(c["disabled"] for c in looks) and readable(looks)
    shot(page, shots, "mediatore-desktop-auction")
    # Anticlockwise: the next seat (the eldest, Bot Bianca) on your right, Bot Carla on your left.
    positions = dict(
        page.eval_on_selector_all(
            "#seats .seat", "els => els.map(e => [e.dataset.seat, e.dataset.pos])"
        )
    )
    assert positions == {"0": "bottom", "1": "right", "2": "top", "3": "left"}
    # The spectator sees seat 0 at the bottom too.
    watcher.wait_for_function("() => window.medianaTable && window.medianaTable.state()")
    assert watcher.get_attribute("#seats .seat[data-seat='0']", "data-pos") == "bottom"

    # Leading with a signal, drawn from a state made up from this one (Mediana.show draws any
    # state; nothing is sent): "none" is chosen and usable — not greyed out — and can be chosen
    # again after another signal. And the log puts a lead's signal after the card led.
    real = state(page)
    page.evaluate(LEAD_WITH_SIGNALS, real)
    none = page.locator("#signals button[data-signal='none']")
    busso = page.locator("#signals button[data-signal='busso']")
    assert none.is_enabled() and none.get_attribute("aria-pressed") == "true"
    assert busso.is_enabled() and page.locator("#signals button[data-signal='volo']").is_disabled()
    chip = none.evaluate("e => getComputedStyle(e).opacity")
    assert float(chip) == 1
    busso.click()
    assert busso.get_attribute("aria-pressed") == "true"
    assert none.get_attribute("aria-pressed") == "false"
    none.click()
    assert none.get_attribute("aria-pressed") == "true"
    line = page.locator("#log li", has_text="Trick 1:").inner_text()
    assert line.startswith("Trick 1: Bot Bianca 3") and line.split(",")[0].endswith("(busso)"), line
    page.evaluate("(s) => window.Mediana.show(s)", real)
    assert page.locator("#signals").count() == 0

    placed = False
    while True:
        s = wait_ready(page)
        if s["status"] == "finished":
            break
        trick = s["view"].get("trick") or []
        if s["legal"][0]["act"] == "play" and trick and not placed:
            placed = True
            assert page.evaluate(TRICK_CARDS) == {str(t["seat"]): t["card"] for t in trick}
            bottom = center(page, "#trick .slot[data-slot-seat='0']")
            for t in trick:
                x, _ = center(page, f"#trick .slot[data-slot-seat='{t['seat']}']")
                pos = positions[str(t["seat"])]
                if pos != "top":
                    assert (x > bottom[0]) == (pos == "right"), (t, pos, x, bottom)
            shot(page, shots, "mediatore-desktop-midtrick")
            shot(watcher, shots, "mediatore-phone-spectator-midtrick")
        take_turn(page, MEDIATORE_PREFER)
    assert placed
    # The log: a lead's signal follows the card led, not the trick's last card.
    played = state(page)["view"]["played"]
    lines = page.locator("#log li").all_inner_texts()
    for i, t in enumerate(played):
        if t.get("signal"):
            line = next(x for x in lines if x.startswith(f"Trick {i + 1}:"))
            assert line.split(",")[0].endswith(f"({t['signal']})"), line
    # The spectator reads the declarer's name where the declarer reads "your".
    watcher.locator("#final").wait_for(state="visible")
    view = watcher.evaluate("() => window.medianaTable.state().view")
    declarer = view["declarer"]
    name = state(page)["players"][declarer]
    assert view["monte"]["new"]
    extra = watcher.locator("#extra").inner_text()
    assert f"{name}'s new monte" in extra
    assert "your" not in extra.lower() and "(you)" not in watcher.locator("#table-app").inner_text()
    mine = page.locator("#extra").inner_text()
    assert ("Your new monte" in mine) == (declarer == 0)
    assert (f"{name}'s new monte" in mine) == (declarer != 0)
    shot(watcher, shots, "mediatore-phone-spectator-final")
    watcher_context.close()
    assert errors == []


def test_nothing_is_cut_on_a_phone_and_the_hand_stays_in_view(server, phone, shots, bots_match):
    created = server.create_table("mediatore", LONG_NAMES, 3, seed=76, seconds_per_move=600)
    page = phone
    errors = watch_errors(page)
    page.goto(f"{server.url}/tables/{created['table']}/?token={created['seats'][0]['token']}")
    wait_ready(page)
    assert page.evaluate(CUT) == []
    height = PHONE["height"]

    def hand_on_screen() -> None:
        box = page.locator("#hand-box").bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height + 1, box

    hand_on_screen()
    shot(page, shots, "mediatore-phone-auction")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # down to the log
    hand_on_screen()
    page.evaluate("() => window.scrollTo(0, 0)")
    # Play on to the exchange (14 cards in hand) and into the play: still on screen, uncut.
    while wait_ready(page)["legal"][0]["act"] != "play":
        take_turn(page, MEDIATORE_PREFER)
    hand_on_screen()
    assert page.evaluate(CUT) == []
    # The monte panel folds away and opens again.
    summary = page.locator("#extra-summary")
    assert page.locator("#extra-box").is_visible()
    summary.evaluate("e => e.scrollIntoView({block: 'start'})")  # above the pinned hand
    summary.click()
    page.wait_for_function(
        "() => document.querySelector('#extra-summary').innerText.includes('Monte')"
    )  # the folded panel's line names what it holds once the page has redrawn it
    assert page.locator("#extra").is_hidden()
    summary.click()
    assert page.locator("#extra").is_visible()
    shot(page, shots, "mediatore-phone-playing")

    # A finished four-player match, watched on the phone: names, payouts and scores uncut.
    page.goto(f"{server.url}/tables/{bots_match}/")
    page.locator("#final").wait_for(state="visible")
    assert page.locator("#match-scores td").count() >= 8
    assert page.evaluate(CUT) == []
    shot(page, shots, "mediatore-phone-final")
    assert errors == []


def test_the_card_sound_is_off_until_turned_on_and_remembered(server, desktop):
    created = server.create_table("saichugen", "ana,Bot Bianca,Bot Bruno", 2, seed=11)
    page = desktop
    errors = watch_errors(page)
    url = f"{server.url}/tables/{created['table']}/?token={created['seats'][0]['token']}"
    page.goto(url)
    wait_ready(page)
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('mediana.sound')") is None
    assert page.evaluate("() => window.medianaTable.sound()") == {"on": False, "played": 0}
    # Cards land on the felt; nothing sounds while it is off.
    click_and_wait(page, page.locator("#hand button.card-btn.legal").first)
    assert page.evaluate("() => window.medianaTable.sound().played") == 0
    # The sound is vendored: a small WAV served with the static files.
    clip = page.request.get(server.url + toggle.get_attribute("data-src"))
    assert clip.status == 200 and clip.body()[:4] == b"RIFF" and len(clip.body()) < 20_000

    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('mediana.sound')") == "on"
    page.reload()
    s = wait_ready(page)
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    assert "on" in page.locator("#sound-toggle").inner_text().lower()
    before = page.evaluate("() => window.medianaTable.sound().played")
    click_and_wait(page, page.locator("#hand button.card-btn.legal").first)
    page.wait_for_function(f"() => window.medianaTable.sound().played > {before}")
    assert s["seq"] < state(page)["seq"]

    page.locator("#sound-toggle").click()
    assert page.evaluate("() => localStorage.getItem('mediana.sound')") == "off"
    page.reload()
    wait_ready(page)
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "false"
    assert errors == []


def test_the_deal_outcome_reads_as_words(server, desktop):
    # A finished Schieberamsch deal of three bots: the outcome once, as words, not an id.
    created = server.create_table("schieberamsch", "Bot Anna,Bot Bianca,Bot Bruno", 3, seed=3)
    table = created["table"]
    deadline = time.monotonic() + 60
    while not score_record(server.export_record(table), n_deals=1)["complete"]:
        assert time.monotonic() < deadline, f"table {table} did not finish"
        time.sleep(0.3)
    desktop.goto(f"{server.url}/tables/{table}/")
    desktop.locator("#final").wait_for(state="visible")
    kind = desktop.evaluate("() => window.medianaTable.state().view.outcome.kind")
    cell = desktop.locator("#deal-scores td.outcome")
    assert cell.count() == 1 and cell.get_attribute("data-outcome") == kind
    text = cell.inner_text()
    assert "_" not in text and ("Ramsch" in text or "Grand Hand" in text or "Durchmarsch" in text)
    assert desktop.evaluate(CUT) == []
