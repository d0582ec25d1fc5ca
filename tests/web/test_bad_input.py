"""Bad input over the WebSocket: a clear error to that client alone, nothing changes, the server stays up.

Each test takes a snapshot of the table (its full record) and of the stored
actions before the bad input and checks both are exactly the same after it,
and that the server still answers.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webclient import Player, hub_table, make_settings, new_game, persons, running, seat_token

from astrarium.web import Settings


@pytest.fixture
def game(client: TestClient) -> dict[str, Any]:
    return new_game(client, "celestials", persons(2), me=0)


def stored(settings: Settings, table: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(Path(settings.data_dir) / "astrarium.db") as db:
        return list(db.execute("SELECT * FROM actions WHERE game_id = ? ORDER BY n", (table,)))


class Unchanged:
    """Asserts that neither the table nor the store changed, and that the server still answers."""

    def __init__(self, client: TestClient, settings: Settings, table: str) -> None:
        self.client, self.settings, self.table = client, settings, table
        self.record = hub_table(client, table).state.to_record()
        self.rows = stored(settings, table)

    def check(self) -> None:
        assert hub_table(self.client, self.table).state.to_record() == self.record
        assert stored(self.settings, self.table) == self.rows
        assert self.client.get("/api/health").json()["ok"]


@pytest.fixture
def mover(client: TestClient, game: dict[str, Any]) -> Iterator[Player]:
    with Player(client, game["table"], seat_token(game, 0)) as player:
        player.state()
        yield player


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{not json", "not-json"),
        ("", "not-json"),
        ("[1, 2]", "bad-message"),
        ('"act"', "bad-message"),
        ("null", "bad-message"),
        ('{"action": "draw", "move": 0}', "bad-message"),
        ('{"type": "resign"}', "bad-message"),
        ('{"type": "act", "action": "draw"}', "bad-message"),
        ('{"type": "act", "action": "draw", "move": "0"}', "bad-message"),
        ('{"type": "act", "action": "draw", "move": true}', "bad-message"),
        ('{"type": "act", "action": "draw", "move": 0.0}', "bad-message"),
        ('{"type": "act", "action": 7, "move": 0}', "bad-message"),
        ('{"type": "act", "action": "", "move": 0}', "bad-message"),
        ('{"type": "act", "action": "draw", "move": -1}', "bad-message"),
        ('{"type": "act", "action": "draw", "move": 0, "seat": 1}', "bad-message"),
        ('{"type": "act", "action": "draw", "move": 1' + "0" * 5000 + "}", "too-big"),
        ('{"type": "act", "action": "draw", "move": 1' + "0" * 3000 + "}", "bad-message"),
        ("[" * 2000 + "]" * 2000, "not-json"),
        ('{"type": "act", "action": "' + "x" * 600 + '", "move": 0}', "bad-message"),
        ('{"type": "ping", "ref": {"deep": [1]}}', "bad-message"),
        ('{"type": "hello", "token": "abc"}', "bad-message"),
    ],
)
def test_a_malformed_message_gets_a_clear_error_and_changes_nothing(
    client: TestClient, settings: Settings, game: dict[str, Any], mover: Player, text: str, code: str
) -> None:
    before = Unchanged(client, settings, game["table"])
    mover.send_text(text)
    problem = mover.error()
    assert problem["code"] == code
    assert 0 < len(problem["message"]) <= 200
    before.check()
    mover.send({"type": "ping", "ref": "still here"})
    assert mover.until(lambda m: m["type"] == "pong")["ref"] == "still here"


def test_an_oversized_message_is_refused_without_being_read(
    client: TestClient, settings: Settings, game: dict[str, Any], mover: Player
) -> None:
    before = Unchanged(client, settings, game["table"])
    mover.send({"type": "act", "action": "draw " * 2000, "move": 0})
    problem = mover.error()
    assert problem["code"] == "too-big" and "4,096 bytes" in problem["message"]
    mover.send_text("é" * 2100)  # under 4,096 characters, over 4,096 bytes
    assert mover.error()["code"] == "too-big"
    before.check()


def test_a_binary_message_is_refused(client: TestClient, settings: Settings, game: dict[str, Any], mover: Player) -> None:
    before = Unchanged(client, settings, game["table"])
    mover.ws.send_bytes(b'{"type": "ping"}')
    assert mover.error()["code"] == "bad-message"
    before.check()


def test_an_illegal_action_is_refused_with_the_games_reason(
    client: TestClient, settings: Settings, game: dict[str, Any], mover: Player
) -> None:
    before = Unchanged(client, settings, game["table"])
    mover.act("play unicorn Z9", 0, ref=1)
    problem = mover.error()
    assert problem["code"] == "illegal" and problem["ref"] == 1
    assert "unicorn" in problem["message"]
    before.check()


def test_an_action_out_of_turn_is_refused(client: TestClient, settings: Settings, game: dict[str, Any], mover: Player) -> None:
    with Player(client, game["table"], seat_token(game, 1)) as other:
        legal = mover.latest["legal"]  # type: ignore[index]
        before = Unchanged(client, settings, game["table"])
        other.act(legal[0], 0)  # the mover's own legal action, sent with the other seat's link
        problem = other.error()
        assert problem["code"] == "not-your-turn" and "seat 0 (A) is to move" in problem["message"]
        before.check()


def test_an_action_for_a_position_that_has_moved_on_is_refused(
    client: TestClient, settings: Settings, game: dict[str, Any], mover: Player
) -> None:
    legal = mover.latest["legal"]  # type: ignore[index]
    mover.act(legal[0], 0)
    mover.until(lambda m: m["type"] == "ack")
    before = Unchanged(client, settings, game["table"])
    mover.act(legal[0], 0)  # sent again, as after a dropped connection
    assert mover.error()["code"] == "stale"
    before.check()


def test_a_spectator_cannot_act(client: TestClient, settings: Settings, game: dict[str, Any], mover: Player) -> None:
    with Player(client, game["table"], game["watch"]["token"]) as watcher:
        watcher.state()
        before = Unchanged(client, settings, game["table"])
        watcher.act(mover.latest["legal"][0], 0)  # type: ignore[index]
        assert watcher.error()["code"] == "spectator"
        before.check()


def test_hello_is_said_once(client: TestClient, settings: Settings, game: dict[str, Any], mover: Player) -> None:
    mover.send({"type": "hello", "token": seat_token(game, 1)})
    assert mover.error()["code"] == "bad-message"
    mover.act(mover.latest["legal"][0], 0)  # type: ignore[index]
    assert mover.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"  # still seat 0


@pytest.mark.parametrize(
    ("table", "hello", "code", "close"),
    [
        ("nosuchgame", {"type": "hello", "token": "x"}, "unknown-game", 4404),
        ("a" * 40, {"type": "hello", "token": "x"}, "unknown-game", 4404),
        (None, {"type": "hello", "token": "not-a-link-of-this-game"}, "bad-link", 4403),
        (None, {"type": "act", "action": "draw", "move": 0}, "hello-first", 4400),
        (None, {"type": "hello", "token": "x" * 500}, "bad-message", 4400),
        (None, {"type": "hello", "token": 12345}, "bad-message", 4400),
    ],
)
def test_a_connection_that_does_not_open_a_seat_is_refused_and_closed(
    client: TestClient, game: dict[str, Any], table: str | None, hello: dict[str, Any], code: str, close: int
) -> None:
    with Player(client, table or game["table"], hello=False) as stranger:
        stranger.send(hello)
        assert stranger.error()["code"] == code
        assert stranger.recv() is None and stranger.closed_code == close
    assert client.get("/api/health").json()["ok"]


def test_a_link_of_another_game_opens_nothing_here(client: TestClient, settings: Settings, game: dict[str, Any]) -> None:
    other = new_game(client, "celestials", persons(2), me=0)
    before = Unchanged(client, settings, game["table"])
    for token in (seat_token(other, 0), seat_token(other, 1), other["watch"]["token"]):
        with Player(client, game["table"], token) as stranger:
            assert stranger.error()["code"] == "bad-link"
    before.check()


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, hello_timeout=0.2)) as client:
        made = new_game(client, "orbital-combat", persons(2))
        with Player(client, made["table"], hello=False) as silent:
            assert silent.error()["code"] == "hello-first"
            assert silent.recv() is None and silent.closed_code == 4408


def test_a_flood_is_answered_once_a_second_then_closed_while_other_players_go_on(tmp_path: Path) -> None:
    tight = make_settings(tmp_path, messages_per_second=5.0, message_burst=5, flood_close_after=40)
    with running(tight) as client:
        made = new_game(client, "orbital-combat", persons(2), me=0)
        with Player(client, made["table"], seat_token(made, 0)) as flooder, Player(client, made["table"], seat_token(made, 1)) as calm:
            flooder.state()
            calm.state()
            for _ in range(60):
                flooder.send_text(json.dumps({"type": "ping"}))
            answers = []
            while (message := flooder.recv()) is not None:
                answers.append(message)
            assert flooder.closed_code == 4429
            pongs = [m for m in answers if m["type"] == "pong"]
            floods = [m for m in answers if m["type"] == "error" and m["code"] == "flood"]
            assert 5 <= len(pongs) < 10
            assert 1 <= len(floods) <= 3  # not one error per dropped message
            calm.send({"type": "ping"})
            assert calm.until(lambda m: m["type"] == "pong") == {"type": "pong"}
        assert hub_table(client, made["table"]).state.move_number == 0


def test_the_server_hides_its_faults(
    client: TestClient, game: dict[str, Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    table = hub_table(client, game["table"])

    def broken(seat: int | None) -> dict[str, Any]:
        raise RuntimeError("secret card: phoenix")

    monkeypatch.setattr(table, "summary", lambda: broken(None))
    response = client.get(f"/api/tables/{game['table']}")
    assert response.status_code == 500
    assert response.json() == {"error": {"code": "internal", "message": "the server failed; nothing was changed"}}
    assert "phoenix" not in caplog.text and "RuntimeError" in caplog.text
    assert client.get("/api/health").json()["ok"]
