"""The Content Security Policy is enforced on every page, and no page needs it loosened: scripts
and style sheets come from our own files (an inline one carries the request's nonce), no element
has an inline handler or a style attribute, no script evaluates strings (docs/browser.md,
"Content Security Policy"). A script injected into a page therefore does not run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from league.models import Player
from league.services import events as event_services
from tests.gameplay.conftest import make_table, make_users
from tests.league.conftest import make_organizer, play_round
from tests.procs import ROOT
from tests.replay.conftest import play_out

# Our templates (the project's and its apps') and our scripts; third-party pages (the admin,
# allauth's, Swagger UI's) are checked as they render, below.
TEMPLATES = sorted(
    [*(ROOT / "templates").glob("**/*.html")]
    + [
        path
        for app in ("accounts", "gameplay", "league")
        for path in (ROOT / app).glob("**/templates/**/*.html")
    ]
)
SCRIPTS = sorted((ROOT / "static" / "js").glob("**/*.js"))

SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.I)
STYLE_TAG = re.compile(r"<style\b([^>]*)>", re.I)
HANDLER = re.compile(r"<[a-z][^<>]*\son[a-z]+\s*=", re.I)  # <button onclick=…>
STYLE_ATTRIBUTE = re.compile(r"<[a-z][^<>]*\sstyle\s*=", re.I)  # <p style=…>
JAVASCRIPT_URL = re.compile(r"javascript:", re.I)
# What a script must not do under the policy: evaluate strings, or write markup or attributes
# that carry handlers or styles.
EVALUATES = re.compile(
    r"\beval\s*\(|\bFunction\s*\(|set(?:Timeout|Interval)\s*\(\s*[\"'`]"
    r"|setAttribute\(\s*[\"'](?:style|on)|[{,]\s*style\s*:|innerHTML|outerHTML"
    r"|insertAdjacentHTML|document\.write|javascript:"
)


def inline_script_without_nonce(attributes: str) -> bool:
    """A <script> the policy refuses: code in the page, not a file, not data, no nonce."""
    if "src=" in attributes or re.search(r"type=[\"']application/(?:ld\+)?json", attributes):
        return False
    return "nonce=" not in attributes


def offences(html: str) -> list[str]:
    found = [f"<script{a}>" for a in SCRIPT_TAG.findall(html) if inline_script_without_nonce(a)]
    found += [f"<style{a}>" for a in STYLE_TAG.findall(html) if "nonce=" not in a]
    for pattern in (HANDLER, STYLE_ATTRIBUTE, JAVASCRIPT_URL):
        found += [m.group(0)[:80] for m in pattern.finditer(html)]
    return found


def test_the_scan_finds_what_the_policy_refuses():
    assert offences('<script>alert(1)</script><script src="/s.js"></script>') == ["<script>"]
    assert offences('<button type="button" onclick="window.print()">')
    assert offences('<p style="color: red">') and offences("<style>p {}</style>")
    assert offences('<a href="javascript:void(0)">')
    assert not offences('<script type="application/json" id="x">{}</script><p data-style="a">')
    assert not offences('<script nonce="{{ request.csp_nonce }}">go()</script>')


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_needs_the_policy_loosened(template: Path):
    assert offences(template.read_text()) == []


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_script_evaluates_strings_or_writes_markup(script: Path):
    assert EVALUATES.findall(script.read_text()) == []


def test_the_scans_see_every_template_and_script():
    names = {p.name for p in TEMPLATES}
    assert {"base.html", "table.html", "standings.html", "swagger_ui.html", "api.html"} <= names
    assert {"table.js", "lobby.js", "site.js"} <= {p.name for p in SCRIPTS}


# ---------------------------------------------------------------------- the pages as served
def directives(header: str) -> dict[str, list[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in parts}


@pytest.fixture
def pages(db) -> dict[str, str]:
    """A page of each kind, by name: the site's, a live and a finished table, an event and its
    round, the API's docs and browsable pages, the admin's and allauth's."""
    ana, ben, cleo = make_users("ana", "ben", "cleo")
    live = make_table("three_five_eight", [ana], ["Bot B", "Bot C"])
    finished = play_out(make_table("three_five_eight", [ana, ben, cleo]))
    alice = make_organizer(get_user_model().objects.create_user("alice", password="pw"))
    event = event_services.create_event(
        alice, name="Open", game="saichugen", rounds=2, deals_per_match=1, format="swiss"
    )
    event_services.publish_event(event, by=alice)
    for n in range(6):
        player = Player.objects.create(name=f"player-{n}")
        event_services.add_entry(event, player, by=alice, checked_in=True)
    play_round(event, by=alice)
    return {
        "home": "/",
        "lobby": reverse("gameplay:play"),
        "table": reverse("gameplay:table", args=[live.id]),
        "rules": reverse("gameplay:rules", args=["three_five_eight"]),
        "event": reverse("league:event", args=[event.slug]),
        "round": reverse("league:round", args=[event.slug, 1]),
        "standings": reverse("league:standings", args=[event.slug]),
        "replay": reverse("gameplay:replay", args=[finished.id]),
        "api docs": reverse("api-docs"),
        "browsable api": reverse("api-root") + "?format=api",
        "admin log-in": reverse("admin:login"),
        "log-in": reverse("account_login"),
        "sign-up": reverse("account_signup"),
    }


def test_every_page_is_served_under_the_policy_and_needs_nothing_loosened(pages):
    visitor = Client()  # the table's spectator; the log-in pages are for visitors
    for name, url in pages.items():
        response = visitor.get(url)
        assert response.status_code == 200, name
        policy = directives(response["Content-Security-Policy"])
        assert policy["default-src"] == ["'self'"], name
        assert policy["script-src"][0] == "'self'" and "'unsafe-inline'" not in policy["script-src"]
        assert "'unsafe-inline'" not in policy["style-src"] and "'unsafe-eval'" not in str(policy)
        assert policy["connect-src"] == ["'self'", "ws://testserver"], name
        assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
        assert policy["base-uri"] == ["'self'"] and policy["form-action"] == ["'self'"]
        assert "upgrade-insecure-requests" not in policy  # HTTPS=1 only (test_https.py)
        # data: images for Swagger UI's icons, on its page only.
        assert policy.get("img-src") == (["'self'", "data:"] if name == "api docs" else None)
        html = response.content.decode()
        # An inline element may run only with this response's nonce, which the header names.
        for nonce in re.findall(r"nonce=\"([^\"]+)\"", html):
            assert f"'nonce-{nonce}'" in policy["script-src"], name
        assert offences(re.sub(r" nonce=\"[^\"]+\"", ' nonce="n"', html)) == [], name


def test_the_api_docs_start_from_a_script_file_and_a_style_with_the_nonce(client, db):
    response = client.get(reverse("api-docs"))
    html = response.content.decode()
    nonce = re.search(r"<style nonce=\"([^\"]+)\">", html).group(1)
    assert f"'nonce-{nonce}'" in directives(response["Content-Security-Policy"])["style-src"]
    assert '<script src="/api/docs/?script="></script>' in html
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle(" in script.content.decode()


def test_each_response_has_a_nonce_of_its_own(client, db):
    first, second = (client.get(reverse("api-docs")) for _ in range(2))
    assert first["Content-Security-Policy"] != second["Content-Security-Policy"]


def test_the_socket_source_is_the_requests_own_host(client, settings, db):
    settings.ALLOWED_HOSTS = ["mediana.example.org"]
    response = client.get("/", HTTP_HOST="mediana.example.org")
    assert (
        "ws://mediana.example.org" in directives(response["Content-Security-Policy"])["connect-src"]
    )
    secure = client.get("/", HTTP_HOST="mediana.example.org", secure=True)
    assert "wss://mediana.example.org" in secure["Content-Security-Policy"]
    # A host outside ALLOWED_HOSTS gets its 400 and never reaches the header.
    refused = client.get("/", HTTP_HOST="evil.example.com")
    assert refused.status_code == 400
    assert "evil" not in refused.get("Content-Security-Policy", "")
