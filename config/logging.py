"""Logging set-up that keeps secrets out of every log line, the servers' access logs included,
and a client's bad request to one line (`ClientErrorsInOneLine`).

Secrets travel in URLs (seat tokens, allauth's password-reset and e-mail confirmation keys,
claim invitations, unsubscribe links: `URL_SECRETS`) and every server logs every request line
and WebSocket handshake with its path and query string. `RedactSecrets` rewrites each of them
(also percent-encoded, as in a login `next=`), `Token <key>` / `Bearer <key>` (API
credentials), `"token": "<value>"`, the password of a `scheme://user:password@host` URL and the
row or key values PostgreSQL quotes in an error (a seat's token, a table's seed).

Where the filter goes, and why: uvicorn configures its own loggers and handlers before it imports
`config.asgi`; Django then applies LOGGING (at django.setup(), during that import), which leaves
uvicorn's handlers on its `uvicorn.*` loggers (propagate False), so a filter on our own handler
alone never sees the access log. `configure` (settings.LOGGING_CONFIG) therefore applies LOGGING,
then puts the filters on every handler that exists by then (uvicorn's, a `--log-config` file's,
Daphne's, ours) and on the server loggers themselves: a filter on a logger survives a later
dictConfig (which replaces handlers, never filters), so uvicorn's lines are redacted whichever
configured logging last. Celery replaces the root handler when a worker starts; the
`after_setup_*` signals below filter its handlers too.
"""

from __future__ import annotations

import logging
import logging.config
import re
from typing import Any

from celery.signals import after_setup_logger, after_setup_task_logger

REDACTED = "[redacted]"

# Every secret that can travel in a URL, by what stands right before it; the secret runs to the
# end of its query value or path segment, and reads `[redacted]`. A new secret is one line here.
URL_SECRETS = (
    "token=",  # ?token=: seat tokens, claim invitations, unsubscribe links; also csrftoken=
    "/password/reset/key/",  # allauth's password reset: …/key/<uidb36>-<key>/
    "/confirm-email/",  # allauth's e-mail confirmation: …/confirm-email/<key>/
)

# A URL inside a URL (a login's `next=`) is percent-encoded, once or twice: `/` reads `%2F` or
# `%252F`, `=` `%3D` or `%253D`.
_DELIMITER = {c: rf"(?:{re.escape(c)}|%(?:25)?{ord(c):02X})" for c in "/?=&#"}
# A value ends at a delimiter, raw or encoded; other escapes (`%3A`, the colons of a signed
# token) are part of it.
_URL_VALUE = r"""(?:[^\s"'#&/?;,<>()\[\]{}\\%]|%(?!(?:25)?(?:2F|3F|3D|26|23))[0-9A-F]{2})+"""


def _url_secrets(prefixes: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = ("".join(_DELIMITER.get(c, re.escape(c)) for c in p) for p in prefixes)
    return re.compile(rf"(?i)((?:{'|'.join(alternatives)})){_URL_VALUE}")


_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (_url_secrets(URL_SECRETS), rf"\g<1>{REDACTED}"),
    # Authorization: Token <key> / Bearer <key> (DRF token keys are 40 hex digits).
    (re.compile(r"(?i)\b(Token|Bearer)(\s+)[A-Za-z0-9._~+/=-]{16,}"), rf"\g<1>\g<2>{REDACTED}"),
    # "token": "…" / 'seat_token': '…' (a dict or JSON in a message).
    (re.compile(r"(?i)([\"'][\w-]*token[\"']\s*:\s*[\"'])[^\"']+"), rf"\g<1>{REDACTED}"),
    # postgres://user:password@host, redis://:password@host
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://[^:/@\s]*:)[^@\s/]+@"), rf"\g<1>{REDACTED}@"),
    # PostgreSQL's error details quote whole rows (a seat's token, a table's seed) and keys.
    (re.compile(r"(Failing row contains )\(.*"), rf"\g<1>({REDACTED})."),
    (
        re.compile(r"(?i)(Key \([^)]*(?:token|seed|salt|key)[^)]*\)=\().*?(\) (?:already|is not))"),
        rf"\g<1>{REDACTED}\g<2>",
    ),
]

# The loggers through which the servers write request lines (path and query string included).
SERVER_LOGGERS = (
    "uvicorn.access",
    "uvicorn.error",
    "uvicorn.asgi",
    "daphne.server",
    "daphne.http_protocol",
    "daphne.ws_protocol",
    "django.channels.server",
    "django.server",
    "django.request",
)


def redact(text: str) -> str:
    """`text` with every secret we know the shape of replaced by `[redacted]`."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def _redact_arg(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if value is None or isinstance(value, int | float):
        return value  # %d and %.2f still work
    text = str(value)  # a request, a URL object: its str() may hold the query string
    cleaned = redact(text)
    return value if cleaned == text else cleaned


class RedactSecrets(logging.Filter):
    """Rewrite a record's message, arguments and traceback so no token reaches a log.

    The arguments are redacted one by one, keeping their number and order: uvicorn's access
    formatter unpacks `record.args` (client, method, path, version, status) itself. A secret
    that only appears once the message is formatted (split over two arguments) is caught by
    formatting the message here and keeping only the redacted text.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "_secrets_redacted", False):
            return True  # one record, several handlers: done once
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, dict):
            record.args = {k: _redact_arg(v) for k, v in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_redact_arg(v) for v in record.args)
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: let the handler report it as usual
            message = None
        if message is not None and redact(message) != message:
            record.msg, record.args = redact(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        record._secrets_redacted = True
        return True


class ClientErrorsInOneLine(logging.Filter):
    """A 4xx response's record is one warning line, without the exception's traceback.

    Django logs a PermissionDenied (403), a BadRequest (a NUL in a query string: 400) and a
    SuspiciousOperation (a foreign Host header: 400, as an error) with the whole traceback, so
    any anonymous client could write twenty lines to the disk per request. The request was at
    fault, not the server, and the line (status, reason, path) says all there is; a 5xx keeps
    its traceback. Django puts the response's status on the record (`status_code`).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = record.exc_text = None
            if record.levelno > logging.WARNING:
                record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


# On every handler and server logger, in this order (a traceback dropped needs no redaction).
FILTERS = (ClientErrorsInOneLine, RedactSecrets)


def _add_filters(filterer: logging.Filterer) -> None:
    for kind in FILTERS:
        if not any(isinstance(f, kind) for f in filterer.filters):
            filterer.addFilter(kind())


def filter_every_handler() -> None:
    """Put `FILTERS` on every handler of every logger that exists now, and on the servers'
    loggers (see the module docstring for why both)."""
    loggers: list[logging.Logger] = [logging.getLogger()]
    loggers += [
        logger
        for logger in list(logging.Logger.manager.loggerDict.values())
        if isinstance(logger, logging.Logger)
    ]
    loggers += [logging.getLogger(name) for name in SERVER_LOGGERS]
    for logger in loggers:
        for handler in logger.handlers:
            _add_filters(handler)
    for name in SERVER_LOGGERS:
        _add_filters(logging.getLogger(name))


def configure(config: dict[str, Any]) -> None:
    """settings.LOGGING_CONFIG: apply LOGGING, then filter everywhere."""
    logging.config.dictConfig(config)
    filter_every_handler()


def _after_celery_setup(**_: Any) -> None:
    filter_every_handler()


# A Celery worker or beat sets up its own handlers after Django's logging.
after_setup_logger.connect(_after_celery_setup, weak=False)
after_setup_task_logger.connect(_after_celery_setup, weak=False)
