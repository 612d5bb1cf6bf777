"""Accounts with e-mail addresses, a push service of our own on 127.0.0.1 (it takes the pushes
the site posts, answers as told, and keeps them to read), and browser subscription keys that the
test holds the private half of, so it decrypts what the push service got."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth import get_user_model

from config.vapid import b64url
from league.services.players import player_for_user


def account(name: str, **fields):
    user = get_user_model().objects.create_user(
        name, password="pw", email=f"{name}@example.org", **fields
    )
    player_for_user(user)
    return user


@pytest.fixture
def bob(db):
    return account("bob")


@pytest.fixture
def carol(db):
    return account("carol")


@dataclass
class PushService:
    """The local push service: `status` is its answer; `received` the (path, headers, body)."""

    url: str
    status: int = 201
    received: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)


@pytest.fixture
def push_service(settings) -> Iterator[PushService]:
    settings.WEBPUSH_ALLOW_HTTP = True
    settings.WEBPUSH_ENDPOINT_HOSTS = ["127.0.0.1"]
    service = PushService("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            service.received.append((self.path, dict(self.headers), body))
            self.send_response(service.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            """Silent: a request line per push would only clutter the test's output."""

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    service.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield service
    httpd.shutdown()
    httpd.server_close()


@dataclass
class Browser:
    """A browser's side of a subscription: its key pair and auth secret, as toJSON() gives."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes

    def json(self) -> dict:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }


@pytest.fixture
def browser_keys(push_service) -> Browser:
    return Browser(
        f"{push_service.url}/push/{b64url(os.urandom(8))}",
        ec.generate_private_key(ec.SECP256R1()),
        os.urandom(16),
    )
