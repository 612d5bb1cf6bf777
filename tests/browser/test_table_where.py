"""An event's table names its event, round and table in its header, a link back, in Chromium: on
a desktop and a 390 px phone the header keeps the rows it had without it (the event's name gives
way with an ellipsis, the round and table stay whole). Screenshots in test-output/screenshots/."""

from __future__ import annotations

import pytest

from tests.browser.play import shot, watch_errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BACK = "/events/spring/tables/12/"
LONG_EVENT = "The Grand Spring Championship of the Northern Association of Card Players"
SET_CONTEXT = (
    "from gameplay.models import Table; "
    "Table.objects.filter(pk={table!r}).update(context={context!r})"
)
# Each header row's box: its height, its right edge, and whether its text overflows it.
BOXES = """() => {
  const box = (sel) => { const e = document.querySelector(sel); if (!e) return null;
    const r = e.getBoundingClientRect();
    return {h: r.height, right: r.right, cut: e.scrollWidth > e.clientWidth + 1}; };
  return {head: box(".tbl-head"), h1: box(".tbl-head h1"), at: box(".tbl-where-at"),
          game: box(".tbl-game"), where: box("#table-where")};
}"""


@pytest.mark.parametrize("event", ["Spring league", LONG_EVENT], ids=["short", "long"])
@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_header_links_back_without_growing(server, request, screenshots, viewport, event):
    page = request.getfixturevalue(viewport)
    errors = watch_errors(page)
    # 3-5-8 has the longest game name ("3-5-8 (Sergeant Major)"): the hardest header to keep.
    # Two tables alike (Ana holds them up, watched by a spectator): only the context differs.
    options = {"seed": 3, "seconds_per_move": 600}
    plain = server.create_table("three_five_eight", "Ana,Bot B,Bot C", 2, **options)
    where = server.create_table("three_five_eight", "Ana,Bot B,Bot C", 2, **options)
    context = {"event": event, "round": 2, "table": 13, "url": BACK}
    server.manage("shell", "-c", SET_CONTEXT.format(table=where["table"], context=context))

    page.goto(f"{server.url}/tables/{plain['table']}/")
    page.locator("#conn.conn-live").wait_for()
    before = page.evaluate(BOXES)
    page.goto(f"{server.url}/tables/{where['table']}/")
    page.locator("#conn.conn-live").wait_for()
    after = page.evaluate(BOXES)
    name = f"table-where-{viewport}-{'long' if event == LONG_EVENT else 'short'}"
    shot(page, screenshots, name)

    link = page.locator("#table-where")
    assert link.get_attribute("href") == BACK
    assert "Round 2 · Table 13" in link.inner_text()
    assert abs(after["head"]["h"] - before["head"]["h"]) <= 1, (before, after)
    assert abs(after["h1"]["h"] - before["h1"]["h"]) <= 1, (before, after)
    # the round and table whole, inside the row; the game's name too, or cut only on a phone
    assert not after["at"]["cut"] and after["at"]["right"] <= after["h1"]["right"] + 1, after
    assert not after["game"]["cut"] or viewport == "phone", after
    link.click()
    page.wait_for_url(f"**{BACK}")  # the way back (a 404 here: no such event in this test)
    assert errors == [] or all("404" in e for e in errors), errors
