"""Fill in config/deploy/nginx.conf (and, for `make deploy-local`, nginx-local.conf around it).

    .venv/bin/python config/deploy/render_nginx.py --servers 127.0.0.1:8001,127.0.0.1:8002 \\
        --listen 80 --server-name mediana.example.org --static-root /srv/mediana/staticfiles \\
        > /etc/nginx/sites-available/mediana
    .venv/bin/python config/deploy/render_nginx.py --local var/deploy/nginx ...   # a whole nginx

A plain script (no Django), so an operator can run it before anything else is set up.
"""

from __future__ import annotations

import argparse
import getpass
import ipaddress
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def fill(template: str, fields: dict[str, str]) -> str:
    """Replace each @@NAME@@; a field left unfilled is an error, not a broken config."""
    for name, value in fields.items():
        template = template.replace(f"@@{name}@@", value)
    if "@@" in template:
        raise ValueError(f"unfilled field in {template[template.index('@@') :][:40]!r}")
    return template


def server_lines(servers: list[str]) -> str:
    """`server host:port max_fails=1 fail_timeout=5s;` for each table server: a dead one is
    left out for 5 s after one failed connection, and its sockets' reconnects go elsewhere."""
    return "\n".join(f"    server {s} max_fails=1 fail_timeout=5s;" for s in servers)


def allow_lines(networks: list[str]) -> str:
    for network in networks:
        ipaddress.ip_network(network, strict=False)  # a typo is refused here, not by nginx
    return "\n".join(f"        allow {n};" for n in networks)


def listen_lines(args: argparse.Namespace, log_dir: str) -> tuple[str, str]:
    """The site's `listen` and TLS lines, and the port-80 server that redirects to HTTPS (empty
    without a certificate: plain HTTP on --listen)."""
    if not args.certificate:
        return f"    listen {args.listen};", ""
    lines = [
        "    listen 443 ssl http2;",
        "    listen [::]:443 ssl http2;",
        f"    ssl_certificate     {args.certificate};",
        f"    ssl_certificate_key {args.certificate_key};",
        "    ssl_protocols       TLSv1.2 TLSv1.3;",
        "    ssl_session_cache   shared:mediana_tls:10m;",
    ]
    redirect = "\n".join(
        [
            "server {",
            "    listen 80;",
            "    listen [::]:80;",
            f"    server_name {args.server_name};",
            # no URL in the logs here either: links mailed before HTTPS still come this way
            f"    access_log {log_dir}/mediana-access.log mediana_no_url;",
            f"    error_log {log_dir}/mediana-error.log crit;",
            "    location ^~ /.well-known/acme-challenge/ {",
            f"        root {args.acme_root};",
            "    }",
            "    location / {",
            "        return 301 https://$host$request_uri;",
            "    }",
            "}",
        ]
    )
    return "\n".join(lines), redirect


def site(args: argparse.Namespace, log_dir: str) -> str:
    listen, redirect = listen_lines(args, log_dir)
    return fill(
        (HERE / "nginx.conf").read_text(),
        {
            "SERVERS": server_lines(args.servers),
            "LISTEN_LINES": listen,
            "REDIRECT_SERVER": redirect,
            "ACME_ROOT": args.acme_root,
            # the address nginx connects to the table servers from: their TRUSTED_PROXIES
            "PROXY_BIND": f"    proxy_bind {args.bind};" if args.bind else "",
            "SERVER_NAME": args.server_name,
            "STATIC_ROOT": str(Path(args.static_root).resolve()),
            "METRICS_ALLOW": allow_lines(args.metrics_allow),
            "LOG_DIR": log_dir,
        },
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--servers",
        type=lambda v: [s for s in v.split(",") if s],
        default=["127.0.0.1:8001", "127.0.0.1:8002"],
        help="the table servers (uvicorn), host:port, comma-separated",
    )
    parser.add_argument("--listen", default="80", help="nginx's listen address or port")
    parser.add_argument("--server-name", default="_")
    parser.add_argument("--static-root", default="staticfiles", help="STATIC_ROOT")
    parser.add_argument(
        "--metrics-allow",
        type=lambda v: [s for s in v.split(",") if s],
        default=["127.0.0.1", "::1"],
        help="networks that may scrape /metrics through nginx (it also needs METRICS_TOKEN)",
    )
    parser.add_argument("--log-dir", default="/var/log/nginx")
    parser.add_argument(
        "--bind",
        help="connect to the table servers from this address (a machine with several: the "
        "one in their TRUSTED_PROXIES)",
    )
    parser.add_argument(
        "--certificate",
        help="the TLS certificate chain (fullchain.pem): serve HTTPS on 443, redirect 80 to it",
    )
    parser.add_argument("--certificate-key", help="its private key (privkey.pem)")
    parser.add_argument(
        "--acme-root",
        default="/var/www/html",
        help="where certbot --webroot writes its challenges (/.well-known/acme-challenge/)",
    )
    parser.add_argument(
        "--local",
        metavar="PREFIX",
        help="write a whole nginx for an ordinary user under PREFIX (nginx.conf, mediana.conf)",
    )
    args = parser.parse_args(argv)
    if bool(args.certificate) != bool(args.certificate_key):
        parser.error("--certificate and --certificate-key go together")
    if not args.local:
        sys.stdout.write(site(args, args.log_dir))
        return 0
    prefix = Path(args.local).resolve()
    prefix.mkdir(parents=True, exist_ok=True)
    (prefix / "mediana.conf").write_text(site(args, str(prefix)))
    fields = {"PREFIX": str(prefix), "USER": getpass.getuser()}
    whole = fill((HERE / "nginx-local.conf").read_text(), fields)
    (prefix / "nginx.conf").write_text(whole)
    print(prefix / "nginx.conf")
    return 0


if __name__ == "__main__":
    sys.exit(main())
