"""A throwaway PostgreSQL cluster for the tests: initdb in a temporary folder, pg_ctl start, a database per test.

Debian's postgresql package puts its programs in /usr/lib/postgresql/<version>/bin.
PostgreSQL refuses to run as root, so when the tests run as root the cluster is
made and run as the ``postgres`` user. Where PostgreSQL is missing the tests
that need it skip, saying what to install; with CI set they fail instead, so CI
can never pass without having run them.
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest


def find_program(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Cluster:
    """One PostgreSQL server on 127.0.0.1 with trust authentication, fast and not durable (fsync off: tests only)."""

    def __init__(self, initdb: str, pg_ctl: str) -> None:
        self.pg_ctl = pg_ctl
        self.base = Path(tempfile.mkdtemp(prefix="astrarium-pg-"))
        self.data = self.base / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.base, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run([initdb, "-D", str(self.data), "-U", "astrarium", "--auth=trust", "-E", "UTF8", "--no-sync"])
        options = (
            f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run([pg_ctl, "-D", str(self.data), "-o", options, "-w", "-t", "60", "-l", str(self.base / "log"), "start"])

    def _run(self, command: list[str]) -> None:
        subprocess.run(self.as_user + command, check=True, capture_output=True, timeout=120)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://astrarium@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        name = "t_" + secrets.token_hex(6)
        psql = find_program("psql") or "psql"
        subprocess.run(
            [psql, "-h", "127.0.0.1", "-p", str(self.port), "-U", "astrarium", "-d", "postgres", "-qc", f"CREATE DATABASE {name}"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        return self.url(name)

    def stop(self) -> None:
        subprocess.run(self.as_user + [self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.base, ignore_errors=True)


def start_cluster() -> Cluster:
    """A running cluster, or a skip (a failure under CI) saying what is missing."""
    initdb, pg_ctl = find_program("initdb"), find_program("pg_ctl")
    missing = None
    if initdb is None or pg_ctl is None:
        missing = "PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)"
    elif os.geteuid() == 0 and shutil.which("runuser") is None:
        missing = "running as root, and runuser is missing to run PostgreSQL as the postgres user"
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the PostgreSQL tests must run in CI: {missing}")
        pytest.skip(f"PostgreSQL tests skipped: {missing}")
    assert initdb is not None and pg_ctl is not None
    return Cluster(initdb, pg_ctl)
