"""The games' registry: game name → engine, with what forms and the API need to know about it.

Each game's package registers its engine here when it is imported (`register_game`); which
games there are is said in one place, `games/registry.py`, one line a game. The rest of
`games.core` looks games up here by name and never imports a game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from games.core.base import Match
from games.core.errors import EngineFault
from games.core.named import Registry
from games.core.variants import Flag


@dataclass(frozen=True)
class GameSpec:
    """What the rest of Mediana knows about a game without touching its rules."""

    name: str
    display_name: str
    seats: int
    flags: tuple[Flag, ...]
    engine: type[Match]
    # The engine at a table of four, where the dealer sits out (``games.core.four``); None
    # for a game that is not played so (Mediatore has four players)
    four: type[Match] | None = None

    @property
    def table_sizes(self) -> tuple[int, ...]:
        """The numbers of seats a table of this game may have."""
        return (self.seats,) if self.four is None else (self.seats, self.four.SEATS)

    def engine_for(self, seats: int | None = None) -> type[Match]:
        """The engine of a table of ``seats`` (None: the game's own number); ``KeyError`` for
        a size the game is not played at."""
        if seats is None or seats == self.seats:
            return self.engine
        if self.four is not None and seats == self.four.SEATS:
            return self.four
        raise KeyError(f"{self.name} is not played at a table of {seats}")

    def name_in(self, language: str | None) -> str:
        """The game's name as `language` writes it (the engine's ``NAMES``; "ja-jp" finds
        "ja"), else ``display_name``."""
        names = self.engine.NAMES
        if not language:
            return self.display_name
        return names.get(language) or names.get(language.split("-")[0]) or self.display_name

    @property
    def goal(self) -> str:
        """The game's aim in one line (the engine's ``GOAL``)."""
        return self.engine.GOAL

    @property
    def hints(self) -> dict[str, str]:
        """Display hints: key → a short explanation the table shows on hover and tap (the
        engine's ``HINTS``, English; ``games/core/hints.py``)."""
        return dict(self.engine.HINTS)

    def variant_schema(self) -> list[dict[str, Any]]:
        """JSON schema of the variant flags (type, choices or range, default)."""
        return [f.schema() for f in self.flags]

    def validate_variant(self, variant: Any) -> dict[str, Any]:
        """The full variant (defaults filled in); raises ``VariantError``."""
        return self.engine.resolve_variant(variant)

    def defaults(self) -> dict[str, Any]:
        return {f.name: f.default for f in self.flags}

    @property
    def package(self) -> str:
        """The game's package (``games.saichugen``): everything of the game lives in it."""
        return self.engine.__module__.rpartition(".")[0]

    @property
    def site_dir(self) -> Path:
        """The folder of the game's pages and browser code (``games/<game>/site/``): its rules
        page ``rules.html`` and its table client ``table.js``, served as the template
        ``games/<game>/rules.html`` and the static file ``games/<game>/table.js``."""
        return Path(import_module(self.package).__file__).parent / "site"  # type: ignore[arg-type]

    def provides(self, part: str) -> bool:
        """Whether the game's package has the module `part` ("determiniser"), found without
        importing it: what a bot level may need of a game (``games.core.bots.registry.Level``)."""
        return bool(self.package) and find_spec(f"{self.package}.{part}") is not None

    @property
    def traveller(self) -> Callable[[dict[str, Any], Callable[[str], str]], str]:
        """The game's line for one finished deal on a duplicate traveller
        (``games/<game>/traveller.py``, its ``outcome(summary, gettext)``; ``games/core/
        traveller.py``). ``KeyError`` for a game without one: a loud error, never a guess."""
        try:
            module = import_module(f"{self.package}.traveller")
        except ModuleNotFoundError as missing:
            raise KeyError(f"{self.name} has no traveller outcome") from missing
        return module.outcome

    @property
    def determiniser(self) -> Any:
        """The game's determiniser (``games/<game>/determiniser.py``, its ``DETERMINISER``):
        worlds consistent with one seat's view, for search bots (docs/bots.md,
        "Determinisers"). Imported on first use: the table server never needs it;
        ``KeyError`` for a game without one."""
        try:
            module = import_module(f"{self.package}.determiniser")
        except ModuleNotFoundError as missing:
            raise KeyError(self.name) from missing
        return module.DETERMINISER

    @property
    def solver(self) -> Any:
        """The game's perfect-information solver knowledge (``games/<game>/solver.py``, its
        ``SOLVER``, a ``games.core.solver.GameSolver``): for the clairvoyant solver and its
        evaluation level. Imported on first use; ``KeyError`` for a game without one."""
        try:
            module = import_module(f"{self.package}.solver")
        except ModuleNotFoundError as missing:
            raise KeyError(self.name) from missing
        return module.SOLVER


GAMES: Registry[str, GameSpec] = Registry("game")


def register_game(engine: type[Match], four: type[Match] | None = None) -> type[Match]:
    """Register a game's engine (its package does, when imported), and its engine at a table
    of four where it has one; the order of registration is the order of ``games()``.
    Registering the same engine again changes nothing."""
    spec = GameSpec(engine.GAME, engine.DISPLAY, engine.SEATS, engine.FLAGS, engine, four)
    GAMES.register(engine.GAME, spec)
    return engine


def unregister_game(name: str) -> None:
    """Take a game out of the registry (a test's toy game, when the test is over)."""
    GAMES.unregister(name)


def games() -> list[GameSpec]:
    """All registered games, in registration order."""
    return GAMES.values()


def game_names() -> list[str]:
    return GAMES.names()


def get_game(name: str) -> GameSpec:
    """The spec of a game; ``KeyError`` for an unknown name."""
    return GAMES.get(name)


def start_match(
    game: str,
    *,
    dealer: int = 0,
    variant: dict[str, Any] | None = None,
    n_deals: int = 1,
    seed: int | str | None = None,
    deals: list[dict[str, Any]] | None = None,
    players: list[str] | None = None,
    seats: int | None = None,
) -> Match:
    """Start a match of ``game`` at a table of ``seats`` (None: the game's own number): the
    first deal is dealt, the first seats may act."""
    return get_game(game).engine_for(seats)(
        dealer=dealer, variant=variant, n_deals=n_deals, seed=seed, deals=deals, players=players
    )


def load_match(data: dict[str, Any]) -> Match:
    """Restore a match from ``Match.dump()``."""
    spec = GAMES.find(data.get("game"))  # type: ignore[arg-type]
    if spec is None:
        raise EngineFault(f"no engine for {data.get('game')!r}")
    return spec.engine_for(data.get("seats")).load(data)
