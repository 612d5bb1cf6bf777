"""No secret reaches a log line: a real uvicorn, started as README says, serves tables whose seat
tokens ride in the URL, and its captured output holds none of them.

uvicorn logs every request line and WebSocket handshake with the query string, on handlers it
sets up before Django's LOGGING exists; `config.logging` has to reach those handlers too.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import secrets
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, unquote, urlencode

import pytest
import websockets
from uvicorn.logging import AccessFormatter

from config.logging import RedactSecrets, redact
from tests.gameplay.test_scale import player, shared_database
from tests.procs import (
    ROOT,
    free_port,
    manage,
    procfile_uvicorn,
    run_async,
    service_env,
    wait_for_port,
)


@contextmanager
def uvicorn_logging_to(log: Path, env: dict[str, str]) -> Iterator[int]:
    """The Procfile's uvicorn command at its default log level, stdout and stderr into `log`."""
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            procfile_uvicorn(port),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_for_port(port, proc)
            yield port
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)  # a clean stop flushes every log line
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


def http_get(url: str, **headers: str) -> int:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def http_post(url: str, **headers: str) -> int:
    request = urllib.request.Request(url, data=b"{}", method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


async def refused(url: str) -> bool:
    try:
        async with websockets.connect(url) as ws:
            await asyncio.wait_for(ws.recv(), 10)
    except (websockets.InvalidStatus, websockets.ConnectionClosed):
        return True
    return False


def api_token(base: str, username: str, password: str) -> str:
    """A real API token (lobby-api.md: `POST /api/token/`)."""
    body = json.dumps({"username": username, "password": password}).encode()
    request = urllib.request.Request(
        f"http://{base}/api/token/", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["token"]


@pytest.mark.redis
@pytest.mark.slow
def test_a_real_uvicorn_logs_no_token(tmp_path):
    wrong = secrets.token_urlsafe(24)
    password = secrets.token_urlsafe(12)
    log = tmp_path / "server.log"
    with shared_database(tmp_path) as env:
        created = json.loads(manage(env, "create_table", "--game=saichugen", "--players=p,q,r"))
        table, tokens = created["table"], [s["token"] for s in created["seats"]]
        make_user = "from accounts.models import User; User.objects.create_user('ann', password=%r)"
        manage(env, "shell", "-c", make_user % password)
        with uvicorn_logging_to(log, env) as port:
            base = f"127.0.0.1:{port}"
            api_key = api_token(base, "ann", password)
            # The browser's way in: the table page with the seat token in its address.
            assert http_get(f"http://{base}/tables/{table}/?token={tokens[0]}") == 200
            assert http_get(f"http://{base}/tables/{table}/?token={wrong}") in (200, 403)
            assert http_get(f"http://{base}/tables/{table}/nothing/?token={tokens[1]}") == 404
            # The API token in its header, and in a query parameter; a refused write is a 4xx
            # that django.request logs too.
            auth = {"Authorization": f"Token {api_key}"}
            assert http_get(f"http://{base}/api/events/?token={api_key}", **auth) == 200
            assert http_get(f"http://{base}/api/no-such-thing/?token={api_key}", **auth) == 404
            bad = {"Authorization": f"Token {wrong}", "Content-Type": "application/json"}
            assert http_post(f"http://{base}/api/events/?token={wrong}", **bad) in (401, 403)

            async def play() -> list[dict]:
                ws = f"ws://{base}/ws/tables/{table}/?token="
                assert await refused(ws + wrong)
                seen: list[list[int]] = [[], [], []]
                return await asyncio.gather(
                    *(player(ws + t, seen[i]) for i, t in enumerate(tokens))
                )

            results = run_async(play())
            assert all(r["status"] == "finished" for r in results)
    text = log.read_text(errors="replace")
    # The log was really captured: the table's requests and handshakes are in it, redacted.
    assert f'"GET /tables/{table}/?token=[redacted] HTTP/1.1" 200' in text
    assert f'"WebSocket /ws/tables/{table}/?token=[redacted]" [accepted]' in text
    assert f'"WebSocket /ws/tables/{table}/?token=[redacted]" 403' in text
    assert f"Not Found: /tables/{table}/nothing/" in text
    assert '"GET /api/events/?token=[redacted] HTTP/1.1" 200' in text
    for secret in [*tokens, wrong, api_key]:
        assert secret not in text


# Run in `manage.py shell` on the server's database: a real account with a password-reset key
# and an e-mail confirmation key made by allauth, an organizer's claim invitation and an
# unsubscribe link made by our code; prints their paths.
MAKE_URL_SECRETS = """
import json
from urllib.parse import urlencode, urlsplit
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from allauth.account.utils import user_pk_to_url_str
from django.urls import reverse
from accounts.models import User
from league.models import Player
from league.services import claims, notice_mail

ann = User.objects.create_user("ann", "ann@example.org", "not-used-here")
address = EmailAddress.objects.create(user=ann, email=ann.email, primary=True, verified=False)
reset = reverse(
    "account_reset_password_from_key",
    kwargs={"uidb36": user_pk_to_url_str(ann), "key": default_token_generator.make_token(ann)},
)
staff = User.objects.create_user("sam", password="not-used-here", is_staff=True)
claim = claims.invite_to_claim(Player.objects.create(name="Bea"), by=staff).token
unsubscribe = urlsplit(notice_mail.unsubscribe_url(ann.pk, None))
print(json.dumps({
    "reset": reset,
    "confirm": reverse("account_confirm_email", args=[EmailConfirmationHMAC(address).key]),
    "claim": reverse("claim") + "?" + urlencode({"token": claim}),
    "unsubscribe": unsubscribe.path + "?" + unsubscribe.query,
}))
"""


def secret_parts(path: str) -> list[str]:
    """The secret of a URL made by MAKE_URL_SECRETS, raw and percent-encoded, and each part of a
    signed one (a `%3A` left unredacted would show the rest)."""
    secret = unquote(path.split("token=")[-1] if "token=" in path else path.split("/")[-2])
    parts = [secret, quote(secret, safe=""), *secret.split(":")]
    return [part for part in parts if len(part) >= 6]


def test_a_real_uvicorn_logs_no_key_that_opens_an_account(tmp_path):
    """Password-reset and e-mail confirmation keys, claim invitations and unsubscribe links, made
    for a real account, in every line a server writes about them: the access log, Django's "Not
    Found" and CSRF warnings, and a log-in page whose `next=` holds the claim link."""
    log = tmp_path / "server.log"
    env = service_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    env.pop("REDIS_URL", None)
    manage(env, "migrate", "--no-input", "-v0")
    urls = json.loads(manage(env, "shell", "--no-imports", "-c", MAKE_URL_SECRETS))
    login = "/accounts/login/?" + urlencode({"next": urls["claim"]})
    with uvicorn_logging_to(log, env) as port:
        base = f"http://127.0.0.1:{port}"
        # A valid reset key is kept in the session and the browser sent on without it.
        assert http_get(base + urls["reset"]) == 200
        assert http_get(base + urls["confirm"]) == 200
        assert http_get(base + urls["claim"]) == 200
        assert http_get(base + login) == 200
        assert http_get(base + urls["unsubscribe"]) == 200
        assert http_post(base + urls["unsubscribe"]) == 200  # RFC 8058's one-click POST
        # allauth's reset route takes any path after the key (a bad key's page): a NUL is a 404.
        assert http_get(base + urls["reset"] + "%00/") == 404
        assert http_get(base + urls["confirm"] + "nothing/") == 404
        for kind in ("reset", "confirm"):
            assert http_post(base + urls[kind]) == 403  # no CSRF cookie
    text = log.read_text(errors="replace")
    # The lines are there, each path in its shape with the secret part redacted.
    assert '"GET /accounts/password/reset/key/[redacted]/ HTTP/1.1" 302' in text
    assert "Not Found: /accounts/password/reset/key/[redacted]/\\x00/" in text
    assert "Forbidden (CSRF cookie not set.): /accounts/password/reset/key/[redacted]/" in text
    assert '"GET /accounts/confirm-email/[redacted]/ HTTP/1.1" 200' in text
    assert "Not Found: /accounts/confirm-email/[redacted]/nothing/" in text
    assert '"GET /accounts/claim/?token=[redacted] HTTP/1.1" 200' in text
    assert '"GET /accounts/login/?next=%2Faccounts%2Fclaim%2F%3Ftoken%3D[redacted] HTTP' in text
    assert '"POST /notices/unsubscribe/?token=[redacted] HTTP/1.1" 200' in text
    for kind in ("reset", "confirm", "claim", "unsubscribe"):
        for part in secret_parts(urls[kind]):
            assert part not in text, (kind, part)


def test_uvicorns_access_formatter_still_formats_a_redacted_record():
    """The filter keeps uvicorn's five access-log arguments (its formatter unpacks them)."""
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/tables/abc/?token=s3cr3t-seat&x=1", "1.1", 200),
        None,
    )
    assert RedactSecrets().filter(record)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s').format(record)
    assert line == '127.0.0.1:5000 - "GET /tables/abc/?token=[redacted]&x=1 HTTP/1.1" 200 OK'


def test_a_secret_in_a_traceback_or_split_over_arguments_is_redacted():
    secret = secrets.token_urlsafe(12)
    try:
        raise ValueError(f"bad link /tables/abc/?token={secret}")
    except ValueError as exc:
        # Neither argument alone looks like a secret; the formatted message does.
        args = ("/tables/x/", "token", secret)
        record = logging.LogRecord("gameplay", logging.ERROR, __file__, 1, "%s?%s=%s", args, None)
        record.exc_info = (type(exc), exc, exc.__traceback__)
    RedactSecrets().filter(record)
    line = logging.Formatter().format(record)
    assert secret not in line
    assert line.startswith("/tables/x/?token=[redacted]")
    assert "ValueError: bad link /tables/abc/?token=[redacted]" in line


def test_the_handlers_a_celery_worker_sets_up_are_filtered_too():
    """A worker replaces the root handler after Django's logging is set up; its signal is how
    the filter reaches the new one."""
    from celery.signals import after_setup_logger

    secret, out = secrets.token_urlsafe(12), io.StringIO()
    handler = logging.StreamHandler(out)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        after_setup_logger.send(sender=None, logger=root, loglevel=logging.INFO, logfile=None)
        logging.getLogger("gameplay.chaos").warning("GET /tables/t/?token=%s", secret)
    finally:
        root.removeHandler(handler)
    assert out.getvalue() == "GET /tables/t/?token=[redacted]\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("GET /ws/tables/t/?token=Ab-_9z&seat=1", "GET /ws/tables/t/?token=[redacted]&seat=1"),
        ("/login/?next=/tables/t/%3Ftoken%3DAb-9z", "/login/?next=/tables/t/%3Ftoken%3D[redacted]"),
        (
            "/accounts/password/reset/key/1-cbz3k4-0a1b2c/",
            "/accounts/password/reset/key/[redacted]/",
        ),
        ("/accounts/confirm-email/MQ:1tXy:a-b_c/", "/accounts/confirm-email/[redacted]/"),
        ("/accounts/confirm-email/MQ%3A1tXy%3Aa-b/x/", "/accounts/confirm-email/[redacted]/x/"),
        # A signed token's colons are escaped in a query: the whole token goes, not its first part.
        (
            "/notices/unsubscribe/?token=WzEsIioiXQ%3A1t%3Asig",
            "/notices/unsubscribe/?token=[redacted]",
        ),
        (
            "/accounts/login/?next=%2Faccounts%2Fclaim%2F%3Ftoken%3DAb-9z%26x%3D1",
            "/accounts/login/?next=%2Faccounts%2Fclaim%2F%3Ftoken%3D[redacted]%26x%3D1",
        ),
        (
            "/accounts/login/?next=%2Faccounts%2Fpassword%2Freset%2Fkey%2F1-cbz3k4-0a1b%2F",
            "/accounts/login/?next=%2Faccounts%2Fpassword%2Freset%2Fkey%2F[redacted]%2F",
        ),
        (
            "?next=%252Ft%252F%253Ftoken%253DAb%253Acd%2526s",
            "?next=%252Ft%252F%253Ftoken%253D[redacted]%2526s",
        ),
        ("Authorization: Token " + "ab12" * 10, "Authorization: Token [redacted]"),
        ('{"seat": 0, "token": "Ab-9z"}', '{"seat": 0, "token": "[redacted]"}'),
        ("redis://:hunter2@cache:6379/0", "redis://:[redacted]@cache:6379/0"),
        (
            "DETAIL:  Failing row contains (7, 0, bot, Ann, Xy-9secret, t1, 3).",
            "DETAIL:  Failing row contains ([redacted]).",
        ),
        (
            "DETAIL:  Key (token)=(Xy-9secret) already exists.",
            "DETAIL:  Key (token)=([redacted]) already exists.",
        ),
        # Not secrets: left alone.
        ("DETAIL:  Key (table_id, seq)=(t1, 4) already exists.", None),
        ("Token authentication failed", None),
        ("/accounts/confirm-email/", None),
        ("postgres://mediana@db:5432/mediana", None),
        ("table 4f2a seq 17", None),
    ],
)
def test_redact(text, expected):
    assert redact(text) == (text if expected is None else expected)
