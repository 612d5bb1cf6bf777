"""The figures of a machine that runs no table server (Celery workers or beat only), for
Prometheus: every process's files in PROMETHEUS_MULTIPROC_DIR added up, served on a port that
only the scraper reaches (docs/deployment.md, "Several machines"). No Django.

    PROMETHEUS_MULTIPROC_DIR=/run/mediana/metrics \\
        .venv/bin/python config/deploy/metrics_server.py --host 10.0.0.7 --port 9108
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9108)
    args = parser.parse_args(argv)
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        parser.error("PROMETHEUS_MULTIPROC_DIR must name the workers' metrics folder")
    from prometheus_client import CollectorRegistry, multiprocess, start_http_server

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    start_http_server(args.port, addr=args.host, registry=registry)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    sys.exit(main())
