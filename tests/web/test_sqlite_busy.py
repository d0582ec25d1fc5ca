"""Another server process's write lock on the shared SQLite file is waited for in short steps (web/storage.py)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from astrarium.web import storage


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


def test_the_writer_takes_the_lock_once_the_other_process_lets_it_go(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    other, mine = connect(path), connect(path)
    other.execute("CREATE TABLE t (x INTEGER)")
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(sqlite3.OperationalError):
        mine.execute("BEGIN IMMEDIATE")  # taken: refused at once without waiting
    release = threading.Timer(0.05, lambda: other.execute("COMMIT"))
    release.start()
    storage._begin_when_free(mine)
    mine.execute("INSERT INTO t VALUES (2)")
    mine.execute("COMMIT")
    release.join()
    assert [r[0] for r in mine.execute("SELECT x FROM t ORDER BY x")] == [1, 2]


def test_a_lock_held_past_the_patience_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "shared.db"
    other, mine = connect(path), connect(path)
    other.execute("CREATE TABLE t (x INTEGER)")
    other.execute("BEGIN IMMEDIATE")
    monkeypatch.setattr(storage, "BUSY_PATIENCE", 0.05)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        storage._begin_when_free(mine)
    assert not mine.in_transaction
    other.execute("ROLLBACK")
