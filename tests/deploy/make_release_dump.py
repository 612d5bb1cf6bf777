"""Make the database dump of a release that tests/deploy/test_upgrade.py migrates and plays on.

Run it with the code of the release itself (a worktree at its commit), never with the current
code: the dump must hold what that release wrote. For the release at commit REL:

    git worktree add /work/wt/prev REL --detach && ln -s "$PWD/.venv" /work/wt/prev/.venv
    env -u REDIS_URL DATABASE_URL=postgres://postgres@127.0.0.1:5432/mediana_prev \\
        SECRET_KEY=x DEBUG=1 .venv/bin/python tests/deploy/make_release_dump.py \\
        --code /work/wt/prev --out tests/deploy/data/release-REL.sql.gz
    git worktree remove --force /work/wt/prev && git worktree prune

It drops and creates DATABASE_URL's database, migrates it with the release's `manage.py
migrate`, fills it through the release's own services (below), checks the tables in play are
still playing, and writes `pg_dump --no-owner --no-privileges` of it, gzipped, to --out; the
database is dropped at the end unless --keep-db. Then point test_upgrade.py's DUMP at the new
file and delete the old one (one dump: the release before the one being tested).

Without REDIS_URL (leave it unset) Celery is eager and nothing serves the tables: after each
move of a person the bots due move inline, one after the other, until a person is to act, so
every table in play stops at a person's turn. What the dump holds:

- a table in play of each game (saichugen, mediatore, three_five_eight, schieberamsch), people
  and built-in bots seated, several deals, some moves of people made (mid-deal);
- three_five_eight at a table of four (`seats=4`: the dealer sits out), in its second deal;
- schieberamsch with a turn clock (60 seconds a move) in play;
- a finished table (saichugen, one deal);
- a published league event (saichugen, four people and bots for the leftover seats) whose
  round 1 is published, its two fixtures' online tables in play.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse, urlunparse

HERE = Path(__file__).resolve().parent


def admin_url(url: str) -> str:
    return urlunparse(urlparse(url)._replace(path="/postgres"))


def recreate_database(url: str) -> None:
    import psycopg

    name = urlparse(url).path.lstrip("/")
    with psycopg.connect(admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    name = urlparse(url).path.lstrip("/")
    with psycopg.connect(admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# ------------------------------------------------------------------ playing (the release's code)
def seat_kinds(table_id: str) -> dict[int, bool]:
    """Seat number: whether a built-in bot plays it."""
    from gameplay.models import Seat

    return {s.number: bool(s.bot) for s in Seat.objects.filter(table_id=table_id)}


def deal_actions(match) -> int:
    """How many actions the current deal has had."""
    return len(match.log[match.deal_no][2]) if match.log else 0


def play_people(
    table_id: str, rng: random.Random, *, moves: int = 0, min_deal: int = 0, to_end: bool = False
) -> int:
    """Play random legal actions for the people's seats (the bots answer inline, eager Celery)
    until `moves` people's moves are made, the match is in deal `min_deal` or later, and the
    current deal has begun (mid-deal); or to the end with `to_end`. The moves made."""
    from gameplay.models import Table
    from gameplay.services.matches import load_match
    from gameplay.services.play import play_action
    from games.core.bots.common import random_action

    bots = seat_kinds(table_id)
    for made in range(5000):  # one person's move a turn of the loop
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            if to_end and table.status == Table.Status.FINISHED:
                return made
            raise SystemExit(f"table {table_id} is {table.status} after {made} moves")
        match = load_match(table)
        if (
            not to_end
            and made >= moves
            and match.deal_no >= min_deal
            and deal_actions(match) > 0
            and any(not bots[s] for s in match.to_act())
        ):
            return made
        people = [s for s in match.to_act() if not bots[s]]
        if not people:
            raise SystemExit(f"table {table_id}: no person to act at seq {table.seq}: a bot stuck")
        seat = people[0]
        play_action(table_id, seat, random_action(match.legal(seat), rng), table.seq)
    raise SystemExit(f"table {table_id} did not get there")


def make_tables(rng: random.Random) -> list[dict]:
    """The friendly tables, made as `manage.py create_table` makes them; each one's summary."""
    import io

    from django.core.management import call_command

    from gameplay.services.create import SeatSpec, create_table

    made = []

    def command(game: str, players: list[str], bots: int, deals: int, seed: int, **more) -> str:
        out = io.StringIO()
        args = [
            f"--game={game}",
            f"--players={','.join(players)}",
            f"--bots={bots}",
            f"--deals={deals}",
            f"--seed={seed}",
        ]
        args += [f"--{k.replace('_', '-')}={v}" for k, v in more.items()]
        call_command("create_table", *args, stdout=out)
        return json.loads(out.getvalue())["table"]

    def note(label: str, table_id: str, people_moves: int) -> None:
        made.append({"label": label, "table": table_id, "people_moves": people_moves})

    t = command("saichugen", ["sai-ana", "Bot Sai 1", "Bot Sai 2"], 2, 2, 101)
    note("saichugen, 1 person 2 bots, 2 deals", t, play_people(t, rng, moves=6))

    t = command("mediatore", ["med-ana", "med-ben", "Bot Med 1", "Bot Med 2"], 2, 2, 102)
    note("mediatore, 2 people 2 bots, 2 deals", t, play_people(t, rng, moves=8))

    t = command("three_five_eight", ["tfe-ana", "Bot Tfe 1", "Bot Tfe 2"], 2, 3, 103)
    note("three_five_eight, 1 person 2 bots, 3 deals", t, play_people(t, rng, moves=10))

    t = command(
        "schieberamsch", ["sch-ana", "sch-ben", "Bot Sch 1"], 1, 2, 104, seconds_per_move=60
    )
    note("schieberamsch, 2 people 1 bot, 2 deals, 60 s clock", t, play_people(t, rng, moves=7))

    # A table of four of a three-player game (`seats=4`, since 10be1ca): create_table with four
    # seats, as the lobby's "table of four" does; the dealer sits out each deal.
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("four-ana")
    four = create_table(
        "three_five_eight",
        [SeatSpec("four-ana", user_id=user.pk)]
        + [SeatSpec(f"Bot Four {n}", bot=f"Bot Four {n}") for n in (1, 2, 3)],
        n_deals=4,
        seed=105,
        rated=True,
    )
    note(
        "three_five_eight at a table of four, 1 person 3 bots, 4 deals, in deal 2",
        four.id,
        play_people(four.id, rng, moves=4, min_deal=1),
    )

    t = command("saichugen", ["fin-ana", "Bot Fin 1", "Bot Fin 2"], 2, 1, 106)
    note("saichugen, 1 person 2 bots, 1 deal, finished", t, play_people(t, rng, to_end=True))
    return made


def make_league(rng: random.Random) -> list[dict]:
    """A published event whose round 1 is published, its fixtures' online tables in play."""
    from django.contrib.auth import get_user_model

    from league.services import events, rounds
    from league.services.permissions import organizer_role
    from league.services.players import player_for_user

    User = get_user_model()
    organizer = User.objects.create_user("lea-organizer")
    organizer.user_permissions.add(organizer_role())
    organizer = User.objects.get(pk=organizer.pk)
    event = events.create_event(
        organizer,
        name="Upgrade cup",
        game="saichugen",
        rounds=2,
        deals_per_match=2,
        format="swiss",
        leftover="bot",
        seconds_per_move=120,
        seed=7,
    )
    events.publish_event(event, by=organizer)
    event.refresh_from_db()
    for name in ("lea-ana", "lea-ben", "lea-cleo", "lea-dario"):
        player = player_for_user(User.objects.create_user(name))
        events.add_entry(event, player, by=organizer, checked_in=True)
    round_ = rounds.generate_round(event, by=organizer)
    rounds.publish_round(round_, by=organizer)
    made = []
    for fixture in round_.fixtures.order_by("number"):
        assert fixture.table_ref, "the fixture has no online table"
        moves = play_people(fixture.table_ref, rng, moves=5)
        made.append(
            {
                "label": f"league event 'Upgrade cup' (saichugen), round 1 table {fixture.number}",
                "table": fixture.table_ref,
                "people_moves": moves,
                "event": event.slug,
            }
        )
    return made


def fill(seed: int) -> list[dict]:
    import django

    django.setup()
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # nothing leaves
    rng = random.Random(seed)
    made = make_tables(rng)
    made += make_league(rng)

    from gameplay.models import Table
    from gameplay.services.matches import load_match

    for row in made:
        table = Table.objects.get(pk=row["table"])
        row |= {"game": table.game, "seats": table.seats.count(), "status": table.status}
        row |= {"seq": table.seq, "n_deals": table.n_deals, "clock": table.seconds_per_move}
        if table.status == Table.Status.PLAYING:
            match = load_match(table)
            row |= {"deal": match.deal_no + 1, "deal_actions": deal_actions(match)}
            # Nothing runs a bot in between: every table in play waits for a person.
            bots = seat_kinds(table.id)
            assert any(not bots[s] for s in match.to_act()), row
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", required=True, help="a worktree of the release's commit")
    parser.add_argument("--out", required=True, help="the gzipped SQL dump to write")
    parser.add_argument("--seed", type=int, default=1, help="the people's random play")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("set DATABASE_URL to the PostgreSQL database to make (it is dropped first)")
    if os.environ.get("REDIS_URL"):
        sys.exit("unset REDIS_URL: bots must move inline, not in a worker")
    code = Path(args.code).resolve()
    out = Path(args.out).resolve()
    # The release's code, not this checkout's (nor this file's directory).
    sys.path[:] = [str(code)] + [p for p in sys.path if Path(p or ".").resolve() != HERE]
    os.chdir(code)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    recreate_database(url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
        cwd=code,
        env={**os.environ, "PYTHONPATH": str(code)},
        check=True,
    )
    try:
        made = fill(args.seed)
        from django.db import connections

        connections.close_all()
        dump = subprocess.run(
            ["pg_dump", "--no-owner", "--no-privileges", "--dbname", url],
            check=True,
            capture_output=True,
        ).stdout
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(gzip.compress(dump, mtime=0))
    finally:
        if not args.keep_db:
            drop_database(url)
    for row in made:
        print(json.dumps(row))
    print(f"{out}: {out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
