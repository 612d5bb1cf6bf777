"""The words of a turn-based table are for play by the day: its summary does not count down
(the page reads `turnBased`), and resigning is not "leaving now"."""

from __future__ import annotations

import json

from django.urls import reverse

from gameplay.services import lobby

from .conftest import clock, people, quick_tables, table  # noqa: F401  (fixtures)


def _config(client, table_id) -> dict:
    page = client.get(reverse("gameplay:table", args=[table_id])).content.decode()
    raw = page.split('id="table-config" type="application/json">')[1].split("</script>")[0]
    return json.loads(raw)


def test_the_table_page_tells_its_script_it_is_played_by_the_day(client, people, table):  # noqa: F811
    client.force_login(people[0])
    assert _config(client, table.id)["turnBased"] is True
    live = lobby.create_friendly(people[3], game="saichugen", pace="fast", bots=2).table
    client.force_login(people[3])
    assert _config(client, live.id)["turnBased"] is False


def test_resigning_by_the_day_says_the_game_waits_for_you(client, people, table):  # noqa: F811
    client.force_login(people[0])
    page = client.get(reverse("gameplay:leave", args=[table.id])).content.decode()
    assert "played by the day" in page and "If you leave now" not in page
