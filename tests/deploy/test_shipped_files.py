"""The deployment's files agree with each other, and the operations' switches do what
docs/deployment.md says: the systemd units run the Procfile's commands, nginx's template renders
to a config nginx accepts, /metrics is off without its token and counts what happened, and an
error report carries no secret."""

from __future__ import annotations

import configparser
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client
from prometheus_client import REGISTRY

from config.deploy import render_nginx
from config.sentry import scrub
from gameplay.models import Action
from gameplay.services.errors import TableError
from gameplay.services.play import play_action
from tests.gameplay.conftest import current, make_table, make_users, some_legal
from tests.procs import ROOT, procfile_commands

UNITS = ROOT / "config" / "deploy" / "systemd"


def exec_start(unit: str) -> list[str]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment]
    parser.read(UNITS / unit)
    return shlex.split(parser["Service"]["ExecStart"].replace("%%", "%"))


@pytest.mark.parametrize("kind", ["worker", "bots", "beat"])
def test_each_celery_unit_runs_the_procfiles_command(kind):
    shipped = exec_start(f"mediana-{kind}.service")
    assert shipped[0] == "/srv/mediana/.venv/bin/celery"
    assert [".venv/bin/celery", *shipped[1:]] == shlex.split(procfile_commands()[kind])


def test_the_web_unit_runs_the_procfiles_uvicorn_on_its_instances_port():
    shipped = exec_start("mediana-web@.service")
    procfile = shlex.split(procfile_commands()["web"])
    assert shipped[0] == "/srv/mediana/.venv/bin/uvicorn"
    assert shipped[shipped.index("--port") + 1] == "%i"
    assert procfile[procfile.index("--port") + 1] == "$PORT"
    strip = {"%i", "$PORT"}
    assert [a for a in shipped[1:] if a not in strip] == [a for a in procfile[1:] if a not in strip]


def test_the_target_starts_every_unit_once_and_beat_once():
    lines = (UNITS / "mediana.target").read_text().splitlines()
    wants = [w for line in lines if line.startswith("Wants=") for w in line[6:].split()]
    assert wants.count("mediana-beat.service") == 1
    assert {w.split("@")[0] for w in wants} >= {
        "mediana-prepare.service",
        "mediana-web",
        "mediana-worker.service",
        "mediana-bots.service",
    }


def test_nginx_config_renders_whole_and_nginx_accepts_it(tmp_path):
    conf = render_nginx.main(
        ["--local", str(tmp_path), "--listen", "127.0.0.1:18080", "--static-root", str(tmp_path)]
    )
    assert conf == 0
    site = (tmp_path / "mediana.conf").read_text()
    assert "@@" not in site
    assert "hash $mediana_table consistent;" in site
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in site  # overwritten, not appended
    assert "$request " not in site and "$request_uri" not in site.split("server {")[0]
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.skip("no nginx to check the config with")
    checked = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr


def test_nginx_config_refuses_a_field_left_unfilled_and_a_bad_network():
    with pytest.raises(ValueError, match="unfilled"):
        render_nginx.fill("listen @@LISTEN@@; @@OTHER@@", {"LISTEN": "80"})
    with pytest.raises(ValueError, match="does not appear to be"):
        render_nginx.allow_lines(["10.0.0.300"])


# ------------------------------------------------------------------ /metrics
def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.django_db(transaction=True)
def test_metrics_need_the_setting_and_the_token(settings):
    client = Client()
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics").status_code == 404
    settings.METRICS_TOKEN = "s3cret-token"
    refused = client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong")
    assert refused.status_code == 401 and refused["WWW-Authenticate"].startswith("Bearer")
    assert b"mediana_" not in refused.content
    answered = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token")
    assert answered.status_code == 200
    assert b"mediana_moves_total" in answered.content
    assert b"mediana_queue_depth" in answered.content


@pytest.mark.django_db(transaction=True)
def test_metrics_count_moves_by_kind_and_requests_by_view(settings):
    settings.METRICS_TOKEN = "s3cret-token"
    (ann,) = make_users("ann")
    table = make_table("three_five_eight", people=[ann], bots=["b1", "b2"])
    table, match = current(table)
    assert match.to_act() == [0]  # the bots moved first (eagerly): ann's turn
    moves = value("mediana_moves_total", kind=Action.Kind.PLAYER)
    assert play_action(table.id, 0, some_legal(match, 0), table.seq).applied
    assert value("mediana_moves_total", kind="player") == moves + 1
    requests = value(
        "mediana_http_request_seconds_count", method="GET", view="healthz", status="200"
    )
    assert Client().get("/healthz").status_code == 200
    after = value("mediana_http_request_seconds_count", method="GET", view="healthz", status="200")
    assert after == requests + 1


@pytest.mark.django_db(transaction=True)
def test_a_refused_action_is_not_counted_as_a_move():
    (ann,) = make_users("ann")
    table = make_table("three_five_eight", people=[ann], bots=["b1", "b2"])
    table, _ = current(table)
    before = value("mediana_moves_total", kind="player")
    with pytest.raises(TableError):
        play_action(table.id, 0, {"act": "play", "card": "ZZ"}, table.seq + 5)
    assert value("mediana_moves_total", kind="player") == before


# ------------------------------------------------------------------ error reports
def test_an_error_report_carries_no_secret():
    event = {
        "request": {
            "url": "https://mediana.example.org/tables/abc/?token=SEATSECRET",
            "query_string": "token=SEATSECRET&x=1",
            "headers": {"Authorization": "Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"},
        },
        "exception": {"values": [{"value": "no seat for /ws/tables/abc/?token=SEATSECRET"}]},
        "breadcrumbs": {"values": [{"message": "GET /accounts/password/reset/key/1-RESETKEY/"}]},
        "level": "error",
        "extra": {"count": 3},
    }
    cleaned = str(scrub(event))
    for secret in ("SEATSECRET", "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", "RESETKEY"):
        assert secret not in cleaned
    assert scrub(event)["extra"] == {"count": 3}
    assert scrub(event)["level"] == "error"


def test_nginx_config_with_a_certificate_serves_https_and_redirects_port_80(tmp_path):
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    openssl = shutil.which("openssl")
    if not Path(nginx).exists() or not openssl:
        pytest.skip("no nginx or openssl to check the config with")
    cert, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    request = [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    request += ["-subj", "/CN=t", "-keyout", str(key), "-out", str(cert)]
    made = subprocess.run(request, capture_output=True)
    assert made.returncode == 0, made.stderr
    args = ["--local", str(tmp_path), "--static-root", str(tmp_path), "--acme-root", str(tmp_path)]
    args += ["--certificate", str(cert), "--certificate-key", str(key)]
    assert render_nginx.main(args) == 0
    site = (tmp_path / "mediana.conf").read_text()
    assert "listen 443 ssl" in site and "return 301 https://$host$request_uri;" in site
    # Every server block logs without URLs (the redirect's too: old http:// links carry tokens).
    servers = site.split("server {")[1:]
    assert len(servers) == 2
    assert all("mediana_no_url;" in block and "crit;" in block for block in servers)
    checked = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr


def test_a_certificate_without_its_key_is_refused(capsys):
    with pytest.raises(SystemExit):
        render_nginx.main(["--certificate", "/etc/ssl/x.pem"])
    assert "go together" in capsys.readouterr().err
