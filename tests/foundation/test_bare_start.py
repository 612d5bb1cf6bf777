"""With no configuration at all (no SECRET_KEY, no DEBUG, no URLs) the project runs embedded:
the commands work and a server started by hand answers on localhost."""

from __future__ import annotations

import json
import urllib.request

from tests.procs import free_port, manage, procfile_uvicorn, running


def test_commands_and_a_hand_started_server_need_no_configuration(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "MEDIANA_VAR_DIR": str(tmp_path / "var")}

    manage(env, "migrate", "--no-input", "-v", "0")
    created = json.loads(
        manage(
            env, "create_table", "--game", "saichugen", "--players", "ana,ben,bot", "--bots", "1"
        )
    )
    record = json.loads(manage(env, "export_record", "--table", created["table"]))
    assert record["game"] == "saichugen"
    port = free_port()
    with running(procfile_uvicorn(port), env, port):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{created['url']}") as page:
            assert page.status == 200
        with urllib.request.urlopen(f"http://localhost:{port}/healthz") as health:
            assert json.load(health)["status"] == "up"
