"""The store: migrations, one move per number whatever happens, group commits that keep each caller's promise."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from astrarium.web import Settings
from astrarium.web.storage import Conflict, Store, StoredGame, StoredSeat


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_two_writers_can_never_both_store_the_same_move(backend: Settings) -> None:
    backend.data_dir.mkdir(parents=True, exist_ok=True)
    store = Store(backend.database_url())
    await store.migrate()
    await store.migrate()  # migrating an up-to-date database changes nothing
    game = StoredGame("game1", "orbital-combat", 2, 7, {}, False, "h", [StoredSeat(0, "person"), StoredSeat(1, "person")])
    assert await store.insert_game(game)
    assert not await store.insert_game(game)
    await store.append("game1", 1, 0, "coast w0 d10", 1, None)
    with pytest.raises(Conflict):
        await store.append("game1", 1, 0, "coast w0 d9", 1, None)
    loaded = await store.load("game1")
    assert loaded is not None and [a.notation for a in loaded.actions] == ["coast w0 d10"] and loaded.moves == 1
    await store.close()


def two_seats(game_id: str) -> StoredGame:
    return StoredGame(game_id, "orbital-combat", 2, 7, {}, False, "h", [StoredSeat(0, "person"), StoredSeat(1, "person")])


@pytest.mark.anyio
async def test_appends_from_many_games_at_once_are_each_stored_or_refused_on_their_own(backend: Settings) -> None:
    backend.data_dir.mkdir(parents=True, exist_ok=True)
    store = Store(backend.database_url())
    await store.migrate()
    for number in range(10):
        assert await store.insert_game(two_seats(f"game{number}"))
    moves = [store.append(f"game{number}", 1, 0, f"coast w0 d{number}", 1, None) for number in range(10)]
    moves.append(store.append("game3", 1, 0, "coast w0 d99", 1, None))  # a second move 1 for one game, in the same batch
    outcomes = await asyncio.gather(*moves, return_exceptions=True)
    assert outcomes[:3] == [None] * 3 and outcomes[4:10] == [None] * 6
    assert sorted(type(o).__name__ for o in (outcomes[3], outcomes[10])) == ["Conflict", "NoneType"]
    for number in range(10):
        loaded = await store.load(f"game{number}")
        assert loaded is not None and loaded.moves == 1 and len(loaded.actions) == 1
    await store.close()


@pytest.mark.anyio
async def test_a_move_stores_the_movers_clock_and_the_last_one_the_result(backend: Settings) -> None:
    backend.data_dir.mkdir(parents=True, exist_ok=True)
    store = Store(backend.database_url())
    await store.migrate()
    assert await store.insert_game(two_seats("clocked"))
    await store.append("clocked", 1, 0, "coast w0 d10", 1, None, clock_used=12.5)
    middle = await store.load("clocked")
    assert middle is not None and middle.finished_at is None and middle.result is None and middle.to_move == 1
    assert [s.clock_used for s in middle.seats] == [12.5, 0.0]
    result = {"winners": [1], "reason": "seat 0 is destroyed", "returns": [0.0, 1.0]}
    await store.append("clocked", 2, 1, "coast w0 d9", None, result)
    ended = await store.load("clocked")
    assert ended is not None and ended.moves == 2 and ended.to_move is None and ended.result == result
    assert ended.finished_at is not None and ended.updated_at is not None and ended.finished_at >= ended.created_at  # type: ignore[operator]
    assert [s.clock_used for s in ended.seats] == [12.5, 0.0] and [a.notation for a in ended.actions] == ["coast w0 d10", "coast w0 d9"]
    await store.close()


@pytest.mark.anyio
@pytest.mark.parametrize("synchronous", ["NORMAL", "FULL"])
async def test_a_move_waits_for_another_writer_of_the_sqlite_file_without_stopping_the_server(tmp_path: Path, synchronous: str) -> None:
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'astrarium.db'}", synchronous)
    await store.migrate()
    assert await store.insert_game(two_seats("shared"))
    other = sqlite3.connect(tmp_path / "astrarium.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock until the event loop has ticked ten times
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while ticks < 10:
            await asyncio.sleep(0.02)
            ticks += 1
        other.execute("COMMIT")

    ticker = asyncio.create_task(tick())
    # Were the loop held up by the wait, the lock would never be let go and the store would give up (BUSY_PATIENCE).
    await store.append("shared", 1, 0, "coast w0 d10", 1, None)
    await ticker
    other.close()
    assert ticks == 10  # the event loop went on while the move waited for the lock
    loaded = await store.load("shared")
    assert loaded is not None and [a.notation for a in loaded.actions] == ["coast w0 d10"]
    await store.close()
