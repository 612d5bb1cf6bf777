"""A table seat names its bot level: the bot task and the clock play that level's choice."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.core.management import CommandError, call_command

from gameplay import api
from gameplay.models import Action, Seat, Table
from gameplay.runtime import runner
from gameplay.services import clocks, matches
from gameplay.services.create import SeatSpec, create_table
from games import bots, catalogue

from .conftest import make_users

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_cache")]

GAME = "three_five_eight"  # cheap bots; Saichugen's samples futures


def as_logged(match, seat: int, action: dict) -> dict:
    """The action as the log keeps it (normalized by the engine)."""
    trial = match.clone()
    deal = trial.deal_no
    trial.apply(seat, action)
    return {k: v for k, v in trial.log[deal][2][-1].items() if k != "seat"}


def rng(table: Table, seq: int, seat: int) -> random.Random:
    """The generator the table's bots and clock use at `seq` for `seat` (from its seed)."""
    return random.Random(f"{table.seed}/{seq}/{seat}")


def choice(table: Table, match, seq: int, seat: int, level: str) -> dict:
    """What the `level` bot chooses for `seat` at `seq`, with the table's generator."""
    legal = match.legal(seat)
    return bots.choose_action(GAME, match.view(seat), legal, rng(table, seq, seat), level)


def test_each_bot_seat_plays_at_its_own_level():
    levels = ["random", "basic", "random"]
    seats = [SeatSpec(f"bot {n}", bot=f"bot {n}", bot_level=lv) for n, lv in enumerate(levels)]
    table = create_table(GAME, seats, seed=5)  # bots only: played out when it commits
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert list(table.seats.values_list("bot_level", flat=True)) == levels
    match = matches.new_match(table)
    basic_would_differ = 0
    for row in Action.objects.filter(table=table).order_by("seq"):
        assert row.kind == Action.Kind.BOT
        own = choice(table, match, row.seq - 1, row.seat, levels[row.seat])
        assert as_logged(match, row.seat, own) == row.action
        if levels[row.seat] == "random":
            basic = choice(table, match, row.seq - 1, row.seat, "basic")
            basic_would_differ += as_logged(match, row.seat, basic) != row.action
        match.apply(row.seat, row.action)
    assert basic_would_differ, "the random seats did not play what the basic bot would"


def test_a_bot_seat_that_runs_out_of_time_plays_its_own_levels_choice(monkeypatch):
    monkeypatch.setattr(runner, "schedule_bot", lambda table_id, seq: None)  # the move is lost
    seats = [SeatSpec(f"bot {n}", bot=f"bot {n}", bot_level="random") for n in range(3)]
    for seed in range(30):  # a deal where the two levels choose differently
        table = create_table(GAME, seats, seed=seed, seconds_per_move=30)
        table.refresh_from_db()
        match = matches.load_match(table)
        seat = match.to_act()[0]
        defaults = {
            level: clocks.default_action(match, seat, rng(table, 0, seat), level)
            for level in ("random", "basic")
        }
        picks = {level: as_logged(match, seat, a) for level, a in defaults.items()}
        if picks["random"] != picks["basic"]:
            break
    else:
        pytest.fail("no deal where the levels differ")
    with time_machine.travel(table.deadline + timedelta(seconds=1), tick=False):
        assert clocks.apply_timeouts(table.id) == 1
    timeout = Action.objects.get(table=table)
    assert timeout.kind == Action.Kind.TIMEOUT
    assert timeout.action == picks["random"]


def test_a_bot_level_is_checked_when_the_table_is_created():
    ana = make_users("ana")[0]
    bot = SeatSpec("bot", bot="bot", bot_level="grandmaster")
    with pytest.raises(ValueError, match="random, basic"):
        create_table(GAME, [SeatSpec("ana", user_id=ana.pk), bot, SeatSpec("b", bot="b")])
    person = SeatSpec("ana", user_id=ana.pk, bot_level="basic")
    with pytest.raises(ValueError, match="not a bot seat"):
        create_table(GAME, [person, SeatSpec("a", bot="a"), SeatSpec("b", bot="b")])
    assert not Table.objects.exists()


def test_start_table_seats_its_bots_at_the_level_asked_for():
    ana = make_users("ana")[0]
    ref = api.start_table(GAME, seats=[ana.pk, "Bot A", "Bot B"], bot_level="random")
    seats = Seat.objects.filter(table_id=ref).order_by("number")
    assert list(seats.values_list("bot_level", flat=True)) == ["", "random", "random"]
    default = api.start_table(GAME, seats=[ana.pk, "Bot A", "Bot B"], seed=1)
    levels = Seat.objects.filter(table_id=default).order_by("number")
    assert list(levels.values_list("bot_level", flat=True)) == ["", "basic", "basic"]
    with pytest.raises(catalogue.VariantError, match="grandmaster"):
        api.start_table(GAME, seats=[ana.pk, "Bot A", "Bot B"], bot_level="grandmaster")


def test_create_table_command_takes_a_bot_level():
    out = StringIO()
    call_command(
        "create_table", f"--game={GAME}", "--players=ana,Robo,Rita", "--bots=2", "--seed=3",
        "--bot-level=random", "--seconds-per-move=30", stdout=out,
    )  # fmt: skip
    table = Table.objects.get(pk=json.loads(out.getvalue())["table"])
    levels = table.seats.order_by("number").values_list("bot_level", flat=True)
    assert list(levels) == ["", "random", "random"]
    with pytest.raises(CommandError, match=r"no 'grandmaster' bot \(bot levels: random, basic"):
        call_command(
            "create_table", f"--game={GAME}", "--players=x,y,z", "--bots=1",
            "--bot-level=grandmaster",
        )  # fmt: skip
    assert Table.objects.count() == 1
