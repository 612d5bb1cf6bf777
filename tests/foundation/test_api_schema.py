"""`/api/schema/` (config/schema.py): made once per process and language, then served from memory.

The requests go to Django's ASGI application as a server sends them: each in a thread of its
own, all at once (drf-spectacular's generator is not thread-safe: it answered 500 to most).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.core.asgi import get_asgi_application
from drf_spectacular.generators import SchemaGenerator

from config.schema import forget_schemas

AT_ONCE = 16
JSON = "application/vnd.oai.openapi+json"


@pytest.fixture
def made(monkeypatch) -> list[str]:
    """The schemas generated during the test (a fresh process's cache: none made yet)."""
    generated: list[str] = []
    real = SchemaGenerator.get_schema

    def counted(self: SchemaGenerator, *args: Any, **kwargs: Any) -> Any:
        generated.append("one")
        return real(self, *args, **kwargs)

    forget_schemas()
    monkeypatch.setattr(SchemaGenerator, "get_schema", counted)
    yield generated
    forget_schemas()


async def get(app: Any, path: str, query: str = "", **headers: str) -> tuple[int, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1")]
        + [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict[str, Any]] = []
    asked = asyncio.Event()

    async def receive() -> dict[str, Any]:
        if not asked.is_set():
            asked.set()
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays connected
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


async def test_many_requests_at_once_get_one_schema_made_once(made):
    app = get_asgi_application()
    answers = await asyncio.gather(*(get(app, "/api/schema/", accept=JSON) for _ in range(AT_ONCE)))
    assert [status for status, _ in answers] == [200] * AT_ONCE
    assert len({body for _, body in answers}) == 1
    assert b'"/api/token/"' in answers[0][1]
    assert len(made) == 1
    # YAML is the same schema rendered otherwise: nothing made again.
    status, yaml = await get(app, "/api/schema/")
    assert status == 200 and b"/api/token/:" in yaml
    assert len(made) == 1


async def test_each_language_is_made_once(made):
    app = get_asgi_application()
    english = [(await get(app, "/api/schema/", accept=JSON, accept_language="en"))[1]]
    german = await asyncio.gather(
        *(get(app, "/api/schema/", accept=JSON, accept_language="de") for _ in range(4)),
        get(app, "/api/schema/", "lang=de", accept=JSON, accept_language="en"),
    )
    assert {status for status, _ in german} == {200}
    assert len({body for _, body in german}) == 1
    allow_bots = "accounts marked as bot accounts (programs) may enter"  # a help text
    assert allow_bots.encode() in english[0]
    assert b"als Bot-Konten (Programme) markierte Konten" in german[0][1]
    # An unknown `?lang=` is the page's language, not a new schema each.
    for nonsense in ("xx", "zz-de", "x" * 50):
        status, body = await get(app, "/api/schema/", f"lang={nonsense}", accept=JSON)
        assert (status, body) == (200, english[0])
    assert len(made) == 2
