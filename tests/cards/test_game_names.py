"""Games' names in the page's language (issue #31): Saichugen is 最中限 in Japanese wherever
its name shows (the catalogue, the rules page, the lobby, the table's header, the home page);
the other games have their Japanese names too. Records and the engines keep the English name."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games import catalogue, registry
from tests.gameplay.conftest import make_table, make_users

JAPANESE = {
    "saichugen": "最中限",
    "mediatore": "メディアトーレ",
    "schieberamsch": "シーベラムシュ",
    "three_five_eight": "3-5-8（サージェント・メジャー）",  # noqa: RUF001
}


def test_the_catalogue_names_the_games_in_japanese():
    with translation.override("ja"):
        for game, name in JAPANESE.items():
            assert catalogue.display_name(game) == name == catalogue.game(game).display_name
        assert dict(catalogue.game_choices())["saichugen"] == "最中限"
    with translation.override("de"):
        assert catalogue.display_name("saichugen") == "Saichugen"
    # The engine's own name, for records and the API's ids, stays as it was.
    assert registry.get_game("saichugen").display_name == "Saichugen"


@pytest.mark.django_db
def test_japanese_pages_write_saichugen_as_its_own_name(client):
    ja = {"HTTP_ACCEPT_LANGUAGE": "ja"}
    rules = client.get(reverse("gameplay:rules", args=["saichugen"]), **ja).content.decode()
    assert "最中限" in rules.split("</title>")[0] and "<h1>" in rules
    assert "最中限" in client.get(reverse("gameplay:rules-index"), **ja).content.decode()
    assert "最中限" in client.get("/", **ja).content.decode()
    assert "シーベラムシュ" in client.get(reverse("gameplay:play"), **ja).content.decode()
    (ana,) = make_users("ana")  # her profile's language is the page's (docs/translations.md)
    table = make_table("saichugen", people=[ana], bots=["Bot A", "Bot B"])
    url = reverse("gameplay:table", args=[table.id])
    client.force_login(ana)
    assert '<span class="tbl-game">Saichugen</span>' in client.get(url).content.decode()
    ana.language = "ja"
    ana.save()
    page = client.get(url).content.decode()
    assert '<span class="tbl-game">最中限</span>' in page
