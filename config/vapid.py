"""VAPID keys for Web Push: the site signs each push with its private key, and browsers
subscribe with its public key (the page's `applicationServerKey`).

The keys are strings as browsers and push services use them: the private key is the P-256
scalar (32 bytes), the public key the uncompressed point (65 bytes), both base64url without
padding. In the embedded mode with no key set, `embedded_private_key` makes one on first use and
keeps it in var/ (owner-only), like the secret key: `make run` pushes with no configuration,
and no key lives in the repository. The private key is never shown on a page or logged.
"""

from __future__ import annotations

import base64
import contextlib
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.exceptions import ImproperlyConfigured


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _public_of(key: ec.EllipticCurvePrivateKey) -> str:
    return b64url(
        key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )


def generate_pair() -> tuple[str, str]:
    """A new (private, public) key pair."""
    key = ec.generate_private_key(ec.SECP256R1())
    scalar = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(scalar), _public_of(key)


def public_from_private(private: str) -> str:
    """The public key of a private one; ImproperlyConfigured (naming no key) when it is not one."""
    try:
        raw = b64url_decode(private.strip())
        if len(raw) != 32:
            raise ValueError
        key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    except ValueError:
        raise ImproperlyConfigured(
            "VAPID_PRIVATE_KEY must be a P-256 private key, 32 bytes in base64url "
            "(`manage.py vapid_keys` prints a new pair)"
        ) from None
    return _public_of(key)


def embedded_private_key(var_dir: Path) -> str:
    """The embedded mode's private key: made on first use, kept in `var_dir/vapid_private_key`
    (mode 0600); two processes starting at once both end up with the first one's key."""
    path = var_dir / "vapid_private_key"
    with contextlib.suppress(FileNotFoundError):
        return path.read_text().strip()
    var_dir.mkdir(parents=True, exist_ok=True)
    private, _public = generate_pair()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as f:
        f.write(private)
    return private
