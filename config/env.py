"""Typed readers for environment variables.

Each helper fails loudly (ImproperlyConfigured) on a value it cannot parse, so a typo in
deployment configuration stops start-up instead of silently falling back to a default.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
from pathlib import Path
from urllib.parse import urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    """The variable's value, or `default` when it is unset."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    """A boolean: 1/true/yes/on or 0/false/no/off (any case)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """An integer, optionally bounded below."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks are dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_seconds_map(name: str, default: dict[str, float]) -> dict[str, float]:
    """Positive seconds by name, as ``name=seconds`` pairs separated by commas
    (``strong=0.3,expert=1``); the pairs given replace the default's for their names."""
    raw = os.environ.get(name)
    out = dict(default)
    if raw is None or not raw.strip():
        return out
    for pair in raw.split(","):
        key, sep, value = pair.partition("=")
        try:
            seconds = float(value)
        except ValueError:
            seconds = -1.0
        if not sep or not key.strip() or not seconds > 0:
            raise ImproperlyConfigured(
                f"{name} must be name=seconds pairs (positive), got {pair.strip()!r}"
            )
        out[key.strip()] = seconds
    return out


def env_url(name: str, schemes: tuple[str, ...]) -> str | None:
    """A URL whose scheme is one of `schemes`, or None when unset or empty."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    parsed = urlparse(raw)
    if parsed.scheme not in schemes or not (parsed.hostname or parsed.path):
        raise ImproperlyConfigured(
            f"{name} must be a URL with scheme {' or '.join(schemes)}, got {raw!r}"
        )
    return raw


def embedded_secret_key(var_dir: Path) -> str:
    """The embedded mode's secret key: random, made on first use, kept in `var_dir/secret_key`
    (owner-only), so sessions survive a restart and no key lives in the repository."""
    path = var_dir / "secret_key"
    with contextlib.suppress(FileNotFoundError):
        return path.read_text().strip()
    var_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    try:
        # O_EXCL: two processes starting at once both end up with the first one's key.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key


_RATE_PERIODS = {"s", "m", "h", "d"}


def env_rate(name: str, default: str) -> str:
    """A DRF throttle rate, `N/period` with period second, minute, hour or day (`30/minute`)."""
    raw = (os.environ.get(name) or default).strip()
    count, _, period = raw.partition("/")
    if not (count.isdigit() and int(count) > 0 and period[:1] in _RATE_PERIODS):
        raise ImproperlyConfigured(
            f"{name} must be a rate like 30/minute (per second, minute, hour or day), got {raw!r}"
        )
    return raw


def env_networks(name: str) -> list[str]:
    """A comma-separated list of IP addresses or networks (`10.0.0.5,10.1.0.0/16`)."""
    values = env_list(name, [])
    for value in values:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} must list IP addresses or networks, got {value!r}"
            ) from None
    return values
