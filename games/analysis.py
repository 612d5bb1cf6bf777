"""Game analysis (docs/bots.md, "Game analysis"): every decision of the named seats in a finished
record judged by the strong evaluator, like lichess's computer analysis.

Pure, like the engines: the table server's job (`gameplay/services/analysis.py`) gives a record
and the seats of its people and stores what `analyse` returns. At each decision of those seats
the record is cut just before it, and the seat is shown exactly what a bot at the table would be
(`games.ask.position`); the strong level's search values every candidate action by its
mean deal payout over sampled worlds, the action taken always among them (it is the search's
prior, so it wins ties). The gap is best - taken, in the game's payout units; it is marked by how
large it is against the game's scale (`SCALES`, the mean absolute deal payout): payout units
differ tenfold between games. A gap below the inaccuracy's threshold is within the search's
noise: the decision is as good as the best and costs nothing (`loss` 0), so every total and the
accuracy add up what the page marks. A forced move (one candidate) is not judged, and only the
decisions a person made (`made`: not those a bot played for them after they resigned).

The double-dummy part (what best play with every card known would have made) comes from
`games.core.solver`; `double_dummy` is the one place that reads it.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable
from typing import Any

from games.ask import NotADecision, has_choice, position
from games.core import solver as dd_solver
from games.core.bots.registry import get_bot
from games.core.bots.search import Budget, policy_rollout, random_rollout, search
from games.core.records import replay_record

# 2: an unmarked decision costs 0; 3: costs in hundredths, as shown, so that the totals shown are
# the sums of the costs shown (`upgrade` reads versions 1 and 2).
VERSION = 3
COST_DIGITS = 2
# The mean absolute payout of one seat in one deal, per game: the unit a loss is measured in.
# Measured with the basic bots in every seat, 150 one-deal matches (seeds 0 to 149), default
# variants (docs/bots.md, "Game analysis").
SCALES: dict[str, float] = {
    "saichugen": 1.3,
    "three_five_eight": 1.5,
    "schieberamsch": 40.0,
    "mediatore": 4.6,
}
DEFAULT_SCALE = 1.0
# A loss of at least this share of the game's scale is marked (lichess's ?!, ? and ??).
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.50),
    ("mistake", 0.25),
    ("inaccuracy", 0.10),
)
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
DEFAULT_ITERATIONS = 60


def scale(game: str) -> float:
    """The game's payout scale: what the marks' thresholds are shares of."""
    return SCALES.get(game, DEFAULT_SCALE)


def classify(game: str, loss: float) -> str | None:
    """The mark of a decision that lost `loss` payout points in `game`, or None (not marked)."""
    unit = scale(game)
    for mark, share in THRESHOLDS:
        if loss >= share * unit - 1e-9:
            return mark
    return None


def key(action: dict[str, Any]) -> str:
    """An action compared without its seat and with its card lists in any order."""
    parts = []
    for name, value in sorted(action.items()):
        if name == "seat":
            continue
        parts.append(f"{name}={sorted(value) if isinstance(value, list) else value}")
    return "&".join(parts)


def _plain(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "seat"}


def values(
    pos: Any, taken: dict[str, Any], budget: Budget, rng: random.Random
) -> list[tuple[dict[str, Any], float]]:
    """The strong evaluator's mean payout of every candidate at `pos`, `taken` among them.

    The generic strong level's search, with the action taken as its prior (always a candidate,
    first on ties); a game that registers its own strong level with a `decide` (Saichugen) is
    asked through it, its candidates being every card."""
    bot = get_bot(pos.game, "strong")
    module = sys.modules.get(bot.choose.__module__)
    own = getattr(module, "decide", None)
    if own is not None and bot.choose.__module__ != "games.core.bots.strong":
        return list(own(pos.view, pos.legal, rng, budget=budget).means)
    basic = get_bot(pos.game, "basic")
    rollout = policy_rollout(basic.choose) if basic.rollout else random_rollout
    decision = search(
        pos.view, pos.legal, rng, prior=_plain(taken), rollout=rollout, budget=budget, past=pos.past
    )
    return list(decision.means)


def _cut(record: dict[str, Any], k: int, j: int) -> dict[str, Any]:
    """The record up to (not including) action `j` of deal `k`."""
    deals = record["deals"]
    return {**record, "deals": [*deals[:k], {**deals[k], "actions": deals[k]["actions"][:j]}]}


def decisions(
    record: dict[str, Any], seats: Iterable[int], made: Iterable[int] | None = None
) -> list[tuple[int, int, int]]:
    """(deal, action index, seat) of every action of `seats` in the record; with `made`, only
    those whose place in the whole record (from 0, deals one after another) is in it: the
    actions the person chose, not the ones a bot played for the seat after a resignation."""
    wanted = set(seats)
    mine = None if made is None else set(made)
    out = []
    n = 0
    for k, deal in enumerate(record["deals"]):
        for j, a in enumerate(deal.get("actions", [])):
            if a.get("seat") in wanted and (mine is None or n in mine):
                out.append((k, j, a.get("seat")))
            n += 1
    return out


def choices(
    record: dict[str, Any],
    seats: Iterable[int],
    made: Iterable[int] | None = None,
    *,
    n_deals: int | None = None,
) -> int:
    """How many of `decisions` left the person a choice: 0 means there is nothing to analyse
    (the server then answers at once, without a job). One replay per deal."""
    todo: dict[int, set[int]] = {}
    for k, j, _seat in decisions(record, seats, made):
        todo.setdefault(k, set()).add(j)
    found = 0
    for k, wanted in todo.items():
        match = replay_record(_cut(record, k, 0), n_deals=max(n_deals or 0, len(record["deals"])))
        for j, action in enumerate(record["deals"][k].get("actions", [])):
            if j in wanted and has_choice(match.legal(action.get("seat"))):
                found += 1
            match.apply(action.get("seat"), action)
    return found


def judge(
    record: dict[str, Any],
    k: int,
    j: int,
    *,
    iterations: int,
    seed: int | str = 0,
    n_deals: int | None = None,
) -> dict[str, Any] | None:
    """One decision (action `j` of deal `k`) judged; None when it was forced or cannot be.

    Deterministic: the search's generator is seeded by `seed` and the decision's place."""
    taken = record["deals"][k]["actions"][j]
    seat = taken.get("seat")
    try:
        pos = position(_cut(record, k, j), seat, n_deals=n_deals or len(record["deals"]))
    except NotADecision:
        return None
    rng = random.Random(f"analysis/{seed}/{k}/{j}")
    means = values(pos, taken, Budget(seconds=None, iterations=iterations), rng)
    if len(means) < 2:
        return None  # forced: nothing to choose
    mine = key(taken)
    taken_value = next((v for a, v in means if key(a) == mine), None)
    if taken_value is None:
        return None  # not among what the evaluator compared (cannot be judged)
    best_action, best_value = max(means, key=lambda m: m[1])
    gap = max(0.0, best_value - taken_value)
    mark = classify(pos.game, gap)
    return {
        "deal": k,
        "index": j,
        "seat": seat,
        "taken": _plain(taken),
        "taken_value": round(taken_value, 3),
        "best": _plain(best_action) if mark else _plain(taken),
        "best_value": round(best_value, 3),
        # What the decision cost: the gap when marked, else 0 (as good as the best, within the
        # search's noise); `gap` keeps the evaluator's raw difference.
        "loss": round(gap, COST_DIGITS) if mark else 0.0,
        "gap": round(gap, 3),
        "mark": mark,
        "candidates": len(means),
        "dd_loss": None,
    }


# ------------------------------------------------------------------ double dummy
# Positions one double-dummy solve may search: a position too deep for it is left without a
# double-dummy value (the solver's `TooHard`), never holds the job for long.
DD_MAX_NODES = 30_000
# Only positions with at most this many cards left in a hand are solved: a whole deal's play is
# too deep for an analysis's budget (docs/bots.md, "Game analysis").
DD_CARDS = 6


def _solver() -> Any:
    """The double-dummy solver (`games.core.solver`); a seam a test replaces with known values."""
    return dd_solver


def _dd(call: Callable[[], Any]) -> Any:
    """A solver call's value, or None where it cannot give one (before the card play, or too
    deep for `DD_MAX_NODES`)."""
    try:
        return call()
    except (dd_solver.NotInPlay, dd_solver.TooHard):
        return None


def _dd_cards(rules: Any) -> int:
    """The cards left in a hand from which the game's positions are solved: `DD_CARDS`, or
    fewer where the solver is exact only nearer the end (Saichugen: its `EXACT_TRICKS`, 3)."""
    return min(DD_CARDS, getattr(rules, "EXACT_TRICKS", DD_CARDS))


def _solvable(solver: Any, match: Any) -> bool:
    """In the card play of a game with a solver, with few enough cards left (`_dd_cards`)."""
    try:
        rules = solver.game_solver(match)
    except KeyError:  # a game without a solver (registry: `GameSpec.solver`)
        return False
    return bool(rules.in_play(match)) and rules.cards_left(match) <= _dd_cards(rules)


def _play_starts(record: dict[str, Any], k: int, solver: Any) -> tuple[Any, int, int] | None:
    """Deal `k`'s match at the start of the first trick the solver is asked about (`_dd_cards`
    cards left), how many cards each hand holds there, and that trick's number in the deal's
    play (from 1); None: no such position."""
    actions = record["deals"][k].get("actions", [])
    full = None  # the cards in a hand when the play began
    for j in range(len(actions) + 1):
        match = replay_record(_cut(record, k, j))
        if match.finished or match.deal_no != k:
            return None
        try:
            rules = solver.game_solver(match)
        except KeyError:
            return None
        if not rules.in_play(match):
            continue
        left = rules.cards_left(match)
        full = left if full is None else full
        if left <= _dd_cards(rules) and not any(getattr(match, "trick", None) or ()):
            return match, left, full - left + 1
    return None


def double_dummy(
    record: dict[str, Any], entries: list[dict[str, Any]], seats: Iterable[int]
) -> dict[int, dict[int, dict[str, float]]]:
    """The one place the double-dummy solver is read. Per deal and seat: with every card open
    from trick `from_trick` on (the last `tricks` tricks, `DD_CARDS`), the most the seat could
    be sure of against all the others playing together (`best`: the solver is paranoid, so it
    may be below what the seat made against real opponents) and what it made (`made`); and each
    judged card's `dd_loss` (the best card's value - the taken one's) filled in. A value the
    solver cannot give stays None."""
    solver = _solver()
    nodes = {"max_nodes": DD_MAX_NODES}
    for entry in entries:
        match = replay_record(_cut(record, entry["deal"], entry["index"]))
        if not _solvable(solver, match):
            continue
        found = _dd(lambda m=match, s=entry["seat"]: solver.action_values(m, s, **nodes))
        if not found:
            continue
        mine = key(entry["taken"])
        taken = next((v for a, v in found if key(a) == mine), None)
        if taken is not None:
            entry["dd_loss"] = round(max(v for _, v in found) - taken, 3)
    final = replay_record(record)
    out: dict[int, dict[int, dict[str, float]]] = {}
    for k in range(len(record["deals"])):
        found = _play_starts(record, k, solver)
        if found is None or k >= len(final.results):
            continue
        start, cards, trick = found
        for s in seats:
            best = _dd(lambda m=start, s=s: solver.solve(m, s, **nodes))
            if best is not None:
                made = float(final.results[k]["payouts"][s])
                out.setdefault(k, {})[s] = {
                    "best": round(float(best), 3),
                    "made": made,
                    "tricks": cards,
                    "from_trick": trick,
                    # With a partner (Mediatore, a Grand Hand's defenders): the side's best
                    # against the other side, not one seat's against everyone.
                    "partners": len(solver.game_solver(start).allies(start, s)) > 1,
                }
    return out


# ------------------------------------------------------------------ the whole record
def accuracy(entries: list[dict[str, Any]]) -> float | None:
    """The share of a seat's judged decisions that cost nothing (not marked), in percent."""
    if not entries:
        return None
    return round(100.0 * sum(1 for e in entries if e["mark"] is None) / len(entries), 1)


def analyse(
    record: dict[str, Any],
    seats: Iterable[int],
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int | str = 0,
    progress: Callable[[int, int], None] | None = None,
    n_deals: int | None = None,
    made: Iterable[int] | None = None,
) -> dict[str, Any]:
    """Every decision of `seats` in the (finished) `record`, judged; per deal and seat the losses
    and marks, per seat the accuracy. JSON-ready. `n_deals`: the match's length (each decision
    is seen as in the match it was made in); `made`: the record's places of the actions a person
    chose (`decisions`), all of the seats' when None."""
    seats = sorted(set(seats))
    match = replay_record(record, n_deals=n_deals)
    game = match.GAME
    todo = decisions(record, seats, made)
    entries = []
    for n, (k, j, _seat) in enumerate(todo):
        entry = judge(record, k, j, iterations=iterations, seed=seed, n_deals=n_deals)
        if entry is not None:
            entries.append(entry)
        if progress is not None:
            progress(n + 1, len(todo))
    dd = double_dummy(record, entries, seats)
    # A seat a bot played out after a resignation has no double-dummy line for that deal: its
    # "made" and its later tricks were the bot's, not the person's.
    chosen = set(todo)
    for k, deal in enumerate(record["deals"]):
        for j, a in enumerate(deal.get("actions", [])):
            if (k, j, a.get("seat")) not in chosen and a.get("seat") in dd.get(k, {}):
                del dd[k][a["seat"]]
    deals = []
    for k, _deal in enumerate(record["deals"]):
        per_seat = {}
        for s in seats:
            mine = [e for e in entries if e["deal"] == k and e["seat"] == s]
            marks = {m: sum(1 for e in mine if e["mark"] == m) for m in SYMBOLS}
            per_seat[str(s)] = {
                "payout": match.results[k]["payouts"][s] if k < len(match.results) else None,
                "loss": round(sum(e["loss"] for e in mine), COST_DIGITS),
                "marks": marks,
                "decisions": len(mine),
                "dd": dd.get(k, {}).get(s),
            }
        deals.append({"deal": k, "seats": per_seat})
    players = {}
    for s in seats:
        mine = [e for e in entries if e["seat"] == s]
        players[str(s)] = {
            "decisions": len(mine),
            "marks": {m: sum(1 for e in mine if e["mark"] == m) for m in SYMBOLS},
            "loss": round(sum(e["loss"] for e in mine), COST_DIGITS),
            "accuracy": accuracy(mine),
        }
    return {
        "version": VERSION,
        "game": game,
        "iterations": iterations,
        "scale": scale(game),
        "thresholds": {m: round(share * scale(game), 3) for m, share in THRESHOLDS},
        # Read by the replay page: whether the game has a solver (else no double-dummy line).
        "double_dummy": _has_solver(match),
        "decisions": entries,
        "deals": deals,
        "players": players,
    }


def analyse_job(work: dict[str, Any]) -> dict[str, Any]:
    """`analyse` of a job as plain data (`record`, `seats`, `iterations`, `seed`): what the
    server hands to a process beside it (this module imports no Django)."""
    return analyse(
        work["record"],
        work["seats"],
        iterations=work["iterations"],
        seed=work["seed"],
        n_deals=work.get("n_deals"),
        made=work.get("made"),
    )


def _has_solver(match: Any) -> bool:
    try:
        _solver().game_solver(match)
    except KeyError:
        return False
    return True


def upgrade(result: dict[str, Any]) -> dict[str, Any]:
    """A stored result as this version reads it: version 1 counted the gap of unmarked
    decisions as a loss, version 2 kept costs in thousandths; here unmarked decisions cost 0,
    costs are in hundredths and the totals add up the costs shown."""
    if result.get("version", 1) >= VERSION:
        return result
    entries = [
        {
            **e,
            "gap": e.get("gap", e["loss"]),
            "loss": round(e["loss"], COST_DIGITS) if e.get("mark") else 0.0,
        }
        for e in result.get("decisions", [])
    ]

    def lost(keep: Callable[[dict[str, Any]], bool]) -> float:
        return round(sum(e["loss"] for e in entries if keep(e)), COST_DIGITS)

    deals = [
        {
            **d,
            "seats": {
                s: {
                    **v,
                    "loss": lost(
                        lambda e, k=d["deal"], s=s: e["deal"] == k and str(e["seat"]) == s
                    ),
                }
                for s, v in d["seats"].items()
            },
        }
        for d in result.get("deals", [])
    ]
    players = {
        s: {**p, "loss": lost(lambda e, s=s: str(e["seat"]) == s)}
        for s, p in result.get("players", {}).items()
    }
    return {**result, "version": VERSION, "decisions": entries, "deals": deals, "players": players}
