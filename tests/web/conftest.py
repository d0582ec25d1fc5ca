"""Fixtures of the web table's tests: settings on a temporary folder, and a server running in-process."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi.testclient import TestClient
from pgcluster import Cluster, free_port, start_cluster
from webclient import make_settings, running

from astrarium.web import Settings, create_app


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with running(settings) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """One throwaway PostgreSQL cluster for the whole run (each test gets a database of its own)."""
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """Settings on each storage engine in turn: SQLite in a temporary folder, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return make_settings(tmp_path)
    cluster: Cluster = request.getfixturevalue("postgres")
    return make_settings(tmp_path, db_url=cluster.new_database())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server on a loopback port, in a thread of the test process."""
    settings = make_settings(tmp_path_factory.mktemp("browser"))
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536)
    served = uvicorn.Server(config)
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not served.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    served.should_exit = True
    thread.join(15)
