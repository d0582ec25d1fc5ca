"""Fixtures of the web table's tests: settings on a temporary folder, and a server running in-process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pgcluster import Cluster, start_cluster
from webclient import make_settings, running

from astrarium.web import Settings


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
