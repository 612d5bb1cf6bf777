"""`manage.py bot_move` answers with the action a level chooses where a record stops, and with
exit status 2 and one clear line when the record is not at a decision of that seat."""

from __future__ import annotations

import io
import json
import random

import pytest
from django.core.management import call_command

from games import registry
from games.bots import choose_action
from games.core.records import export_record, replay_record

GAMES = [g.name for g in registry.games()]


def _record(game: str, moves: int | None, seed: int = 3) -> dict:
    """A one-deal match of `game` after `moves` basic moves (None: played to its end)."""
    match = registry.start_match(game, seed=seed, n_deals=1)
    rng = random.Random(seed)
    while not match.finished and (moves is None or moves > 0):
        seat = match.to_act()[0]
        match.apply(seat, choose_action(game, match.view(seat), match.legal(seat), rng, "basic"))
        moves = None if moves is None else moves - 1
    return export_record(match)


def _run(tmp_path, record, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("bot_move", "--record", str(path), *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ["random", "basic", "strong"])
def test_the_action_printed_is_legal_for_the_seat_to_act(tmp_path, game, level):
    record = _record(game, 5)
    match = replay_record(record)
    seat = match.to_act()[-1]
    code, out, err = _run(
        tmp_path, record, "--level", level, "--iterations", "4", "--seat", str(seat)
    )
    assert code == 0, err
    action = json.loads(out)
    assert action["seat"] == seat
    match.apply(seat, action)  # the engine accepts it


def test_an_iteration_budget_and_a_seed_give_the_same_answer(tmp_path):
    record = _record("schieberamsch", 0)
    runs = [_run(tmp_path, record, "--level", "strong", "--iterations", "6") for _ in range(2)]
    assert runs[0][0] == 0 and runs[0][1] == runs[1][1]


def _not_to_act(record: dict) -> list[str]:
    match = replay_record(record)
    return ["--seat", str(next(s for s in range(match.SEATS) if s not in match.to_act()))]


@pytest.mark.parametrize(
    ("record", "args", "says"),
    [
        (_record("schieberamsch", 2), None, "is not to act"),
        (_record("mediatore", None), [], "match is over"),
        ({**_record("schieberamsch", 0), "format": "nope"}, [], "format must be"),
        (_record("three_five_eight", 3), ["--level", "expert"], "no bot level 'expert'"),
    ],
)
def test_a_record_not_at_that_seats_decision_exits_2_with_one_line(tmp_path, record, args, says):
    args = _not_to_act(record) if args is None else args
    level = [] if "--level" in args else ["--level", "basic"]
    code, out, err = _run(tmp_path, record, *level, *args)
    assert code == 2 and out == ""
    assert says in err and "\n" not in err.strip()


def test_a_saichugen_commit_needs_the_seat_named_when_several_are_to_act(tmp_path):
    record = _record("saichugen", 0)
    code, _, err = _run(tmp_path, record, "--level", "basic")
    assert code == 2 and "several seats are to act" in err
