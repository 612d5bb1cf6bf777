"""Collusion analytics: where a decision's payout went (games.transfers), the pairs' leans
(league.fairplay.collusion), and the detector tried on bots (bench/collusion.py) at small scale."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.collusion import simulate
from games import registry
from games.core.records import export_record
from games.evaluate import chooser, play_table
from games.transfers import record_transfers
from league.fairplay import collusion


def decision(deal: int, maker: str, others: tuple[str, str], gains: tuple[float, float], i=0):
    return collusion.Decision(f"t{deal}", deal, i, maker, others, max(0.0, sum(gains)), gains)


def test_an_honest_players_mistakes_spread_over_both_others_are_no_lean():
    rng = random.Random(5)
    found = []
    for deal in range(200):
        for i in range(6):
            gift = rng.random()
            to_b = rng.random() < 0.5
            found.append(decision(deal, "a", ("b", "c"), (gift, 0.0) if to_b else (0.0, gift), i))
    assert collusion.suspects(found) == []
    assert abs(collusion.leans(found)[("a", "b")].score) < collusion.THRESHOLD


def test_a_player_who_gives_to_one_other_deal_after_deal_is_a_suspect_with_the_evidence():
    found = [decision(d, "a", ("b", "c"), (1.5, -0.5)) for d in range(40)]
    found += [decision(d, "a", ("b", "c"), (0.0, 0.2), 1) for d in range(40, 48)]  # a few back
    (suspect,) = collusion.suspects(found)
    assert suspect.players == ("a", "b")
    lean = suspect.lean
    assert (lean.toward, lean.away) == (40, 8)
    assert lean.gained == pytest.approx(60.0) and lean.cost == pytest.approx(40.0)
    assert [d.deal for _, d in lean.strongest(3)] == [0, 1, 2]


def test_many_leaning_decisions_in_one_deal_count_as_one_deal():
    """Decisions of one deal hang together (who is in danger decides where every card's payout
    goes): a single deal never makes a suspect, however many decisions lean in it."""
    found = [decision(0, "a", ("b", "c"), (1.0, 0.0), i) for i in range(200)]
    lean = collusion.leans(found)[("a", "b")]
    assert lean.leaning == 1 and collusion.suspects(found) == []


def test_bots_and_the_maker_are_never_part_of_a_pair():
    found = [decision(d, "a", (None, "c"), (2.0, 0.0)) for d in range(60)]
    assert ("a", None) not in collusion.leans(found)
    assert collusion.suspects(found) == []


gains = st.tuples(st.floats(-50, 50, allow_nan=False), st.floats(-50, 50, allow_nan=False)).filter(
    lambda g: abs(g[0] - g[1]) > 1e-3
)


@settings(max_examples=40, deadline=None)
@given(st.lists(gains, min_size=1, max_size=80), st.floats(0.01, 100))
def test_the_score_is_the_same_in_any_unit_and_turns_over_when_the_others_swap(rows, factor):
    plain = [decision(d, "a", ("b", "c"), g) for d, g in enumerate(rows)]
    scaled = [
        decision(d, "a", ("b", "c"), (g[0] * factor, g[1] * factor)) for d, g in enumerate(rows)
    ]
    swapped = [decision(d, "a", ("c", "b"), (g[1], g[0])) for d, g in enumerate(rows)]
    score = collusion.leans(plain)[("a", "b")].score
    assert collusion.leans(scaled)[("a", "b")].score == pytest.approx(score)
    assert collusion.leans(swapped)[("a", "b")].score == pytest.approx(score)
    assert collusion.leans(plain)[("a", "c")].score == pytest.approx(-score)


THREE = [name for name in registry.game_names() if registry.get_game(name).seats == 3]


@pytest.mark.parametrize("game", THREE)
def test_a_decisions_cost_to_its_maker_is_what_the_others_gained(game):
    """Zero-sum: each judged decision's gains add up to nothing, the maker's own being minus its
    cost, and no decision costs less than nothing (the reference is the maker's best)."""
    basic = chooser(game, "basic")
    record = export_record(play_table(game, "transfers/1", [basic] * 3))
    judged = record_transfers(record, rollouts=1)
    assert judged, "a deal has decisions with a choice"
    for e in judged:
        b, c = (s for s in range(3) if s != e["seat"])
        assert e["tilt"][e["seat"]] == 0 and -1 <= e["tilt"][b] <= 1
        assert e["tilt"][b] == pytest.approx(-e["tilt"][c])  # favouring one is slighting the other
        assert sum(e["to"]) == pytest.approx(0.0, abs=1e-3)
        assert sum(e["expect"]) == pytest.approx(0.0, abs=1e-2)  # what each could expect
        assert e["to"][e["seat"]] == pytest.approx(-e["cost"], abs=1e-3)
        assert e["cost"] >= 0
    assert record_transfers(record, rollouts=1) == judged  # deterministic
    mine = record_transfers(record, [1], rollouts=1)
    assert mine == [e for e in judged if e["seat"] == 1]


def test_the_simulation_finds_a_clear_colluder_and_flags_no_honest_pair():
    """bench/collusion.py at small scale (fixed seeds): a colluder who plays most of its
    decisions for its partner is found after 25 deals; six honest pairs are not flagged."""
    out = simulate("schieberamsch", tables=1, honest_tables=2, deals=25, strength=0.8, seed=3)
    row = {r["deals"]: r for r in out["checkpoints"]}[25]
    assert out["moved_per_deal"] > 0
    assert row["found"] == 1.0 and row["false_positives"] == 0.0


def seated(deal: int, maker: str, nxt: str, prev: str, tilt_next: float) -> collusion.Decision:
    """A decision whose maker has `nxt` in the next seat and `prev` in the one before."""
    return collusion.Decision(
        f"s{deal}", deal, 0, maker, (nxt, prev), 0.1, (0.05, 0.05), (tilt_next, -tilt_next), (1, 2)
    )


def test_a_pair_that_always_sits_the_same_way_round_is_judged_against_everyone_at_that_place():
    """Where the game's play favours the next seat, everybody tilts toward it: friends who always
    sit one after the other are not suspects for that, one who tilts toward a friend more than
    everyone tilts toward that place is."""
    rng = random.Random(2)
    found = []
    for deal in range(300):  # the population: everyone favours the next seat a little
        a, b, c = rng.sample(["p", "q", "r", "s", "t", "u"], 3)
        found.append(seated(deal, a, b, c, 1.0 if rng.random() < 0.7 else -1.0))
    friends = [seated(1000 + d, "f", "g", "h", 1.0 if d % 10 < 7 else -1.0) for d in range(60)]
    assert collusion.leans(friends)[("f", "g")].score > collusion.THRESHOLD  # without baseline
    assert collusion.suspects(found + friends) == []
    colluding = [seated(2000 + d, "m", "n", "o", 1.0 if d % 20 < 19 else -1.0) for d in range(60)]
    (suspect,) = collusion.suspects(found + friends + colluding)
    assert suspect.players == ("m", "n")


def test_everyone_loading_the_deals_loser_is_play_not_collusion():
    """In Ramsch the two others of the player collecting the points both load more onto them:
    they favour each other in that deal. A strong friend who often ends ahead is favoured so
    for that reason alone, and is no suspect; the baseline is taken at each standing."""

    def ended(deal: int, maker: str, a: str, b: str, a_ahead: bool) -> collusion.Decision:
        tilt = 1.0 if a_ahead else -1.0  # toward whoever ends ahead of the other
        standing = (1, -1) if a_ahead else (-1, 1)
        return collusion.Decision(
            f"e{deal}", deal, 0, maker, (a, b), 0.1, (0.0, 0.0), (tilt, -tilt), (1, 2), standing
        )

    rng = random.Random(4)
    found = [
        ended(d, *rng.sample(["p", "q", "r", "s", "t", "u"], 3), rng.random() < 0.5)
        for d in range(300)
    ]
    strong_friend = [ended(1000 + d, "f", "g", "h", d % 10 < 7) for d in range(80)]
    assert collusion.leans(strong_friend)[("f", "g")].score > collusion.THRESHOLD
    assert collusion.suspects(found + strong_friend) == []


def test_a_pair_that_is_most_of_the_judged_play_is_not_judged_against_itself():
    """Two friends play with a bot every evening, always in the same seats, and nobody else is
    judged: one feeds the other. Against a baseline that took their own decisions in, the
    feeding is what everyone does at that place; the pair is judged against the others only."""
    rng = random.Random(6)

    def evening(prefix: str, helper: str, helped: str, share: float) -> list:
        out = []
        for deal in range(60):
            toward = 1.0 if rng.random() < share else -1.0
            out.append(seated(deal, helper, helped, None, toward))  # the bot sits after
            honest = 1.0 if rng.random() < 0.5 else -1.0
            out.append(seated(deal, helped, None, helper, honest))
        return [replace(d, table=f"{prefix}{d.deal}") for d in out]

    pair = evening("e", "f", "g", 0.9)
    (suspect,) = collusion.suspects(pair)
    assert suspect.players == ("f", "g") and suspect.lean.toward > 40
    # Nobody else judged: no baseline, the full lean (not less f's own mean at that place).
    assert suspect.score == pytest.approx(collusion.leans(pair)[("f", "g")].score)
    base = collusion.baseline(pair)
    assert base.toward((1, 0)) > 0.3  # f's own feeding (g's decisions there tilt nowhere)
    assert base.toward((1, 0), leaving_out=("f", "g")) == 0.0
    # Among other people's honest play, the baseline of every pair is the others' median:
    # the feeder moves nobody's.
    others = [d for n in range(4) for d in evening(f"o{n}", f"p{n}", f"q{n}", 0.5)]
    assert [s.players for s in collusion.suspects(pair + others)] == [("f", "g")]
    place = base.toward((1, 0), ("p0", "q0"))
    assert abs(collusion.baseline(pair + others).toward((1, 0), ("p0", "q0"))) < place / 2


def test_a_mediatore_decision_is_judged_once_the_sides_are_made_and_says_them():
    """In a game of sides the auction and the call are not judged (whom they favour is no side
    yet); every judged decision carries the deal's sides, the maker in one of them."""
    basic = chooser("mediatore", "basic")
    record = export_record(play_table("mediatore", "transfers/sides", [basic] * 4))
    judged = record_transfers(record, rollouts=1)
    assert judged
    for e in judged:
        assert sorted(s for side in e["sides"] for s in side) == [0, 1, 2, 3]
        assert len(e["sides"]) == 2 and any(e["seat"] in side for side in e["sides"])
        assert sum(e["to"]) == pytest.approx(0.0, abs=1e-3)
    first = min(e["index"] for e in judged)
    auction = [a for a in record["deals"][0]["actions"][:first] if a.get("act") in {"bid", "pass"}]
    assert auction, "the auction's decisions come before the first judged one"


def sided(
    deal: int, maker: str, others: tuple, partner: str, tilt_to_b: float
) -> collusion.Decision:
    """A Mediatore decision of `maker` with `others` (b first), `partner` on the maker's side."""
    tilts = (tilt_to_b, -tilt_to_b / 2, -tilt_to_b / 2)
    return collusion.Decision(
        f"m{deal}",
        deal,
        0,
        maker,
        others,
        0.1,
        (0.0, 0.0, 0.0),
        tilts,
        (1, 2, 3),
        (),
        tuple(o == partner for o in others),
        tuple(2 for _ in others),
    )


def test_in_a_game_of_sides_favouring_a_partner_is_play_and_an_opponent_is_judged():
    rng = random.Random(8)
    population = []
    for deal in range(200):
        a, b, c, d = rng.sample(["p", "q", "r", "s", "t", "u"], 4)
        population.append(sided(deal, a, (b, c, d), rng.choice([b, c, d]), rng.choice([1.0, -1.0])))
    # f always favours g, who is its partner in every deal: the game, not collusion.
    partner = [sided(1000 + n, "f", ("g", "h", "i"), "g", 1.0) for n in range(40)]
    assert collusion.suspects(population + partner) == []
    assert ("f", "g") not in collusion.leans(partner)
    # m favours n in deals where n is an opponent: judged.
    opponent = [
        sided(2000 + n, "m", ("n", "o", "k"), "o", 1.0 if n % 10 else -1.0) for n in range(40)
    ]
    (suspect,) = collusion.suspects(population + partner + opponent)
    assert suspect.players == ("m", "n")


def test_a_judged_entry_of_a_game_of_sides_names_the_makers_partners():
    entry = {
        "deal": 0,
        "index": 12,
        "seat": 1,
        "cost": 0.5,
        "to": [0.2, -0.5, 0.1, 0.2],
        "tilt": [0.5, 0.0, -1.0, 0.5],
        "expect": [3.0, -2.0, -2.0, 1.0],
        "sides": [[1, 2], [0, 3]],
    }
    (d,) = collusion.decisions_of("t", ["a", "b", "c", None], [entry])
    assert d.maker == "b" and d.others == ("a", "c", None)  # by seat
    assert d.partners == (False, True, False) and d.side_sizes == (2, 2, 2)
    assert d.positions == (3, 1, 2)
    (plain,) = collusion.decisions_of(
        "t",
        ["a", "b", "c"],
        [
            {
                **entry,
                "sides": None,
                "to": [0.2, -0.5, 0.3],
                "tilt": [0.5, 0.0, -0.5],
                "expect": [1, 0, -1],
            }
        ],
    )
    assert plain.partners == () and plain.side_sizes == ()


def test_decisions_that_favour_nobody_lean_nowhere_whatever_the_place():
    """Where everyone's decisions tilt toward the next seat, a player whose decisions favoured
    nobody (every candidate alike for the others) is not leaning away from it, nor toward."""
    rng = random.Random(9)
    found = [
        seated(
            deal,
            *rng.sample(["p", "q", "r", "s", "t", "u"], 3),
            1.0 if rng.random() < 0.8 else -1.0,
        )
        for deal in range(300)
    ]
    idle = [seated(1000 + d, "f", "g", "h", 0.0) for d in range(40)]
    leans = collusion.leans(found + idle, collusion.baseline(found + idle))
    assert leans["f", "g"].leaning == 0 and leans["f", "g"].score == 0.0
    assert leans["f", "g"].cost == 0.0 and not leans["f", "g"].examples
    assert collusion.suspects(found + idle) == []
