"""The import graph: no cycles anywhere, and the layering contracts of pyproject.toml hold.

grimp (under import-linter) reads every import statement, function-local ones included, so an
import moved into a function to dodge a cycle is still seen as the cycle it is. `make lint`
runs the same contracts through `lint-imports`; these tests also prove each contract is not
vacuous, by adding one forbidden import to a copy of the graph and watching it break.
"""

from __future__ import annotations

import copy
import itertools
from collections import deque
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import grimp
import pytest
from importlinter import api  # importing it configures import-linter (its timer, its cache)
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract
from importlinter.contracts.protected import ProtectedContract
from importlinter.domain.contract import Contract, ContractCheck

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "gameplay", "league", "accounts", "config")


def _shielded(cls: type[Contract]) -> type[Contract]:
    """The contract class, safe from the `__provides__` descriptor that zope.interface (loaded
    here by Twisted, under Daphne) leaves on abc.ABC: it raises on subclasses, and the contract's
    option check getattr()s every name of dir(cls). `lint-imports` itself never meets it."""
    return type(cls.__name__, (cls,), {"__provides__": None})


CONTRACT_TYPES: dict[str, type[Contract]] = {
    "forbidden": _shielded(ForbiddenContract),
    "layers": _shielded(LayersContract),
    "independence": _shielded(IndependenceContract),
    "protected": _shielded(ProtectedContract),
    "acyclic_siblings": _shielded(AcyclicSiblingsContract),
}


@cache
def project_graph(*, external: bool) -> grimp.ImportGraph:
    """The graph of Mediana's own packages (and, with `external`, what they import outside)."""
    return grimp.build_graph(*PACKAGES, include_external_packages=external, cache_dir=None)


def fresh_graph(*, external: bool = True) -> grimp.ImportGraph:
    return copy.deepcopy(project_graph(external=external))


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every group of modules that import each other in a ring (strongly connected components
    of more than one module, or a module importing itself), each sorted, sorted by first name."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        # Tarjan's algorithm without recursion: (module, its imports still to visit).
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, imports = work[-1]
            for imported in imports:
                if imported not in index:
                    index[imported] = low[imported] = len(index)
                    stack.append(imported)
                    on_stack.add(imported)
                    work.append(
                        (imported, iter(sorted(graph.find_modules_directly_imported_by(imported))))
                    )
                    break
                if imported in on_stack:
                    low[module] = min(low[module], index[imported])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1 or module in graph.find_modules_directly_imported_by(module):
                        groups.append(sorted(group))
    return sorted(groups)


def describe_cycle(graph: grimp.ImportGraph, group: Iterable[str]) -> str:
    """One ring through the group's first module, with the line of each import:
    "a (line 3) -> b (line 12) -> a"."""
    members = set(group)
    first = min(members)
    came_from: dict[str, str] = {}
    queue = deque([first])
    while queue:  # breadth first: the shortest way from `first` back to itself
        module = queue.popleft()
        nexts = sorted(graph.find_modules_directly_imported_by(module) & members)
        if first in nexts:
            came_from[first] = module
            break
        for imported in nexts:
            if imported not in came_from:
                came_from[imported] = module
                queue.append(imported)
    ring = [first]
    while True:
        ring.append(came_from[ring[-1]])
        if ring[-1] == first:
            break
    ring.reverse()
    steps = []
    for importer, imported in itertools.pairwise(ring):
        lines = sorted(
            d["line_number"] for d in graph.get_import_details(importer=importer, imported=imported)
        )
        steps.append(f"{importer} (line {', '.join(map(str, lines)) or '?'})")
    return " -> ".join([*steps, first])


def cycles_touching(graph: grimp.ImportGraph, package: str) -> list[str]:
    """A ring for each cycle that has a module of `package`, and every module caught in it."""
    return [
        describe_cycle(graph, group) + (f"  [all of {', '.join(group)}]" if len(group) > 2 else "")
        for group in import_cycles(graph)
        if any(m == package or m.startswith(f"{package}.") for m in group)
    ]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_takes_part_in_an_import_cycle(package):
    # Function-local imports count: they hide a cycle from Python, not from the design.
    cycles = cycles_touching(project_graph(external=False), package)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_the_cycle_finder_names_the_ring_it_finds():
    graph = fresh_graph(external=False)
    graph.add_import(
        importer="league.standings.records",
        imported="league.standings.table",
        line_number=99,
        line_contents="from .table import compute_standings",
    )
    (cycle,) = [c for c in cycles_touching(graph, "league") if "standings.records" in c]
    ring = cycle.split("  [")[0]
    assert "league.standings.records (line 99) -> league.standings.table" in ring
    first = ring.split(" (line")[0]
    assert ring.endswith(f"-> {first}")  # back where it began


# --- the contracts of pyproject.toml ------------------------------------------------------------


@cache
def configuration() -> dict:
    return api.read_configuration(str(ROOT / "pyproject.toml"))


def contract_options() -> dict[str, dict]:
    return {options["id"]: options for options in configuration()["contracts_options"]}


def check(contract_id: str, graph: grimp.ImportGraph) -> ContractCheck:
    """Check one contract of pyproject.toml against `graph`, as `lint-imports` would."""
    options = contract_options()[contract_id]
    contract = CONTRACT_TYPES[options["type"]](
        name=options["name"],
        session_options=configuration()["session_options"],
        contract_options=options,
    )
    return contract.check(graph, verbose=False)


def test_the_contracts_cover_what_the_developers_guide_promises():
    assert set(contract_options()) == {
        "pure-games",
        "games-layers",
        "gameplay-not-league",
        "gameplay-runtime",
        "runtime-boundary",
        "league-through-api",
        "pure-league-algorithms",
        "league-layers",
        "league-pages-layers",
        "no-cycles",
    }


@pytest.mark.parametrize("contract_id", sorted(contract_options()))
def test_the_contract_is_kept(contract_id):
    result = check(contract_id, fresh_graph())
    assert result.kept, f"{contract_id} is broken: run `make lint` (lint-imports) to see where"


# (contract, importer, imported): one import that must break the contract.
BREACHES = [
    ("pure-games", "games", "django"),
    ("pure-games", "games.core.base", "gameplay.models"),
    ("pure-games", "games", "league"),
    ("pure-games", "games", "config"),
    ("games-layers", "games.core.base", "games.saichugen.engine"),
    ("games-layers", "games.saichugen.engine", "games.mediatore.engine"),
    ("games-layers", "games.mediatore.bots", "games.bots"),
    ("gameplay-not-league", "gameplay.models", "league.models"),
    ("gameplay-runtime", "gameplay.runtime.cache", "gameplay.services.play"),
    ("gameplay-runtime", "gameplay.runtime.dispatch", "gameplay.consumers.table"),
    ("runtime-boundary", "gameplay.views", "gameplay.runtime.cache"),
    ("runtime-boundary", "league.services", "gameplay.runtime.notify"),
    ("league-through-api", "league.services", "gameplay.models"),
    ("league-through-api", "league.pages.events", "gameplay.services.play"),
    ("pure-league-algorithms", "league.scheduling", "django"),
    ("pure-league-algorithms", "league.standings", "league.models"),
    ("league-layers", "league.models", "league.services"),
    ("league-layers", "league.services", "league.ratings"),
    ("league-layers", "league.services", "league.tasks"),
    ("league-layers", "league.standings", "league.queue"),
    ("league-layers", "league.forms.events", "league.pages.organizer"),
    ("league-layers", "league.pages.events", "league.api.views"),
    ("league-pages-layers", "league.pages.events", "league.pages.organizer"),
    ("league-pages-layers", "league.pages.organizer", "league.pages.people"),
]


@pytest.mark.parametrize(("contract_id", "importer", "imported"), BREACHES)
def test_the_contract_fails_on_a_breach(contract_id, importer, imported):
    graph = fresh_graph()
    graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="import")
    assert not check(contract_id, graph).kept


def test_the_layers_contract_fails_on_a_league_module_it_does_not_place():
    graph = fresh_graph()
    graph.add_module("league.unplaced")
    assert not check("league-layers", graph).kept


def test_the_pages_contract_fails_on_a_page_module_it_does_not_place():
    graph = fresh_graph()
    graph.add_module("league.pages.unplaced")
    assert not check("league-pages-layers", graph).kept


@pytest.mark.parametrize(
    ("importer", "imported", "package"),
    [
        ("league.standings.records", "league.standings.tiebreaks", "league.standings"),
        ("league.models", "league.services.events", "league"),  # packages, not just modules
        ("games.core.records", "games.saichugen.engine", "games"),  # core never names a game
    ],
)
def test_the_cycle_contract_fails_on_a_cycle(importer, imported, package):
    graph = fresh_graph()
    graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="import")
    result = check("no-cycles", graph)
    # Read which package it names, so a cycle elsewhere (another package) cannot pass for this.
    assert package in result.metadata["cycle_breakers_by_package"]
