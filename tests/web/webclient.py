"""Helpers for the web table's tests: a server in-process on a temporary database, and WebSocket clients.

The server runs inside the test process (Starlette's TestClient drives the
ASGI app on its own event loop), with computer players that answer at once
(random and greedy) so the tests take seconds, not minutes. (A module of its
own name rather than conftest.py, which tests/ has too.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import create_async_engine

from astrarium.web import Settings, create_app

#: Computer levels for tests: quick players, so a computer's turn takes milliseconds.
FAST_LEVELS = {"easy": "random", "medium": "greedy", "hard": "mcts:iterations=30"}
#: How long a test waits for a message before it fails (instead of hanging).
WAIT = 20.0


def make_settings(folder: Path, **changes: Any) -> Settings:
    values: dict[str, Any] = {"data_dir": folder, "levels": FAST_LEVELS, "computer_workers": 1, "hello_timeout": 10.0}
    values.update(changes)
    return Settings(**values)


@contextlib.contextmanager
def running(settings: Settings) -> Iterator[TestClient]:
    """A server in-process; WebSockets a test left open are closed before it stops (or its event loop would wait for them)."""
    with TestClient(create_app(settings)) as test_client:
        try:
            yield test_client
        finally:
            while Player.open:
                Player.open[-1].close()


def new_game(client: TestClient, game: str, seats: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    """Make a game through the lobby API; returns the server's answer (ids and links)."""
    response = client.post("/api/tables", json={"game": game, "seats": seats, **fields})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def persons(count: int) -> list[dict[str, Any]]:
    return [{"kind": "person"} for _ in range(count)]


def seat_token(made: dict[str, Any], seat: int) -> str:
    token: str = made["seats"][seat]["token"]
    return token


class Player:
    """One WebSocket client of a table; every message it receives is kept in ``seen``, the newest position in ``latest``."""

    open: list[Player] = []

    def __init__(self, client: TestClient, table: str, token: str | None = None, since: int = 0, hello: bool = True) -> None:
        self.ws = client.websocket_connect(f"/ws/{table}")
        self.ws.__enter__()
        Player.open.append(self)
        self.seen: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.latest: dict[str, Any] | None = None
        self.closed_code: int | None = None
        if hello:
            message: dict[str, Any] = {"type": "hello", "since": since}
            if token is not None:
                message["token"] = token
            self.send(message)

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(message))

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)

    def recv(self, timeout: float = WAIT) -> dict[str, Any] | None:
        """The next message, or None once the server closed the connection (its code is kept in ``closed_code``)."""
        ws = self.ws

        async def receive() -> Any:
            with anyio.fail_after(timeout):
                # The test session's own stream, read with a deadline so a missing message fails the test instead of hanging it.
                return await ws._send_rx.receive()

        message = ws.portal.call(receive)
        if message["type"] == "websocket.close":
            self.closed_code = message.get("code", 1000)
            return None
        text = message["text"]
        self.raw.append(text)
        data: dict[str, Any] = json.loads(text)
        self.seen.append(data)
        if data["type"] == "state":
            self.latest = data
        return data

    def until(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
        """Read messages until one satisfies ``wanted`` (failing if the connection closes first)."""
        while True:
            message = self.recv(timeout)
            assert message is not None, f"connection closed (code {self.closed_code}) while waiting; last: {self.seen[-3:]}"
            if wanted(message):
                return message

    def state(self, move: int | None = None) -> dict[str, Any]:
        """The next position message (at or after ``move`` when given)."""
        return self.until(lambda m: m["type"] == "state" and (move is None or m["move"] >= move))

    def position(self, move: int) -> dict[str, Any]:
        """The position after ``move`` (or later): the newest one received, or the next to come."""
        if self.latest is not None and self.latest["move"] >= move:
            return self.latest
        return self.state(move)

    def error(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error")

    def act(self, action: str, move: int, ref: str | int | None = None) -> None:
        message: dict[str, Any] = {"type": "act", "action": action, "move": move}
        if ref is not None:
            message["ref"] = ref
        self.send(message)

    def close(self) -> None:
        if self in Player.open:
            Player.open.remove(self)
            self.ws.__exit__(None, None, None)

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()


def hub_table(client: TestClient, table: str) -> Any:
    """The server's own table (tests look at the hidden state they check messages against)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub.tables.get(table) or hub.finished[table]


def sql(settings: Settings, statement: str, **params: Any) -> list[tuple[Any, ...]]:
    """Run one SQL statement on the server's database, from outside the server (as a backup tool or an operator would)."""

    async def run() -> list[tuple[Any, ...]]:
        engine = create_async_engine(settings.database_url())
        try:
            async with engine.begin() as conn:
                result = await conn.execute(sa.text(statement), params)
                return [tuple(row) for row in result] if result.returns_rows else []
        finally:
            await engine.dispose()

    return asyncio.run(run())


def stored_actions(settings: Settings, table: str) -> list[tuple[Any, ...]]:
    """The stored actions of a game: (move, seat, notation) in order."""
    return sql(settings, "SELECT n, seat, notation FROM actions WHERE game_id = :table ORDER BY n", table=table)
