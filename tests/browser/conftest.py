"""A real server and Debian's headless Chromium for the browser tests.

The server is one uvicorn process (the real ASGI app plus static files) on a free port, with
its own SQLite file migrated first, the in-memory channel layer and eager Celery (bots move on
the server's event loop, `GAMEPLAY_BOT_DELAY` apart). The test talks to the same database only
through `manage.py` (create_table, export_record), so PostgreSQL in CI changes nothing here.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.procs import ROOT, free_port, manage, procfile_uvicorn, running, service_env

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@dataclass
class Server:
    url: str
    env: dict[str, str]

    def manage(self, *args: str) -> str:
        return manage(self.env, *args)

    def create_table(self, game: str, players: str, bots: int, **options: str | int) -> dict:
        args = [f"--game={game}", f"--players={players}", f"--bots={bots}"]
        args += [f"--{k.replace('_', '-')}={v}" for k, v in options.items()]
        return json.loads(self.manage("create_table", *args))

    def export_record(self, table: str) -> dict:
        return json.loads(self.manage("export_record", f"--table={table}"))


@contextmanager
def serve(database: Path, summary_seconds: int = 0, **settings: str) -> Iterator[Server]:
    """A server of the real application on its own SQLite file, migrated first.

    The file is shared by the server and manage.py, whatever DATABASE_URL says (CI sets
    PostgreSQL for the rest of the suite); no REDIS_URL: embedded mode, bots on the loop.
    `summary_seconds` 0: no deal summary opening over the page by itself (it would cover the
    cards most tests click); the summary's and the pace's tests turn it on. `settings`: more
    environment for the server (a test's own budget, say)."""
    env = service_env(
        DATABASE_URL=f"sqlite:///{database}",
        GAMEPLAY_BOT_DELAY="0.05",
        GAMEPLAY_DEAL_SUMMARY_SECONDS=str(summary_seconds),
        LOG_LEVEL="WARNING",
        **settings,
    )
    env.pop("REDIS_URL", None)
    env.pop("CELERY_EAGER", None)
    server = Server("", env)
    server.manage("migrate", "--no-input", "-v0")
    port = free_port()
    args = [*procfile_uvicorn(port, "tests.browser.asgi:application"), "--log-level", "warning"]
    with running(args, env, port):
        server.url = f"http://127.0.0.1:{port}"
        yield server


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[Server]:
    with serve(tmp_path_factory.mktemp("browser") / "browser.sqlite3") as running_server:
        yield running_server


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """One Chromium per test module: Playwright's sync API keeps an event loop running in this
    thread while it lives, which would break later tests that start their own loop."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI must provide /usr/bin/chromium for the browser tests")
        pytest.skip("no /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


@pytest.fixture
def desktop(browser) -> Iterator:
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def phone(browser) -> Iterator:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {SCREENSHOTS}")
    return SCREENSHOTS
