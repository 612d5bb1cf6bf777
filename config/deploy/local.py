"""`make deploy-local`: the whole deployment on this machine, for a try-out.

From the repository's own files: nginx (config/deploy/nginx.conf) in front of N uvicorn table
servers, a Celery worker for each queue and one beat (Procfile), run by honcho, on PostgreSQL
and Redis.

    make deploy-local                       # http://127.0.0.1:8080/, two table servers
    make deploy-local SERVERS=4 LISTEN=127.0.0.1:9000 FIRST_PORT=8101

The demo is loaded when the database is new (later starts keep its accounts and passwords).

What it keeps in var/deploy/ (made once, 0600): the secrets every process shares (SECRET_KEY,
METRICS_TOKEN, the VAPID key pair), nginx's files and the metrics of the running processes
(emptied at every start). docs/deployment.md runs the same processes under systemd.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
FIRST_PORT = 8001


def shared_secrets(path: Path) -> dict[str, str]:
    """The secrets every process of the deployment shares, made once and kept in `path`."""
    if not path.exists():
        sys.path.insert(0, str(ROOT))
        from config.vapid import generate_pair

        private, public = generate_pair()
        lines = {
            "SECRET_KEY": secrets.token_urlsafe(50),
            "METRICS_TOKEN": secrets.token_urlsafe(32),
            "VAPID_PRIVATE_KEY": private,
            "VAPID_PUBLIC_KEY": public,
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.writelines(f"{k}={v}\n" for k, v in lines.items())
    return dict(line.split("=", 1) for line in path.read_text().split())


def environment(var: Path, listen: str, base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of every process: PostgreSQL and Redis, no debug, nginx the only trusted
    proxy, the metrics shared across processes (prometheus-client's multiprocess mode)."""
    env = dict(os.environ if base is None else base)
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mediana_local")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/2")
    host = listen.rpartition(":")[0] or "127.0.0.1"
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "ALLOWED_HOSTS": f"{host},localhost",
            "SITE_URL": f"http://{listen}" if ":" in listen else f"http://{host}:{listen}",
            "TRUSTED_PROXIES": "127.0.0.1,::1",
            "PROMETHEUS_MULTIPROC_DIR": str(var / "metrics"),
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.setdefault("STATIC_ROOT", str(ROOT / "staticfiles"))
    env.update(shared_secrets(var / "env"))
    return env


def create_database(url: str) -> bool:
    """The PostgreSQL database of DATABASE_URL, created if missing (a try-out's own); whether
    it was."""
    name = url.rsplit("/", 1)[1].split("?")[0]
    server = url.rsplit("/", 1)[0] + "/postgres"
    exists = subprocess.run(
        ["psql", server, "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"],
        capture_output=True,
        text=True,
        check=True,
    )
    if exists.stdout.strip() == "1":
        return False
    subprocess.run(["psql", server, "-qc", f'CREATE DATABASE "{name}"'], check=True)
    return True


def prepare(
    env: dict[str, str],
    var: Path,
    servers: int,
    listen: str,
    demo: bool,
    first_port: int = FIRST_PORT,
) -> Path:
    """Migrate, collect static files, write nginx's files, empty the metrics; nginx.conf's path."""
    # Emptied first: every process, the commands below included, writes its figures there.
    metrics = Path(env["PROMETHEUS_MULTIPROC_DIR"])
    shutil.rmtree(metrics, ignore_errors=True)
    metrics.mkdir(parents=True)
    created = create_database(env["DATABASE_URL"])
    manage = [str(BIN / "python"), "manage.py"]
    subprocess.run([*manage, "migrate", "--no-input"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [*manage, "collectstatic", "--no-input", "--verbosity", "0"], cwd=ROOT, env=env, check=True
    )
    if demo and created:  # once: loading it again would change the demo players' passwords
        subprocess.run(
            [*manage, "load_demo", "--base-url", env["SITE_URL"]], cwd=ROOT, env=env, check=True
        )
    ports = [f"127.0.0.1:{first_port + i}" for i in range(servers)]
    render = [str(BIN / "python"), str(ROOT / "config/deploy/render_nginx.py")]
    render += ["--local", str(var / "nginx"), "--listen", listen, "--servers", ",".join(ports)]
    render += ["--static-root", env["STATIC_ROOT"]]
    subprocess.run(render, check=True, stdout=subprocess.DEVNULL)
    return var / "nginx" / "nginx.conf"


Process = tuple[str, list[str], dict[str, str]]


def processes(
    env: dict[str, str], servers: int, nginx_conf: Path, first_port: int = FIRST_PORT
) -> list[Process]:
    """Every process as honcho starts it: the Procfile's, expanded by honcho's own parser (N
    web processes on ports 8001..), and nginx. (name, argv, environment) each."""
    from honcho.environ import expand_processes, parse_procfile

    procfile = parse_procfile((ROOT / "Procfile").read_text())
    out = []
    for p in expand_processes(
        procfile.processes, concurrency={"web": servers}, env=env, port=first_port
    ):
        out.append((p.name, ["/bin/sh", "-c", p.cmd], p.env))
    nginx = [NGINX, "-p", str(nginx_conf.parent), "-c", str(nginx_conf), "-e", "stderr"]
    out.append(("nginx", nginx, env))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=2, help="uvicorn table servers")
    parser.add_argument("--listen", default="127.0.0.1:8080", help="nginx's address")
    parser.add_argument("--var", default=str(ROOT / "var" / "deploy"))
    parser.add_argument(
        "--first-port", type=int, default=FIRST_PORT, help="the first table server's port"
    )
    parser.add_argument(
        "--no-demo", action="store_true", help="do not load the demo into a new database"
    )
    args = parser.parse_args(argv)
    var = Path(args.var).resolve()
    env = environment(var, args.listen)
    nginx_conf = prepare(
        env, var, args.servers, args.listen, not args.no_demo, first_port=args.first_port
    )
    # honcho runs the Procfile and nginx beside it; Ctrl-C stops them all.
    procfile = var / "Procfile"
    nginx = f"{NGINX} -p {nginx_conf.parent} -c {nginx_conf} -e stderr"
    procfile.write_text((ROOT / "Procfile").read_text() + f"proxy: {nginx}\n")
    print(f"Mediana on http://{args.listen}/ (metrics: bearer token in {var / 'env'})")
    print("honcho stops every process when one dies; run `make deploy-local` again to go on.")
    honcho = [str(BIN / "honcho"), "start", "-f", str(procfile), "-d", str(ROOT)]
    honcho += ["-c", f"web={args.servers}", "-p", str(args.first_port)]
    os.execve(honcho[0], honcho, env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
