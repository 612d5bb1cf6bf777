"""The toy game passes the suites every registered game must pass.

Those suites are parametrized over `game_names()` when they are collected, before any test
registers the toy; so each of their `game`-parametrized tests is run here once more, for the
toy, with the toy registered (their other parameters as they give them)."""

from __future__ import annotations

import itertools

import pytest

from tests.bots import test_registry, test_strong
from tests.determinisers import test_determinisers
from tests.engines import test_commitment, test_deal_summary, test_properties, test_why_not
from tests.replay import test_steps
from tests.summary import test_client_modules

SUITES = (
    test_properties,
    test_commitment,
    test_deal_summary,
    test_why_not,
    test_determinisers,
    test_registry,
    test_strong,
    test_steps,
    test_client_modules,
)


def _runs() -> list:
    """One pytest param per run of a game-parametrized test: (function, its other arguments)."""
    runs = []
    for module in SUITES:
        for name, test in sorted(vars(module).items()):
            marks = [m for m in getattr(test, "pytestmark", []) if m.name == "parametrize"]
            if not name.startswith("test_") or not any(m.args[0] == "game" for m in marks):
                continue
            others = [m for m in marks if m.args[0] != "game"]
            for combo in itertools.product(*(m.args[1] for m in others)):
                kwargs, extra = {}, []
                for mark, value in zip(others, combo, strict=True):
                    if isinstance(value, type(pytest.param(0))):
                        extra += value.marks
                        value = value.values[0]
                    kwargs[mark.args[0]] = value
                label = "-".join([module.__name__.rpartition(".")[2], name, *map(str, combo)])
                runs.append(pytest.param(test, kwargs, id=label, marks=extra))
    return runs


@pytest.mark.parametrize(("test", "kwargs"), _runs())
def test_the_toy_passes(toy_game, test, kwargs):
    test(game=toy_game, **kwargs)
