"""Replays of a finished match: a `mediana.record/1` record turned into steps someone can watch.

Pure, like the rest of the engines: the table server's replay page (`gameplay/services/replay.py`)
serves what these functions compute, and the browser only draws it (it holds no rules).

* `replay_summary(record)`: the match at a glance (its deals, who dealt, how many actions, the
  `score_record` result) and, on request, one deal's steps;
* `deal_steps(record, k)` / `replay_steps(record)`: one deal's (every deal's) steps. A deal has a
  `start` (the cards as dealt) and one step per action of the record: the action, a label
  template, the view after it and the match score so far.

The view of a step is *full*: what an onlooker who sees every card would know. It is built from
the engine's own views alone — the spectator's, filled in from each seat's (`full_view`) — so
nothing here knows any game's rules, and a fifth game replays without a line added here.

Labels are plain English marked with `gettext_noop` (a no-op of the name `makemessages` looks
for) and translated where they are shown; `label_parts` splits a translated label into text,
seats, cards and suits for the page to draw.
"""

from __future__ import annotations

import re
from typing import Any

from games.core.base import Match
from games.core.errors import EngineFault, IllegalAction, RecordError
from games.core.records import engine_of, replay_record

# Keys of a view a replay step leaves out: the previous deal in full (the replay has the
# record) and the finished deals' results (given once per deal, not once per step).
_DROPPED = ("last_deal", "results")
# Keys of a seat's view that are about who looks, not about the table.
_VIEWER = ("seat",)
# Keys of the common view that show every seat the same (`Match._common_view`): not merged.
_PUBLIC = ("game", "variant", "deal", "n_deals", "to_act", "results", "totals", "last_deal")


def gettext_noop(message: str) -> str:
    """Mark `message` for translation; it is translated where a person reads it."""
    return message


# What a step says about its action, by the record's `act` (records.md, "Actions"). Placeholders:
# who / to (a seat), card / cards (cards), suit, contract, tricks, signal, act (plain text).
LABELS: dict[str, str] = {
    "play": gettext_noop("%(who)s plays %(card)s"),
    "play+signal": gettext_noop("%(who)s leads %(card)s, signalling %(signal)s"),
    "commit": gettext_noop("%(who)s commits %(card)s face down"),
    "pass": gettext_noop("%(who)s passes"),
    "bid+contract": gettext_noop("%(who)s bids %(contract)s"),
    "bid+tricks": gettext_noop("%(who)s bids %(tricks)s tricks"),
    "bid": gettext_noop("%(who)s bids"),
    "call": gettext_noop("%(who)s calls %(card)s"),
    "discard": gettext_noop("%(who)s discards %(cards)s"),
    "exchange": gettext_noop("%(who)s discards %(cards)s"),
    "exchange+give": gettext_noop("%(who)s discards %(cards)s and gives %(card)s back"),
    "give": gettext_noop("%(who)s gives %(cards)s to %(to)s"),
    "trump": gettext_noop("%(who)s names %(suit)s trump"),
    "grand_hand": gettext_noop("%(who)s announces a Grand Hand"),
    "pickup": gettext_noop("%(who)s picks up the skat"),
    "push": gettext_noop("%(who)s pushes the skat on"),
    "kontra": gettext_noop("%(who)s says kontra"),
    "re": gettext_noop("%(who)s says re"),
    "": gettext_noop("%(who)s: %(act)s"),  # an act this table does not know (yet)
}
# The same actions as a proposal (the game analysis's better decision, docs/bots.md "Game
# analysis"): what the seat could do instead, never what happened, in every language.
PROPOSALS: dict[str, str] = {
    "play": gettext_noop("play %(card)s"),
    "play+signal": gettext_noop("lead %(card)s, signalling %(signal)s"),
    "commit": gettext_noop("commit %(card)s face down"),
    "pass": gettext_noop("pass"),
    "bid+contract": gettext_noop("bid %(contract)s"),
    "bid+tricks": gettext_noop("bid %(tricks)s tricks"),
    "bid": gettext_noop("bid"),
    "call": gettext_noop("call %(card)s"),
    "discard": gettext_noop("discard %(cards)s"),
    "exchange": gettext_noop("discard %(cards)s"),
    "exchange+give": gettext_noop("discard %(cards)s and give %(card)s back"),
    "give": gettext_noop("give %(cards)s to %(to)s"),
    "trump": gettext_noop("name %(suit)s trump"),
    "grand_hand": gettext_noop("announce a Grand Hand"),
    "pickup": gettext_noop("pick up the skat"),
    "push": gettext_noop("push the skat on"),
    "kontra": gettext_noop("say kontra"),
    "re": gettext_noop("say re"),
    "": gettext_noop("%(act)s"),
}
# Said of a deal's start, before its first action.
DEALT = gettext_noop("%(who)s deals")


def action_label(action: dict[str, Any]) -> tuple[str, dict[str, dict[str, Any]]]:
    """The label template of a record action and its placeholders as parts (`label_parts`)."""
    act = action.get("act")
    params: dict[str, dict[str, Any]] = {"who": {"seat": action.get("seat")}}
    key = act if isinstance(act, str) and act in LABELS else ""
    if act in ("play", "commit", "call"):
        params["card"] = {"cards": [action.get("card")]}
        if act == "play" and action.get("signal"):
            key = "play+signal"
            params["signal"] = {"text": str(action["signal"]).replace("+", " + ")}
    elif act == "bid":
        if action.get("contract"):
            key = "bid+contract"
            params["contract"] = {"text": str(action["contract"]).capitalize()}
        elif action.get("tricks") is not None:
            key = "bid+tricks"
            params["tricks"] = {"text": str(action["tricks"])}
    elif act in ("discard", "give"):
        params["cards"] = {"cards": list(action.get("cards") or [])}
        if act == "give":
            params["to"] = {"seat": action.get("to")}
    elif act == "exchange":
        params["cards"] = {"cards": list(action.get("discard") or [])}
        if action.get("give"):
            key = "exchange+give"
            params["card"] = {"cards": [action["give"]]}
    elif act == "trump":
        params["suit"] = {"suit": action.get("suit")}
    if key == "":
        params["act"] = {"text": str(act)}
    return LABELS[key], params


def proposal_label(action: dict[str, Any]) -> tuple[str, dict[str, dict[str, Any]]]:
    """`action_label` worded as a proposal (`PROPOSALS`): the analysis's better decision."""
    template, params = action_label(action)
    key = next(k for k, v in LABELS.items() if v == template)
    return PROPOSALS[key], params


_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def label_parts(text: str, params: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """A (translated) label as parts: `{"text"}`, `{"seat"}`, `{"cards"}` or `{"suit"}`, in order.
    A placeholder the parameters lack stays as it is written."""
    parts: list[dict[str, Any]] = []
    at = 0
    for m in _PLACEHOLDER.finditer(text):
        if m.start() > at:
            parts.append({"text": text[at : m.start()]})
        parts.append(dict(params.get(m.group(1), {"text": m.group(0)})))
        at = m.end()
    if at < len(text):
        parts.append({"text": text[at:]})
    return parts


# ---------------------------------------------------------------------- the full view
def full_view(match: Match) -> dict[str, Any]:
    """The table as an onlooker who sees every card would: the spectator's view, with `hands`
    (each seat's hand), every secret a seat's own view shows filled in where the spectator's
    has `None`, and `private`: per seat, what only its own view has besides the hand (a
    Saichugen commit, the Schieberamsch skat a seat picked up…)."""
    full = match.view(None)
    hands: list[list[str]] = []
    private: list[dict[str, Any]] = []
    for seat in range(match.SEATS):
        own = match.view(seat)
        for key in _PUBLIC:
            own.pop(key, None)
        hands.append(own.get("hand", []))
        private.append(
            {k: v for k, v in own.items() if k not in full and k != "hand" and k not in _VIEWER}
        )
        _fill(full, own)
    full["hands"] = hands
    full["private"] = private
    return full


def _fill(into: dict[str, Any], known: dict[str, Any]) -> None:
    """Fill `into`'s unknowns (`None`, at any depth) from `known`, a view that knows more."""
    for key, value in known.items():
        if key not in into or key in _VIEWER:
            continue
        into[key] = _merged(into[key], value)


def _merged(mine: Any, known: Any) -> Any:
    if mine is None:
        return known
    if mine == known:  # most of a view: compared in C, not walked
        return mine
    if isinstance(mine, dict) and isinstance(known, dict):
        _fill(mine, known)
    elif isinstance(mine, list) and isinstance(known, list) and len(mine) == len(known):
        mine[:] = [_merged(a, b) for a, b in zip(mine, known, strict=True)]
    return mine


def _step_view(match: Match) -> dict[str, Any]:
    view = full_view(match)
    for key in _DROPPED:
        view.pop(key, None)
    return view


def _score(match: Match) -> dict[str, list[int]]:
    """The match score so far, the unfinished deal counted as records.md says."""
    return match.result()["totals"]


# ---------------------------------------------------------------------- steps
def _results(match: Match) -> list[dict[str, Any]]:
    return [
        {"dealer": r["dealer"], "scores": list(r["scores"]), "payouts": list(r["payouts"])}
        for r in match.results
    ]


def _start(record: dict[str, Any], n_deals: int | None) -> Match:
    """The match of a (valid) record at the start of its first deal, every deal explicit."""
    deals = record["deals"]
    return engine_of(record)(
        dealer=record["dealer"],
        variant=record.get("variant"),
        n_deals=max(n_deals or 0, len(deals)),
        deals=[{"hands": d["hands"], "stock": d["stock"], "salt": d.get("salt")} for d in deals],
        players=record.get("players"),
    )


def deal_steps(record: Any, k: int, *, n_deals: int | None = None) -> dict[str, Any]:
    """Deal `k` of a record, step by step (raises `RecordError` for a bad record and
    `IndexError` for a deal it does not have). Only deals `0..k` are replayed.

    ``{"deal", "dealer", "hands", "stock", "results", "start": {"view", "score", "label"},
    "steps": [{"action", "label", "view", "score", "deal_over"}], "results_after"}``:
    `hands` and `stock` are the record's (as dealt); `results` the finished deals before this
    one and `results_after` those after its last step; `label` is `(template, params)`. The last
    step of a deal that ended shows the deal as it ended (its last trick, its score), before the
    next deal is dealt."""
    deals = record.get("deals") if isinstance(record, dict) else None
    if not isinstance(deals, list) or not deals:
        replay_record(record)  # says what is wrong with it
        raise RecordError("record: deals must be a non-empty list")  # pragma: no cover
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(deals):
        raise IndexError(f"the record has no deal {k!r}")
    deal = deals[k]
    if not isinstance(deal, dict):
        raise RecordError(f"deal {k}: a deal must be a JSON object")
    # The deals before k replayed and checked as records.md says, deal k dealt and untouched.
    prefix = dict(record, deals=[*deals[:k], {**deal, "actions": []}])
    match = replay_record(prefix, n_deals=max(n_deals or 0, len(deals)))
    return _walk(match, deal, k)


def replay_steps(record: Any, *, n_deals: int | None = None) -> list[dict[str, Any]]:
    """Every deal of a record, step by step (`deal_steps` of each, in one pass)."""
    replay_record(record, n_deals=n_deals)
    match = _start(record, n_deals)
    return [_walk(match, deal, k) for k, deal in enumerate(record["deals"])]


def _walk(match: Match, deal: dict[str, Any], k: int) -> dict[str, Any]:
    """Play `deal` (number `k`) on `match`, which stands at its start; the steps it took."""
    dealer = match.dealer
    out: dict[str, Any] = {
        "deal": k,
        "dealer": dealer,
        "hands": [list(h) for h in deal["hands"]],
        "stock": list(deal["stock"]),
        "results": _results(match),
        "start": {
            "view": _step_view(match),
            "score": _score(match),
            "label": (DEALT, {"who": {"seat": dealer}}),
        },
        "steps": [],
    }
    actions = deal.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"deal {k}: actions must be a list")
    for j, action in enumerate(actions):
        if not isinstance(action, dict):
            raise RecordError(f"deal {k}, action {j}: an action must be a JSON object")
        if match.finished or match.deal_no != k:
            raise RecordError(f"deal {k}, action {j}: the deal is over")
        probe = None
        if j == len(actions) - 1:
            # The deal ends with this action and the engine deals the next one at once: a copy
            # told that the match ends with this deal shows the deal as it ended.
            probe = match.clone()
            probe.n_deals = probe.deal_no + 1
        try:
            match.apply(action.get("seat"), action)
            if probe is not None:
                probe.apply(action.get("seat"), action)
        except IllegalAction as e:
            raise RecordError(f"deal {k}, action {j}: {e}") from None
        deal_over = match.finished or match.deal_no != k
        if deal_over and not match.finished and probe is not None:
            view = _step_view(probe)
            view.update(finished=False, winners=[], n_deals=match.n_deals)
        else:
            view = _step_view(match)
        step = {
            "action": dict(action),
            "label": action_label(action),
            "view": view,
            "score": _score(match),
            "deal_over": deal_over,
        }
        if deal_over:
            # The deal's summary (`Match.deal_summary`), as the table showed it when it ended:
            # made once, at the deal's end, by the apply above.
            try:
                step["summary"] = match.deal_summary(k)
            except EngineFault:
                step["summary"] = None
        out["steps"].append(step)
    out["results_after"] = _results(match)
    return out


def replay_summary(
    record: Any, *, n_deals: int | None = None, deal: int | None = None
) -> dict[str, Any]:
    """The match at a glance: ``{"game", "players", "n_deals", "deals": [{"deal", "dealer",
    "actions"}], "actions", "result"}`` (`result`: `score_record`'s output), and with `deal`
    given, that deal's steps under ``"steps"`` (`deal_steps`)."""
    match = replay_record(record, n_deals=n_deals)
    result = match.result()
    deals = record["deals"]
    summary: dict[str, Any] = {
        "game": match.GAME,
        "players": None if match.players is None else list(match.players),
        "n_deals": match.n_deals,
        "deals": [
            {"deal": k, "dealer": d["dealer"], "actions": len(deals[k].get("actions", []))}
            for k, d in enumerate(result["deals"])
        ],
        "actions": sum(len(d.get("actions", [])) for d in deals),
        "result": result,
    }
    if deal is not None:
        summary["steps"] = deal_steps(record, deal, n_deals=n_deals)
    return summary
