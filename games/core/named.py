"""One registry idiom for every concept that grows: games, bot levels, formats, tie-breaks.

Each is a `Registry`: things by name, in registration order; `register` adds one (a second,
different thing under a taken name is a mistake and raises), `unregister` takes one back (a
test's own), `get` finds one or raises the registry's own error, which names what there is.
Adding a game, a level, a format or a tie-break is then a module and one `register` line
(docs/architecture.md, "To add").
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


def _unknown(kind: str) -> Callable[[object, tuple], Exception]:
    return lambda name, known: KeyError(f"no {kind} {name!r}; known: {', '.join(map(str, known))}")


class Registry(Generic[K, T]):
    """Things of one kind by name; the order of registration is the order they are offered."""

    def __init__(self, kind: str, unknown: Callable[[K, tuple[K, ...]], Exception] | None = None):
        self.kind = kind
        self._unknown = unknown or _unknown(kind)
        self._items: dict[K, T] = {}

    def register(self, name: K, item: T) -> T:
        """Add `item` under `name`; the same item again changes nothing, another one raises."""
        if name in self._items and self._items[name] != item:
            raise ValueError(f"two {self.kind}s are registered as {name!r}")
        self._items[name] = item
        return item

    def unregister(self, name: K) -> None:
        """Take one back (a test's own, when the test is over); an unknown name is no error."""
        self._items.pop(name, None)

    def get(self, name: K) -> T:
        """The thing called `name`, or the registry's error naming the known ones."""
        try:
            return self._items[name]
        except (KeyError, TypeError):
            raise self._unknown(name, tuple(self._items)) from None

    def find(self, name: K) -> T | None:
        """The thing called `name`, or None."""
        try:
            return self._items.get(name)
        except TypeError:  # unhashable: no name of ours
            return None

    def names(self) -> list[K]:
        return list(self._items)

    def values(self) -> list[T]:
        return list(self._items.values())

    def items(self) -> list[tuple[K, T]]:
        return list(self._items.items())

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)
