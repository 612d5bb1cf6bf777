"""Where a decision's payout went (docs/fair-play.md, "Collusion"): for each decision of a
finished record, what it cost its maker against the maker's best choice and what each other
seat gained by it.

Pure, like the engines, and read afterwards, when every card is known: each candidate action is
played in the real deal and the deal finished `rollouts` times by the basic policy (the same
generators for every candidate, so that their differences are the decision's and not the
rollouts' luck). The maker's best candidate is the reference; the taken action's payout vector
minus the reference's says who gained what. Zero-sum games: the maker's cost is what the others
gained together, and an honest player's mistakes go to each of the others about equally often —
a colluder's go to one of them (`league/fairplay/collusion.py` counts that per pair).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import games.bots  # noqa: F401  (every game's levels: a spawned process has none otherwise)
from games.ask import has_choice
from games.core.base import Match
from games.core.bots.registry import get_bot
from games.core.bots.search import Rollout, candidates, policy_rollout, random_rollout
from games.core.errors import EngineError
from games.core.records import replay_record

ROLLOUTS = 4


def _rollout(game: str) -> Rollout:
    """The basic policy where it is a fair model of the players and quick enough to play out
    (its `rollout` trait), else uniformly random moves: the strong level's choice too."""
    basic = get_bot(game, "basic")
    return policy_rollout(basic.choose) if basic.rollout else random_rollout


def _finish_deal(world: Match, deal: int, rollout: Rollout, rng: random.Random) -> list[int]:
    while not world.finished and world.deal_no == deal:
        rollout(world, rng)
    return list(world.results[deal]["payouts"])


def outcomes(
    match: Match, seat: int, options: list[dict[str, Any]], *, rollouts: int, seed: str
) -> list[list[float] | None]:
    """The mean deal payout vector of each option played by `seat` in the real `match`, the deal
    finished by the basic policy (`_rollout`); None for an option the engine refuses."""
    rollout = _rollout(match.GAME)
    deal = match.deal_no
    totals: list[list[float] | None] = [None] * len(options)
    for r in range(rollouts):
        for i, action in enumerate(options):
            trial = match.clone()
            try:
                trial.apply(seat, {k: v for k, v in action.items() if k != "seat"})
            except EngineError:
                continue
            pays = _finish_deal(trial, deal, rollout, random.Random(f"{seed}/{r}"))
            row = totals[i] or [0.0] * len(pays)
            totals[i] = [t + p for t, p in zip(row, pays, strict=True)]
    return [None if t is None else [p / rollouts for p in t] for t in totals]


def judge(
    match: Match, seat: int, taken: dict[str, Any], *, rollouts: int = ROLLOUTS, seed: str = "0"
) -> dict[str, Any] | None:
    """One decision (`taken` by `seat` at `match`, every card known): {"cost": what the maker
    lost against its best candidate, "to": each seat's gain by it (the maker's own is -cost),
    "tilt": how far it favoured each other seat among the candidates (`_tilt`; the maker's 0),
    "expect": each seat's expected deal payout before it (the candidates' mean)};
    None when there was nothing to choose."""
    legal = match.legal(seat)
    if not has_choice(legal):
        return None
    plain = {k: v for k, v in taken.items() if k != "seat"}
    options = candidates(legal, random.Random(seed), plain)
    if len(options) < 2:
        return None
    means = outcomes(match, seat, options, rollouts=rollouts, seed=seed)
    mine = means[0]  # the taken action is the first candidate (the prior)
    if mine is None:
        return None
    scored = [(m[seat], i) for i, m in enumerate(means) if m is not None]
    best = means[max(scored, key=lambda x: (x[0], -x[1]))[1]]
    assert best is not None
    gains = [round(t - b, 4) for t, b in zip(mine, best, strict=True)]
    valid = [m for m in means if m is not None]
    playing = match.in_play()  # a table of four's sitter is nobody's opponent this deal
    tilt = [
        0.0 if o == seat or o not in playing else _tilt(valid, mine, seat, o, playing)
        for o in range(len(mine))
    ]
    # What each seat could expect before the decision (the mean over the candidates): who was
    # ahead then, which honest play itself leans by (league.fairplay.collusion.baseline).
    expect = [round(sum(m[o] for m in valid) / len(valid), 3) for o in range(len(mine))]
    return {"cost": round(best[seat] - mine[seat], 4), "to": gains, "tilt": tilt, "expect": expect}


def _tilt(
    means: list[list[float]], taken: list[float], maker: int, to: int, playing: list[int]
) -> float:
    """Where the taken action stands among the candidates by how much it favours seat `to`
    over the maker's other opponents in the deal (`playing`: a sitter at a table of four is
    none): +1 the candidate that favours `to` most, -1 the one that favours it least, in between
    by rank (ties halfway). Bounded, so one big swing weighs no more than a small one; an honest
    player's choices are as often on one side as the other."""

    def favour(m: list[float]) -> float:
        rest = [m[o] for o in playing if o not in (maker, to)]
        return m[to] - (sum(rest) / len(rest) if rest else 0.0)

    mine = favour(taken)
    below = sum(favour(m) < mine - 1e-9 for m in means)
    above = sum(favour(m) > mine + 1e-9 for m in means)
    return round((below - above) / (len(means) - 1), 4) if len(means) > 1 else 0.0


def record_transfers(
    record: dict[str, Any],
    seats: Iterable[int] | None = None,
    *,
    rollouts: int = ROLLOUTS,
    seed: str = "0",
) -> list[dict[str, Any]]:
    """Every decision with a choice of the named seats (default all) in a finished record:
    {"deal", "index", "seat", "cost", "to", "tilt", "expect"}, at a table of four "playing" (the
    deal's three seats: the sitter is judged for nothing), and in a game of sides
    (``Match.SIDES``) the deal's "sides" as the cards made them — a decision before they are
    made (the auction, the call) is not judged: whom it favours is not yet a side. Deterministic
    for a seed."""
    wanted = None if seats is None else set(seats)
    out = []
    n_deals = len(record["deals"])
    for k, deal in enumerate(record["deals"]):
        head = {**record, "deals": [*record["deals"][:k], {**deal, "actions": []}]}
        match = replay_record(head, n_deals=n_deals)
        for j, action in enumerate(deal.get("actions", [])):
            seat = action.get("seat")
            sides = match.sides() if match.SIDES else None
            if (wanted is None or seat in wanted) and (sides is not None or not match.SIDES):
                found = judge(match, seat, action, rollouts=rollouts, seed=f"{seed}/{k}/{j}")
                if found is not None:
                    entry = {"deal": k, "index": j, "seat": seat, **found}
                    if len(match.in_play()) < match.SEATS:  # a table of four: who played
                        entry["playing"] = match.in_play()
                    if sides is not None:
                        entry["sides"] = sides
                    out.append(entry)
            match.apply(seat, action)
    return out
