"""Deal commitments (table-protocol.md, "Additions"): proof that the cards were fixed before play.

While a deal is played every `state` carries ``sha256(canonical + "\\n" + salt)``; the record
reveals the salt with the cards, so anyone can check, with any SHA-256 tool, that the deal they
played is the one the server had committed to. Without a secret salt the hash would give the
cards away: a seat knows its own hand, and the ways the unseen cards can lie are few enough to
try them all (fewer with every card played). So the salt is revealed only in the record.

The salt is an HMAC of the deal number keyed by the match's secret seed rather than a fresh
random string: a match rebuilt from its seed and log (a server restart) commits to the same
hash, and tables dealt from one seed (duplicate events) share their commitments. Knowing a salt
tells nothing about the seed (HMAC is a pseudo-random function of its key).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Sequence

SALT_RE = re.compile(r"[0-9a-f]{32}")


def canonical(hands: Sequence[Sequence[str]], stock: Sequence[str]) -> str:
    """The deal as records.md has it (card codes, hands in seat order before any exchange),
    serialised with sorted keys and no spaces."""
    return json.dumps(
        {"hands": [list(h) for h in hands], "stock": list(stock)},
        sort_keys=True,
        separators=(",", ":"),
    )


def commitment(hands: Sequence[Sequence[str]], stock: Sequence[str], salt: str) -> str:
    """The hex SHA-256 of the UTF-8 bytes of ``canonical + "\\n" + salt``."""
    return hashlib.sha256(f"{canonical(hands, stock)}\n{salt}".encode()).hexdigest()


def deal_salt(seed: int | str, deal_no: int) -> str:
    """The salt of deal ``deal_no`` of a match dealt from ``seed``: 32 hex characters."""
    mac = hmac.new(str(seed).encode(), f"mediana.deal-salt/{deal_no}".encode(), hashlib.sha256)
    return mac.hexdigest()[:32]


def is_salt(value: object) -> bool:
    """Whether ``value`` is a salt as the protocol defines it (32 lower-case hex characters)."""
    return isinstance(value, str) and SALT_RE.fullmatch(value) is not None
