"""CSV writers that cannot carry a spreadsheet formula (CSV injection, OWASP).

A cell such as `=HYPERLINK(...)` or `+1+cmd|...` in a downloaded CSV is run by the spreadsheet
that opens it. Every CSV we serve goes through `writer`: defusedcsv prefixes text cells that start
with `=`, `+`, `-`, `@`, `|` or `%` with `'` (and escapes their `|`), and we add OWASP's tab and
carriage return, which defusedcsv 3.0 lets through. Numbers (`int`, `float`, `Decimal`) are left
alone, as is text that is only a number (`-3`, `-1.50`), so payouts stay numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from defusedcsv import csv as defused

# defusedcsv already handles the others; these two it passes through unchanged.
_ALSO_DANGEROUS = ("\t", "\r")


class _Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def _neutralise(cell: Any) -> Any:
    if isinstance(cell, str) and cell.startswith(_ALSO_DANGEROUS):
        return "'" + cell
    return cell


class SafeWriter:
    """`csv.writer` with every cell neutralised before it is written."""

    def __init__(self, out: _Writable, **fmtparams: Any) -> None:
        self._writer = defused.writer(out, **fmtparams)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([_neutralise(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(out: _Writable, **fmtparams: Any) -> SafeWriter:
    """A CSV writer for anything a visitor downloads (player names are anyone's text)."""
    return SafeWriter(out, **fmtparams)
