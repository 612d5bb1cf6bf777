"""Confusable skeletons (Unicode Technical Standard #39, section 4): strings that look alike have
the same skeleton — "ana" spelt with a Cyrillic a and "ana", "Strong bot" with a Greek omicron
and "Strong bot", a fullwidth m and "rn". Pure: no Django, no models
(tests/accounts/test_skeleton.py).

confusable-homoglyphs (3.3.1) ships Unicode's confusables.txt but no skeleton function: its
`confusables_data` keeps each line "source → prototype" in both directions (and wraps
right-to-left text in U+200E marks). The direction is read back here. A source is always one
character and never a prototype, so it is a node with exactly one neighbour; the other end is
its prototype. Only where two single characters name each other alone is the direction lost,
and for comparing either end serves: the one that appears inside a longer prototype is taken
(it is one already), else the one NFKC leaves alone, else the lower code point. Prototypes are
then closed (mapped again until nothing changes), so a skeleton is its own skeleton.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

# Marks that draw nothing on their own (variation selectors, the combining grapheme joiner,
# Mongolian free variation selectors): left out when two names are compared.
INVISIBLE_MARKS = re.compile(
    "[\u034f\u17b4\u17b5\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]"
)
# How many times a name's skeleton is mapped and case-folded again at most (it settles in one
# or two: mapping, then case folding, can meet another look-alike).
ROUNDS = 4


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _neighbours() -> dict[str, set[str]]:
    """confusables.txt as an undirected graph: each line's two ends joined."""
    from confusable_homoglyphs.confusables import confusables_data  # 900 KB: read on first use

    graph: dict[str, set[str]] = {}
    for key, glyphs in confusables_data.items():
        source = key.replace("\u200e", "")
        for glyph in glyphs:
            other = glyph["c"].replace("\u200e", "")
            graph.setdefault(source, set()).add(other)
            graph.setdefault(other, set()).add(source)
    return graph


def _is_prototype_of_pair(char: str, other: str, in_prototypes: set[str]) -> bool:
    """Of two single characters that name only each other, whether `char` is the prototype."""
    for rule in (
        lambda c: c in in_prototypes,
        lambda c: unicodedata.normalize("NFKC", c) == c,
    ):
        if rule(char) != rule(other):
            return rule(char)
    return ord(char) < ord(other)


@cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype (closed: a prototype maps to itself)."""
    graph = _neighbours()
    in_prototypes = {c for node in graph if len(node) > 1 for c in node}
    table: dict[str, str] = {}
    for node, others in graph.items():
        if len(node) != 1 or len(others) != 1:
            continue  # a prototype: a longer string, or the end of several lines
        (other,) = others
        lonely_pair = len(other) == 1 and len(graph[other]) == 1
        if lonely_pair and _is_prototype_of_pair(node, other, in_prototypes):
            continue
        table[node] = other
    for source, target in table.items():
        for _ in range(ROUNDS):
            mapped = _nfd("".join(table.get(c, c) for c in _nfd(target)))
            if mapped == target:
                break
            target = mapped
        table[source] = target
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again."""
    table = prototypes()
    return _nfd("".join(table.get(c, c) for c in _nfd(text)))


def name_skeleton(name: str) -> str:
    """What two players' names are compared by: the skeleton of the name's NFKC form (fullwidth
    and mathematical letters are the letters), with case ignored after the look-alikes are
    mapped (so "BiII" with capital I's meets "bill", and "ANA" in Cyrillic capitals meets
    "ana"), every run of spaces as one space, invisible marks left out."""
    text = " ".join(INVISIBLE_MARKS.sub("", name).split())
    for _ in range(ROUNDS):
        compatible = unicodedata.normalize("NFKC", text)
        mapped = " ".join(skeleton(compatible).casefold().split())
        if mapped == text:
            break
        text = mapped
    return text
