"""How a person plays at the browser table in the tests: by clicking what the page offers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.core.records import score_record

# True when the page can be acted on: the match is over, or it is this seat's turn and no click
# is still on its way.
READY = """() => {
  const t = window.medianaTable;
  const s = t && t.state();
  if (!s || !t.connected()) return false;
  return s.status === "finished" || (s.legal.length > 0 && !t.pending());
}"""

# True once the click sent at `seq` has been answered: nothing pending and the table moved on.
MOVED = """(seq) => {
  const t = window.medianaTable;
  const s = t.state();
  return !t.pending() && s.seq > seq;
}"""


def watch_errors(page, sockets: bool = True) -> list[str]:
    """Collect JavaScript errors of the page (asserted empty at the end of each test).
    `sockets=False`: the server serves no WebSockets (Django's `live_server`), so the lobby
    socket every page opens cannot connect there; that refusal is not the page's error."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def console(msg) -> None:
        if msg.type != "error" or "Failed to load resource" in msg.text:
            return
        if not sockets and msg.text.startswith("WebSocket connection to"):
            return
        errors.append(msg.text)

    page.on("console", console)
    page.on(
        "response",
        lambda r: (
            errors.append(f"{r.status} {r.url}")
            if r.status >= 400 and not r.url.endswith("/favicon.ico")
            else None
        ),
    )
    return errors


def state(page) -> dict[str, Any]:
    return page.evaluate("() => window.medianaTable.state()")


def wait_ready(page, timeout: float = 20_000) -> dict[str, Any]:
    page.wait_for_function(READY, timeout=timeout)
    return state(page)


def shot(page, directory: Path, name: str) -> Path:
    path = directory / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def legal_cards(s: dict[str, Any]) -> set[str]:
    return {e["card"] for e in s["legal"] if e["act"] in ("play", "commit") and "card" in e}


def enabled_hand_cards(page) -> set[str]:
    return set(
        page.eval_on_selector_all(
            # a card the rules refuse is aria-disabled (it shows why on tap), not disabled
            "#hand button.card-btn:not([disabled]):not([aria-disabled='true'])",
            "els => els.map(e => e.dataset.card)",
        )
    )


# True once the click sent at `seq` was answered, or once it only lifted a card (a touch screen
# confirms each card: docs/browser.md, "Move confirmation").
MOVED_OR_LIFTED = """(seq) => {
  const t = window.medianaTable;
  return Boolean(t.lifted && t.lifted()) || (!t.pending() && t.state().seq > seq);
}"""


def click_and_wait(page, locator) -> None:
    """Click, and on a page that confirms moves (a phone) confirm the lifted card too."""
    seq = state(page)["seq"]
    locator.click()
    page.wait_for_function(MOVED_OR_LIFTED, arg=seq)
    if page.evaluate("() => window.medianaTable.lifted()"):
        page.locator("#confirm-move").click()
    page.wait_for_function(MOVED, arg=seq)


def take_turn(page, prefer: list[dict[str, Any]] | None = None) -> str:
    """Make one move by clicking, the way a person would; returns what kind of move it was.

    Multi-card choices: tap legal cards until Confirm is enabled, then confirm. Buttons: the
    first of `prefer` (attribute filters, e.g. `{"act": "bid", "contract": "chiamo"}`) that is
    offered, else the first button. Cards: the first legal one (the page enables exactly the
    legal cards, which this checks).
    """
    s = state(page)
    if page.locator("#choice").count():
        # Select-then-confirm: tap legal cards until the choice is complete.
        confirm = page.locator("#confirm")
        while confirm.is_disabled():
            page.locator("#hand button.card-btn.legal:not(.picked)").first.click()
        click_and_wait(page, confirm)
        return s["legal"][0]["act"]
    buttons = page.locator("#action-buttons button")
    if buttons.count():
        for want in prefer or []:
            selector = "#action-buttons button" + "".join(
                f'[data-{k}="{v}"]' for k, v in want.items()
            )
            if page.locator(selector).count():
                click_and_wait(page, page.locator(selector).first)
                return want["act"]
        click_and_wait(page, buttons.first)
        return "button"
    calls = page.locator("#call-cards button")
    if calls.count():
        click_and_wait(page, calls.first)
        return "call"
    # A card: the page enables exactly the legal ones.
    assert enabled_hand_cards(page) == legal_cards(s) or page.locator("#signals").count()
    click_and_wait(page, page.locator("#hand button.card-btn.legal").first)
    return s["legal"][0]["act"]


def final_from_page(page) -> dict[str, Any]:
    """The final result as the page shows it (the numbers in the result table)."""
    page.locator("#final").wait_for(state="visible")
    n = len(state(page)["players"])

    def cells(attr: str) -> list[int]:
        return [
            int(page.locator(f"#final-scores td[data-{attr}='{s}']").inner_text().lstrip("+"))
            for s in range(n)
        ]

    return {"scores": cells("final-score"), "payouts": cells("final-payout")}


def check_final_against_record(page, server, table: str) -> dict[str, Any]:
    """The scores on the page equal those of the exported record, scored independently."""
    shown = final_from_page(page)
    href = page.locator("#record-link").get_attribute("href")
    response = page.request.get(server.url + href)
    assert response.status == 200
    record = response.json()
    assert record == server.export_record(table)
    scored = score_record(json.loads(json.dumps(record)))
    assert scored["complete"] is True
    assert shown == scored["totals"], (shown, scored["totals"])
    winners = page.locator("#winners").inner_text()
    names = record["players"]
    for seat in scored["winners"]:
        assert names[seat] in winners
    return scored
