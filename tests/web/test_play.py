"""Live play over the WebSocket: views per seat, acknowledgements after the commit, computer players, the end."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import random
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webclient import WAIT, Player, hub_table, make_settings, new_game, persons, running, seat_token, stored_actions

import astrarium.web.computer as hub_module
from astrarium.core import replay
from astrarium.web import Settings


def test_each_seat_gets_its_own_view_and_only_the_mover_gets_legal_actions(client: TestClient) -> None:
    made = new_game(client, "constellations", persons(2), me=0)
    table = hub_table(client, made["table"])
    with (
        Player(client, made["table"], seat_token(made, 0)) as a,
        Player(client, made["table"], seat_token(made, 1)) as b,
        Player(client, made["table"], made["watch"]["token"]) as watcher,
    ):
        for player, seat in ((a, 0), (b, 1), (watcher, None)):
            welcome = player.until(lambda m: m["type"] == "welcome")
            assert welcome["seat"] == seat
            state = player.state()
            assert state["view"] == table.state.picture_view(seat)
            assert state["picture"] == table.game.render_svg(state["view"])
            mover = table.state.current_player
            expected = [str(x) for x in table.state.legal_actions()] if seat == mover else []
            assert state["legal"] == expected
            assert set(state["tokens"]) == set(expected)
        assert a.seen[-1]["view"]["hand"] != b.seen[-1]["view"]["hand"]
        assert watcher.seen[-1]["view"]["hand"] is None


def test_two_people_each_play_a_streamlines_turn_and_everyone_sees_every_move(client: TestClient) -> None:
    made = new_game(client, "streamlines", persons(2), me=0)
    table = hub_table(client, made["table"])
    with (
        Player(client, made["table"], seat_token(made, 0)) as a,
        Player(client, made["table"], seat_token(made, 1)) as b,
        Player(client, made["table"], made["watch"]["token"]) as watcher,
    ):
        players = {0: a, 1: b}
        states = {p: p.state() for p in (a, b, watcher)}
        rng = random.Random(3)
        turns_done: set[int] = set()
        move = 0
        while len(turns_done) < 2:
            mover = states[a]["to_move"]
            current = states[players[mover]]
            action = rng.choice(current["legal"])
            players[mover].act(action, move, ref=f"m{move}")
            acked = players[mover].until(lambda m: m["type"] in ("ack", "error"))
            assert acked == {"type": "ack", "move": move + 1, "action": action, "ref": f"m{move}"}
            move += 1
            for p in (a, b, watcher):
                states[p] = p.state(move)
                assert states[p]["events"][-1] == {"n": move, "seat": mover, "text": action}
            if states[a]["to_move"] != mover:
                turns_done.add(mover)
        assert table.state.history == [e["text"] for e in watcher.seen if e["type"] == "state" for e in e["events"]]


def test_an_action_is_acknowledged_only_once_it_is_stored(backend: Settings) -> None:
    with running(backend) as client:
        made = new_game(client, "orbital-combat", persons(2), me=0)
        with Player(client, made["table"], seat_token(made, 0)) as a:
            state = a.state()
            a.act(state["legal"][0], 0)
            ack = a.until(lambda m: m["type"] == "ack")
            assert stored_actions(backend, made["table"]) == [(1, 0, ack["action"])]


def test_the_event_log_resumes_after_the_last_move_a_client_saw(client: TestClient) -> None:
    made = new_game(client, "orbital-combat", persons(2), me=0)
    tokens = [seat_token(made, 0), seat_token(made, 1)]
    with Player(client, made["table"], tokens[0]) as a, Player(client, made["table"], tokens[1]) as b:
        players = [a, b]
        state = a.state()
        for move in range(3):
            mover = state["to_move"]
            players[mover].act(players[mover].position(move)["legal"][0], move)
            state = a.state(move + 1)
            b.state(move + 1)
    history = hub_table(client, made["table"]).state.history
    with Player(client, made["table"], tokens[1], since=2) as late:
        assert [e["text"] for e in late.state()["events"]] == history[2:]
    with Player(client, made["table"], tokens[1], since=0) as fresh:
        assert [e["text"] for e in fresh.state()["events"]] == history


def test_a_computer_player_thinks_in_another_process_and_its_moves_are_stored_like_anyones(client: TestClient, settings: Settings) -> None:
    made = new_game(client, "constellations", [{"kind": "person"}, {"kind": "computer", "level": "medium"}], me=0)
    with Player(client, made["table"], seat_token(made, 0)) as a:
        state = a.state()
        move = 0
        while not any(seat == 1 for _, seat, _ in stored_actions(settings, made["table"])):
            assert state["to_move"] == 0
            a.act(state["legal"][-1], state["move"])
            done = move
            state = a.until(lambda m, done=done: m["type"] == "state" and (m["to_move"] == 0 or m["over"]) and m["move"] > done)
            move = state["move"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub._pool is not None and hub._pool._processes  # the pool's worker processes did the thinking
    rows = stored_actions(settings, made["table"])
    assert [n for n, _, _ in rows] == list(range(1, len(rows) + 1))
    assert [text for _, _, text in rows] == hub_table(client, made["table"]).state.history


def test_a_thinking_computer_never_holds_up_another_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The computer's search runs in the pool as usual, but its answer is held until the test lets it go: the other game's
    # moves are played while it is certainly still thinking, however slow the machine.
    released = threading.Event()
    real_run_job = hub_module.run_job

    async def held(pool: Any, job: Any, timeout: float) -> str:
        notation = await real_run_job(pool, job, timeout)
        await asyncio.to_thread(released.wait, WAIT)
        return notation

    monkeypatch.setattr(hub_module, "run_job", held)
    slow = make_settings(tmp_path, levels={"slow": "mcts:seconds=0.5"})
    with running(slow) as client:
        thinking = new_game(client, "orbital-combat", [{"kind": "computer", "level": "slow"}, {"kind": "person"}], me=1)
        other = new_game(client, "orbital-combat", persons(2), me=0)
        busy = hub_table(client, thinking["table"])
        assert busy.thinking is not None
        with Player(client, other["table"], seat_token(other, 0)) as a, Player(client, other["table"], seat_token(other, 1)) as b:
            players = [a, b]
            for move in range(4):
                mover = a.position(move)["to_move"]
                players[mover].act(players[mover].position(move)["legal"][0], move)
                assert players[mover].until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            # Four moves of the other game were stored and acknowledged while the computer was still thinking.
            assert busy.thinking is not None and busy.state.move_number == 0
        released.set()
        with Player(client, thinking["table"], seat_token(thinking, 1)) as waiting:
            assert waiting.state(1)["events"][0]["seat"] == 0


def test_a_computer_that_overruns_its_time_plays_a_random_legal_action(tmp_path: Path) -> None:
    hasty = make_settings(tmp_path, levels={"slow": "mcts:iterations=2000"}, think_timeout=0.001)
    with running(hasty) as client:
        made = new_game(client, "orbital-combat", [{"kind": "computer", "level": "slow"}, {"kind": "person"}], me=1)
        with Player(client, made["table"], seat_token(made, 1)) as person:
            state = person.state(1)
            assert state["events"][0]["seat"] == 0
            assert hub_table(client, made["table"]).state.history[0] == state["events"][0]["text"]


def play_to_the_end(client: TestClient, made: dict[str, Any], seed: int) -> list[Player]:
    players = [Player(client, made["table"], s["token"]) for s in made["seats"]]
    rng = random.Random(seed)
    state = players[0].state()
    while not state["over"]:
        mover = players[state["to_move"]]
        mover.act(rng.choice(mover.position(state["move"])["legal"]), state["move"])
        state = players[0].state(state["move"] + 1)
    return players


def test_a_finished_game_offers_its_full_record_and_a_sandboxed_replay(client: TestClient) -> None:
    made = new_game(client, "orbital-combat", persons(2), me=0, options={"round_limit": 3})
    players = play_to_the_end(client, made, seed=5)
    table = hub_table(client, made["table"])
    final = players[1].until(lambda m: m["type"] == "state" and m["over"]) if not players[1].latest["over"] else players[1].latest
    assert final["result"]["reason"] == table.state.outcome.reason
    players[0].act("coast", final["move"])
    assert players[0].error()["code"] == "game-over"
    for p in players:
        p.close()
    response = client.post(f"/api/tables/{made['table']}/record", data={"token": seat_token(made, 0)})
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["seed"] == table.state.seed
    assert replay(record).history == table.state.history
    assert record["seats"] == {"0": "person", "1": "person"}
    page = client.post(f"/api/tables/{made['table']}/replay", data={"token": seat_token(made, 1)})
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    assert "sandbox allow-scripts" in csp
    scripts = re.findall(r"<script>(.*?)</script>", page.text, re.S)
    assert scripts
    for script in scripts:
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp


def test_a_finished_game_leaves_memory_when_nobody_watches_and_comes_back_on_request(client: TestClient) -> None:
    made = new_game(client, "orbital-combat", persons(2), me=0, options={"round_limit": 2})
    players = play_to_the_end(client, made, seed=8)
    for p in players:
        p.close()
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert made["table"] not in hub.tables
    assert client.get(f"/api/tables/{made['table']}").json()["over"]
    with Player(client, made["table"], made["watch"]["token"]) as watcher:
        assert watcher.state()["over"]


def test_a_client_that_draws_nothing_gets_positions_without_pictures(client: TestClient) -> None:
    made = new_game(client, "constellations", persons(2), me=0)
    with (
        Player(client, made["table"], seat_token(made, 0), hello=False) as bot,
        Player(client, made["table"], seat_token(made, 1)) as person,
    ):
        bot.send({"type": "hello", "token": seat_token(made, 0), "picture": False})
        state = bot.state()
        assert state["picture"] is None and state["legal"]
        assert person.state()["picture"].startswith("<svg")
