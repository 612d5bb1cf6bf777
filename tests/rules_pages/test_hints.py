"""Display hints: every engine's HINTS are well formed, cover every contract and signal its
legal actions and views can name, reach the table page's config for every game, and every key a
client module asks for exists in its engine."""

from __future__ import annotations

import json
import random
import re

import pytest

from games import registry
from games.core.bots.common import expand_random
from games.core.hints import check_hints
from tests.gameplay.conftest import make_table, make_users, token
from tests.language import text

GAMES = registry.game_names()


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_has_well_formed_hints(game):
    hints = registry.get_game(game).hints
    assert len(hints) >= 4
    check_hints(hints)


def test_a_malformed_hint_table_is_refused():
    with pytest.raises(ValueError, match="lower-case"):
        check_hints({"Contract.Solo": "text"})
    with pytest.raises(ValueError, match="no text"):
        check_hints({"contract.solo": "  "})


def named_in_play(game: str, seeds: range) -> set[str]:
    """The hint keys random matches of `game` call for: every contract and signal a legal
    action or a view names, and every contract a view reports."""
    keys: set[str] = set()
    for seed in seeds:
        rng = random.Random(seed)
        match = registry.start_match(game, seed=seed, n_deals=2)
        for _ in range(2000):
            if match.finished:
                break
            seat = rng.choice(match.to_act())
            legal = match.legal(seat)
            for entry in legal:
                if entry.get("contract"):
                    keys.add(f"contract.{entry['contract']}")
                if entry.get("signal"):
                    keys.add(f"signal.{entry['signal']}")
            contract = match.view(seat).get("contract")
            if contract:
                keys.add(f"contract.{contract}")
            match.apply(seat, expand_random(rng.choice(legal), rng))
    return keys


@pytest.mark.parametrize("game", GAMES)
def test_every_contract_and_signal_the_game_can_name_is_explained(game):
    keys = named_in_play(game, range(12))
    missing = keys - registry.get_game(game).hints.keys()
    assert not missing, f"{game}: no hint for {sorted(missing)}"


def test_the_games_with_contracts_and_signals_are_covered():
    """The check above is not vacuous: Mediatore's auction offers every contract, its leads every
    signal; Schieberamsch has Ramsch and Grand Hand."""
    mediatore = named_in_play("mediatore", range(12))
    assert {f"contract.{c}" for c in ("chiamo", "solo", "arcisolissimo")} <= mediatore
    assert "signal.busso" in mediatore
    assert {"contract.ramsch"} <= named_in_play("schieberamsch", range(3))


def page_config(response) -> dict:
    html = response.content.decode()
    marker = '<script id="table-config" type="application/json">'
    start = html.index(marker) + len(marker)
    return json.loads(html[start : html.index("</script>", start)])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAMES)
def test_the_hints_reach_the_table_page_config(client, game):
    spec = registry.get_game(game)
    ana = make_users("ana")[0]
    table = make_table(game, [ana], [f"bot{i}" for i in range(1, spec.seats)])
    config = page_config(client.get(f"/tables/{table.id}/?token={token(table, 0)}"))
    hints = {key: text(hint) for key, hint in spec.hints.items()}  # in the page's language
    assert config["hints"] == hints
    assert config["hintLabel"]
    # A spectator's page carries them too.
    client.force_login(make_users("olga")[0])
    assert page_config(client.get(f"/tables/{table.id}/"))["hints"] == hints


# A key a module names literally: M.hint("k"), M.hintTip("k", …), M.hinted(…, "k", where).
LITERAL_KEYS = (
    re.compile(r'M\.hint(?:Tip)?\("([^"]+)"'),
    # (not a translation's context: pgettext("phase", "auction"), docs/translations.md)
    re.compile(r'(?<!gettext\()"([a-z_]+(?:\.[a-z_+]+)?)",\s*(?:"[^"]*"|`[^`]*`)\)'),
)
# A key built from a view's value: `contract.${…}`, `signal.${…}`.
BUILT_KEYS = re.compile(r"`([a-z_]+)\.\$\{")


@pytest.mark.parametrize("game", GAMES)
def test_every_hint_a_client_module_asks_for_exists_in_its_engine(game):
    source = (registry.get_game(game).site_dir / "table.js").read_text()
    hints = registry.get_game(game).hints
    literal = {key for pattern in LITERAL_KEYS for key in pattern.findall(source)}
    assert literal, f"{game}.js explains nothing"
    assert literal <= hints.keys(), f"{game}.js asks for {sorted(literal - hints.keys())}"
    for prefix in BUILT_KEYS.findall(source):
        assert any(k.startswith(f"{prefix}.") for k in hints), f"{game}: no {prefix}.* hint"
