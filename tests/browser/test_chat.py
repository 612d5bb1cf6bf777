"""The table's chat in Chromium (docs/chat.md): two players talk (free text and a preset phrase,
shown as plain text: no markup, no link), a logged-in spectator talks in the spectators' chat
and reads none of the players', a player mutes another; screenshots at desktop and phone size,
where the chat never covers the cards."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import shot, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a long pass phrase"
MAKE_OLGA = (
    "from django.contrib.auth import get_user_model; "
    f"get_user_model().objects.create_user('olga', password={PASSWORD!r})"
)

CONNECTED = "() => window.medianaTable && window.medianaTable.state() && medianaTable.connected()"
HISTORY_READ = "() => document.querySelector('#chat-lines').dataset.ready !== undefined"


def lines(page) -> list[str]:
    """The chat lines shown, as "name: text"."""
    return page.eval_on_selector_all(
        "#chat-lines li:not([hidden])",
        "items => items.map(i => i.querySelector('.chat-name').textContent + ': '"
        " + i.querySelector('.chat-text').textContent)",
    )


def wait_line(page, text: str) -> None:
    page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-lines .chat-text')]"
        ".some(n => n.textContent === t)",
        arg=text,
    )


def test_two_players_and_a_spectator_chat(server, browser, screenshots):
    created = json.loads(
        server.manage(
            "create_table",
            "--game=three_five_eight",
            "--players=ana,ben,Bot Cleo",
            "--bots=1",
            "--seed=5",
            "--chat",
        )
    )
    table, seats = created["table"], created["seats"]
    server.manage("shell", "-c", MAKE_OLGA)
    contexts = [
        browser.new_context(viewport=DESKTOP),
        browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True),
        browser.new_context(viewport=DESKTOP),
    ]
    try:
        ana, ben, olga = (context.new_page() for context in contexts)
        errors = [watch_errors(page) for page in (ana, ben, olga)]
        olga.goto(f"{server.url}/accounts/login/")
        olga.fill("input[name=login]", "olga")
        olga.fill("input[name=password]", PASSWORD)
        olga.click("form button[type=submit]")
        olga.wait_for_selector("header a.who")
        for page, url in (
            (ana, f"/tables/{table}/?token={seats[0]['token']}"),
            (ben, f"/tables/{table}/?token={seats[1]['token']}"),
            (olga, f"/tables/{table}/"),
        ):
            page.goto(server.url + url)
            page.wait_for_function(CONNECTED)
            page.wait_for_function(HISTORY_READ)

        # Free text is text: no markup is made of it and an address is no link.
        ana.fill("#chat-input", "Hi <b>ben</b>, see https://example.com")
        ana.click("#chat-send")
        wait_line(ben, "Hi <b>ben</b>, see https://example.com")
        assert ben.locator("#chat-lines a, #chat-lines b").count() == 0
        ben.click(".chat-phrase[data-phrase='good_luck']")
        wait_line(ana, "Good luck")
        assert lines(ana) == ["ana: Hi <b>ben</b>, see https://example.com", "ben: Good luck"]

        # The spectator's chat is its own: neither side reads the other.
        assert "Spectators" in olga.inner_text("#chat h2")
        olga.fill("#chat-input", "what a hand")
        olga.press("#chat-input", "Enter")
        wait_line(olga, "what a hand")
        assert lines(olga) == ["olga: what a hand"]
        ana.fill("#chat-input", "your turn")
        ana.click("#chat-send")
        wait_line(ben, "your turn")
        assert "olga: what a hand" not in lines(ana) + lines(ben)
        assert lines(olga) == ["olga: what a hand"]

        # Ben mutes ana: her lines are hidden for him, and stay hidden for new ones.
        ben.click("#chat-lines li[data-author='s0'] .chat-mute")
        assert lines(ben) == ["ben: Good luck"]
        ana.click(".chat-phrase[data-phrase='sorry']")
        wait_line(ana, "Sorry")
        ben.click(".chat-phrase[data-phrase='thanks']")
        wait_line(ben, "Thanks")
        assert lines(ben) == ["ben: Good luck", "ben: Thanks"]

        shot(ana, screenshots, "chat-desktop-player")
        shot(olga, screenshots, "chat-desktop-spectator")
        ben.locator("#chat").scroll_into_view_if_needed()
        shot(ben, screenshots, "chat-phone-player")
        # On a phone the chat never covers the cards: the hand's cards are on top where they are.
        ben.evaluate("window.scrollTo(0, 0)")
        covered = ben.evaluate(
            """() => [...document.querySelectorAll('#hand .card, #hand button')].filter(card => {
                 const r = card.getBoundingClientRect();
                 if (!r.width || r.bottom < 0 || r.top > innerHeight) return false;
                 const x = Math.min(r.left + r.width / 2, innerWidth - 1), y = r.top + r.height / 2;
                 const top = document.elementFromPoint(x, y);
                 return top && top.closest('#chat');
               }).length"""
        )
        assert covered == 0
        shot(ben, screenshots, "chat-phone-cards")
        # Typing on a phone (its keyboard takes half the screen): the pinned hand lets go of the
        # bottom, so the input is not hidden under it.
        ben.set_viewport_size({"width": PHONE["width"], "height": 400})
        ben.focus("#chat-input")
        ben.locator("#chat-input").scroll_into_view_if_needed()
        on_top = ben.evaluate(
            """() => { const r = document.querySelector('#chat-input').getBoundingClientRect();
                       const x = r.left + r.width / 2, y = r.top + r.height / 2;
                       const top = document.elementFromPoint(x, y);
                       return top && top.id; }"""
        )
        assert on_top == "chat-input"
        shot(ben, screenshots, "chat-phone-typing")
        assert errors == [[], [], []]
    finally:
        for context in contexts:
            context.close()
