"""A server that stops and starts again: every unfinished game is rebuilt by replay, links still work, computers go on."""

from __future__ import annotations

import random
from pathlib import Path

from webclient import Player, hub_table, make_settings, new_game, persons, running, seat_token, sql

from astrarium.web import Settings


def test_unfinished_games_are_rebuilt_by_replay_after_a_restart(backend: Settings) -> None:
    settings = backend
    with running(settings) as client:
        made = new_game(client, "celestials", persons(2), me=0)
        finished = new_game(client, "orbital-combat", persons(2), me=0, options={"round_limit": 1})
        tokens = [seat_token(made, 0), seat_token(made, 1)]
        players = [Player(client, made["table"], t) for t in tokens]
        rng = random.Random(2)
        for move in range(12):
            mover = players[players[0].position(move)["to_move"]]
            mover.act(rng.choice(mover.position(move)["legal"]), move)
            players[0].state(move + 1)
        before = hub_table(client, made["table"]).state.to_record()
        views = [hub_table(client, made["table"]).state.picture_view(seat) for seat in (0, 1, None)]
        ended = [Player(client, finished["table"], seat_token(finished, s)) for s in (0, 1)]
        state = ended[0].position(0)
        while not state["over"]:
            mover = ended[state["to_move"]]
            mover.act(mover.position(state["move"])["legal"][0], state["move"])
            state = ended[0].state(state["move"] + 1)
        final_move = state["move"]
    with running(settings) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert made["table"] in hub.tables and finished["table"] not in hub.tables
        table = hub_table(client, made["table"])
        assert table.state.to_record() == before
        with Player(client, made["table"], tokens[0], since=10) as back, Player(client, made["table"], made["watch"]["token"]) as watcher:
            state = back.state()
            assert [e["n"] for e in state["events"]] == [11, 12]
            assert [state["view"], watcher.state()["view"]] == [views[0], views[2]]
        summary = client.get(f"/api/tables/{finished['table']}").json()
        assert summary["over"] and summary["move"] == final_move
        assert finished["table"] not in hub.finished  # described from its stored row, not replayed
        record = client.post(f"/api/tables/{finished['table']}/record", json={"token": seat_token(finished, 0)})
        assert len(record.json()["actions"]) == final_move


def test_a_computer_that_was_to_move_at_shutdown_moves_after_the_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, levels={"slow": "mcts:seconds=1"})
    with running(settings) as client:
        made = new_game(client, "orbital-combat", [{"kind": "computer", "level": "slow"}, {"kind": "person"}], me=1)
        assert hub_table(client, made["table"]).state.move_number == 0  # stopped before it could move
    with running(settings) as client, Player(client, made["table"], seat_token(made, 1)) as person:
        state = person.state(1)
        assert state["events"][0]["seat"] == 0 and state["to_move"] == 1


def test_a_game_whose_record_no_longer_replays_is_set_aside_and_the_rest_go_on(backend: Settings) -> None:
    settings = backend
    with running(settings) as client:
        bad = new_game(client, "orbital-combat", persons(2), me=0)
        good = new_game(client, "orbital-combat", persons(2), me=0)
        for made in (bad, good):
            with Player(client, made["table"], seat_token(made, 0)) as a:
                a.act(a.state()["legal"][0], 0)
                a.until(lambda m: m["type"] == "ack")
    sql(settings, "UPDATE actions SET notation = 'warp to andromeda' WHERE game_id = :table", table=bad["table"])
    with running(settings) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert bad["table"] in hub.broken and good["table"] in hub.tables
        with Player(client, bad["table"], seat_token(bad, 0)) as a:
            problem = a.error()
            assert problem["code"] == "unavailable" and "andromeda" not in problem["message"]
        with Player(client, good["table"], seat_token(good, 1)) as b:
            assert b.state()["move"] == 1
