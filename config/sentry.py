"""Error reports to Sentry (or a server speaking its protocol) when SENTRY_DSN is set.

Nothing secret may leave: no personal data is sent (`send_default_pii=False`), and every string
of an event and of its breadcrumbs goes through the logs' redaction first (seat tokens, reset
and claim keys, API credentials, passwords in URLs: config/logging.py)."""

from __future__ import annotations

from typing import Any

from config.logging import redact


def scrub(value: Any) -> Any:
    """`value` with every string redacted, dicts and lists walked."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrub(v) for v in value]
    return value


def _before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    return scrub(event)


def _before_breadcrumb(crumb: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    return scrub(crumb)


def start(dsn: str, environment: str | None, traces: float) -> None:
    """Switch the reports on in this process (Django and Celery are picked up by themselves)."""
    import sentry_sdk

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        send_default_pii=False,
        traces_sample_rate=traces,
        before_send=_before_send,
        before_breadcrumb=_before_breadcrumb,
        before_send_transaction=_before_send,
    )
