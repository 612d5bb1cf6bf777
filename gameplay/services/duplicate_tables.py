"""Duplicate tables (issue #21, ../shared/spec/duplicate.md): the tables of a section play the
same deals, and nothing of them is shown until the section is complete.

A section's deals come from one secret seed (every table dealt from it deals deal k alike, and
commits to it with the same salt: `engines/commitment.py`) or from an uploaded deal set with a
secret salt per deal. `deal_set` says what those deals are without a table; `normalised_deals`
checks a set; `release_tables` lifts the embargo of a section's tables; `deal_outcomes` words
each deal of a record in one line, for the travellers. The embargo itself is checked where a
table's record or result is served (docs/tables.md, "Embargoed tables").
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from gameplay.models import Table
from games import Match, VariantError, registry
from games.core import commitment as commit
from games.core.errors import EngineError, EngineFault, RecordError
from games.core.traveller import dashes

# What a person reads where an embargoed table's record, replay or result would be.
WITHHELD = gettext_lazy(
    "Withheld until the section is complete: other tables are still playing these cards."
)


def _engine(game_name: str) -> type[Match]:
    try:
        return registry.get_game(game_name).engine
    except KeyError:
        raise VariantError(gettext("Unknown game “%(game)s”.") % {"game": game_name}) from None


def duplicate_problem(game_name: str, variant: Any) -> str | None:
    """Why `variant` of this game cannot be played in duplicate (translated), or None.
    `VariantError` for an unknown game or a bad variant."""
    engine = _engine(game_name)
    problem = engine.duplicate_problem(engine.resolve_variant(variant))
    return None if problem is None else gettext(problem)


def _positive(n_deals: Any) -> int:
    if isinstance(n_deals, bool) or not isinstance(n_deals, int) or n_deals < 1:
        raise VariantError(gettext("The number of deals must be a positive whole number."))
    return n_deals


def normalised_deals(
    game_name: str,
    variant: Any,
    deals: Any,
    n_deals: int,
    *,
    exact: bool = True,
    keep_salts: bool = False,
) -> list[dict[str, Any]]:
    """`deals` checked against the game's deck under `variant` and made plain: a list of
    `{"hands": [[codes]...], "stock": [codes]}` (and each deal's `salt` with `keep_salts`; a
    salt must then be 32 lower-case hex characters). `exact`: exactly `n_deals` deals, else 1
    to `n_deals` (the rest come from the seed). Other fields of a deal (`actions`,
    `commitment`) are dropped. `VariantError` with a message that names the deal (from 1)."""
    engine = _engine(game_name)
    resolved = engine.resolve_variant(variant)
    n_deals = _positive(n_deals)
    if not isinstance(deals, list):
        raise VariantError(gettext("A deal set must be a JSON list of deals."))
    if exact and len(deals) != n_deals:
        raise VariantError(
            gettext("The deal set has %(given)s deals; this match is %(n)s deals.")
            % {"given": len(deals), "n": n_deals}
        )
    if not 1 <= len(deals) <= n_deals:
        raise VariantError(
            gettext("Give from 1 to %(n)s deals (the match is %(n)s deals), not %(given)s.")
            % {"given": len(deals), "n": n_deals}
        )
    out = []
    for k, deal in enumerate(deals):
        if not isinstance(deal, dict):
            raise VariantError(
                gettext('Deal %(number)s must be an object with "hands" and "stock".')
                % {"number": k + 1}
            )
        problem = engine.deck_problem(resolved, deal.get("hands"), deal.get("stock"))
        if problem:
            raise VariantError(
                gettext("Deal %(number)s is not a right deck: %(problem)s.")
                % {"number": k + 1, "problem": problem}
            )
        entry: dict[str, Any] = {
            "hands": [list(h) for h in deal["hands"]],
            "stock": list(deal["stock"]),
        }
        if keep_salts and deal.get("salt") is not None:
            if not commit.is_salt(deal["salt"]):
                raise VariantError(
                    gettext("The salt of deal %(number)s must be 32 lower-case hex characters.")
                    % {"number": k + 1}
                )
            entry["salt"] = deal["salt"]
        out.append(entry)
    return out


def check_deal_set(game_name: str, variant: Any, deals: Any, n_deals: int) -> list[dict[str, Any]]:
    """An uploaded deal set (exactly `n_deals` deals in records' `hands`/`stock` shape, or a
    whole record holding them), checked and normalised; its salts and actions are dropped (the
    section draws its own secret salts). `VariantError` with a clear message."""
    if isinstance(deals, dict) and isinstance(deals.get("deals"), list):
        deals = deals["deals"]  # a record, or {"deals": [...]}: its deals
    return normalised_deals(game_name, variant, deals, n_deals, exact=True)


def deal_set(
    game_name: str,
    variant: Any,
    n_deals: int,
    *,
    seed: int | str | None = None,
    deals: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """The deals every table started with this `seed` (and these explicit `deals`) is dealt,
    one per deal of the match: `{"hands", "stock", "commitment"}`, exactly as the tables'
    records will have them. Explicit deals come first (each with its `salt`, or no commitment);
    the seed deals the rest, so without a seed the deals must cover the whole match."""
    engine = _engine(game_name)
    n_deals = _positive(n_deals)
    explicit = None
    if deals is not None:
        explicit = normalised_deals(
            game_name, variant, deals, n_deals, exact=False, keep_salts=True
        )
    if seed is None and (explicit is None or len(explicit) < n_deals):
        raise VariantError(gettext("A deal set needs a seed or every deal of the match."))
    match = engine(
        variant=variant,
        n_deals=n_deals,
        # Tables keep their seed as text (`Table.seed`); the deals are the same either way.
        seed=None if seed is None else str(seed),
        deals=explicit,
    )
    return [match.deal_of(k) for k in range(n_deals)]


def release_tables(table_refs: Any) -> int:
    """Lift the embargo of these tables (a complete section): their records, replays, salts
    and results are shown from now on as any table's are. Returns how many were embargoed;
    unknown ids and tables already released are left alone."""
    if isinstance(table_refs, str) or not all(isinstance(t, str) for t in table_refs):
        raise TypeError("table_refs must be a list of table ids")
    refs = list(table_refs)
    if not refs:
        return 0
    return Table.objects.filter(pk__in=refs, embargoed=True).update(embargoed=False)


# --- one line per deal: "the contract or outcome", for the travellers -------------------------


def outcome_line(game_name: str, summary: dict[str, Any] | None) -> str:
    """One deal's summary (`Match.deal_summary`) as a short translated line, worded by the
    game's package (`GameSpec.traveller`); a summary that is not of the expected shape still
    gives a line (the scores). `KeyError` for an unknown game or one without its line."""
    outcome = registry.get_game(game_name).traveller
    if summary is None:
        return gettext("Not finished")
    if summary.get("kind") == "thrown_in":
        return gettext("Thrown in: everybody passed")
    try:
        return outcome(summary, gettext)
    except (KeyError, TypeError, IndexError):
        return gettext("Scores %(scores)s") % {"scores": dashes(summary.get("scores", []))}


def deal_outcomes(record: Any) -> list[str]:
    """One short translated line per deal of a `mediana.record/1` record: the contract or the
    outcome (the engines' deal summaries), "Not finished" for a deal that stopped early.
    `RecordError` for a record that does not replay."""
    from games.core.records import replay_record

    replay_record(record)  # checks the whole record first (RecordError)
    spec = registry.get_game(record["game"])
    deals = record["deals"]
    match = spec.engine(
        dealer=record["dealer"],
        variant=record.get("variant"),
        n_deals=len(deals),
        deals=[{"hands": d["hands"], "stock": d["stock"]} for d in deals],
    )
    lines = []
    for k, deal in enumerate(deals):
        for action in deal.get("actions", []):
            match.apply(action["seat"], action)
        summary = None
        if len(match.results) > k:
            # The summary made at the deal's end, on the validated path: no replay.
            try:
                summary = match.deal_summary(k)
            except (EngineError, EngineFault, RecordError):
                summary = {"scores": match.results[k]["scores"]}
        lines.append(outcome_line(spec.name, summary))
    return lines
