"""Variant flags: a small typed schema per game, so forms and the API can be generated from it.

Validation is strict on JSON types (``true``, not ``1``) because records.md requires it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.core.errors import VariantError


@dataclass(frozen=True)
class Flag:
    """One variant flag: ``kind`` is ``choice``, ``bool`` or ``int``.

    ``label`` is what a person reads for the flag (the lobby's and the event's form, the rules
    page, a table's or an event's rules) and ``labels`` what they read for each choice, keyed by
    ``str(choice)``; both English marked with ``gettext_noop`` (``hints.py``) and translated
    where they are shown (``gameplay.api.describe_variant``), as ``help`` is (the forms' help
    text). Without them the flag's name and the choice itself are shown. ``name`` and the
    choices stay the keys of records and the API.
    """

    name: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    min: int | None = None
    max: int | None = None
    help: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    label: str = ""

    def check(self, value: Any) -> None:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise VariantError(f"variant flag '{self.name}' must be true or false")
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise VariantError(f"variant flag '{self.name}' must be an integer")
            if not (self.min <= value <= self.max):
                raise VariantError(
                    f"variant flag '{self.name}' must be from {self.min} to {self.max}, not {value}"
                )
        elif self.kind == "choice":
            ok = any(type(value) is type(c) and value == c for c in self.choices)
            if not ok:
                options = ", ".join(repr(c) for c in self.choices)
                raise VariantError(
                    f"variant flag '{self.name}' must be one of {options}, not {value!r}"
                )
        else:  # pragma: no cover - a schema bug
            raise AssertionError(self.kind)

    def schema(self) -> dict[str, Any]:
        """JSON description for forms and the API: ``label`` always, and for a choice its
        ``choice_labels`` beside ``choices`` (same order; English, translated where shown)."""
        out: dict[str, Any] = {
            "name": self.name,
            "label": self.label or self.name.replace("_", " ").capitalize(),
            "type": self.kind,
            "default": self.default,
        }
        if self.kind == "choice":
            out["choices"] = list(self.choices)
            out["choice_labels"] = [self.labels.get(str(c), str(c)) for c in self.choices]
        if self.kind == "int":
            out["min"] = self.min
            out["max"] = self.max
        if self.help:
            out["help"] = self.help
        return out


def resolve_variant(flags: tuple[Flag, ...], given: Any) -> dict[str, Any]:
    """Check ``given`` against the schema and fill in defaults; raises ``VariantError``."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise VariantError("variant must be an object")
    by_name = {f.name: f for f in flags}
    for name in given:
        if name not in by_name:
            raise VariantError(f"unknown variant flag '{name}'")
    out = {}
    for f in flags:
        if f.name in given:
            f.check(given[f.name])
            out[f.name] = given[f.name]
        else:
            out[f.name] = f.default
    return out
