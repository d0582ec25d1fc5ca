"""Playtest features: chat per game, a chess clock, handing a gone player's seat to a computer, feedback at the end."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from webclient import Player, hub_table, make_settings, new_game, persons, running, seat_token, sql

from astrarium.web import Settings


def play_to_the_end(players: list[Player]) -> dict:
    state = players[0].position(0)
    while not state["over"]:
        mover = players[state["to_move"]]
        mover.act(mover.position(state["move"])["legal"][0], state["move"])
        state = players[0].state(state["move"] + 1)
    return state


# -- chat ------------------------------------------------------------------------------
def test_a_chat_line_reaches_everyone_at_the_table_and_newcomers_see_the_last_lines(settings: Settings) -> None:
    with running(settings) as client:
        made = new_game(client, "orbital-combat", persons(2), me=0)
        with (
            Player(client, made["table"], seat_token(made, 0)) as a,
            Player(client, made["table"], seat_token(made, 1)) as b,
            Player(client, made["table"], made["watch"]["token"]) as watcher,
        ):
            for player in (a, b, watcher):  # everyone is seated before the line is said
                player.until(lambda m: m["type"] == "welcome")
            a.send({"type": "chat", "text": "good luck\x07 <b>all</b>\u2028!"})
            for player in (a, b, watcher):
                line = player.until(lambda m: m["type"] == "chat")["lines"][0]
                assert line["seat"] == 0 and line["text"] == "good luck  <b>all</b> !"
            watcher.send({"type": "chat", "text": "hello"})
            assert watcher.error()["code"] == "spectator"
            b.send({"type": "chat", "text": "x" * 301})
            assert b.error()["code"] == "bad-message"
            b.send({"type": "chat", "text": " \x00 "})
            assert b.error()["code"] == "bad-message"
    with running(settings) as client, Player(client, made["table"], seat_token(made, 1)) as b:  # kept across a restart
        welcome = b.until(lambda m: m["type"] == "welcome")
        assert [line["text"] for line in welcome["chat"]] == ["good luck  <b>all</b> !"]


# -- feedback ------------------------------------------------------------------------------
def test_feedback_is_asked_at_the_end_and_exported_with_the_record(client: TestClient) -> None:
    made = new_game(client, "orbital-combat", persons(2), me=0, options={"round_limit": 1})
    players = [Player(client, made["table"], seat_token(made, s)) for s in (0, 1)]
    players[0].send({"type": "feedback", "fun": 4, "text": "early"})
    assert players[0].error()["code"] == "not-over"
    play_to_the_end(players)
    players[0].send({"type": "feedback", "fun": 6})
    assert players[0].error()["code"] == "bad-message"
    players[0].send({"type": "feedback", "fun": 2, "text": "too long\nfor me"})
    players[0].until(lambda m: m["type"] == "thanks")
    players[0].send({"type": "feedback", "fun": 5, "text": "on second thought:\nfun"})  # a seat's later answer replaces it
    players[0].until(lambda m: m["type"] == "thanks")
    players[1].send({"type": "feedback", "fun": 3})
    players[1].until(lambda m: m["type"] == "thanks")
    with Player(client, made["table"], made["watch"]["token"]) as watcher:
        watcher.send({"type": "feedback", "fun": 1})
        assert watcher.error()["code"] == "spectator"
    record = client.post(f"/api/tables/{made['table']}/record", json={"token": made["watch"]["token"]}).json()
    assert record["feedback"] == [{"seat": 0, "fun": 5, "text": "on second thought:\nfun"}, {"seat": 1, "fun": 3, "text": ""}]


# -- handing a seat over ------------------------------------------------------------------------
def test_a_gone_players_seat_can_be_handed_to_a_computer_and_taken_back_through_its_link(client: TestClient) -> None:
    made = new_game(client, "orbital-combat", persons(2), me=0)
    with Player(client, made["table"], seat_token(made, 0)) as a:
        a.state()
        with Player(client, made["table"], seat_token(made, 1)) as b:
            b.state()
            a.send({"type": "handover", "seat": 1, "level": "easy"})
            assert "is here" in a.error()["message"]
            b.send({"type": "handover", "seat": 1, "level": "easy"})
            assert b.error()["code"] == "bad-seat"
        seats = a.until(lambda m: m["type"] == "seats" and not m["seats"][1]["present"])["seats"]
        assert seats[1]["handed"] is None
        a.send({"type": "handover", "seat": 1, "level": "grandmaster"})
        assert a.error()["code"] == "bad-seat"
        a.send({"type": "handover", "seat": 1, "level": "easy"})
        assert a.until(lambda m: m["type"] == "seats")["seats"][1]["handed"] == "easy"
        # Seat 1 is now played by the computer: after seat 0's move, seat 1's moves come by themselves.
        a.act(a.position(0)["legal"][0], 0)
        state = a.until(lambda m: m["type"] == "state" and m["events"] and m["events"][-1]["seat"] == 1)
        with Player(client, made["table"], seat_token(made, 1)) as back:
            back.send({"type": "takeback"})
            assert back.until(lambda m: m["type"] == "seats" and m["seats"][1]["handed"] is None)
            seat_1_moves = [e for e in hub_table(client, made["table"]).log if e["seat"] == 1]
            assert seat_1_moves and state["move"] >= 2
            back.send({"type": "takeback"})
            assert back.error()["code"] == "bad-seat"


def test_only_a_persons_seat_can_be_handed_over(client: TestClient) -> None:
    made = new_game(client, "orbital-combat", [{"kind": "person"}, {"kind": "computer", "level": "easy"}], me=0)
    with Player(client, made["table"], seat_token(made, 0)) as a:
        a.send({"type": "handover", "seat": 1, "level": "medium"})
        assert a.error()["code"] == "bad-seat"
        a.send({"type": "handover", "seat": 5, "level": "easy"})
        assert a.error()["code"] == "bad-seat"


# -- the chess clock -----------------------------------------------------------------------------
def test_the_clock_hands_a_seat_to_a_computer_at_zero(client: TestClient, settings: Settings) -> None:
    clock = {"minutes": 0.01, "increment": 0, "at_zero": "computer", "level": "easy"}
    made = new_game(client, "orbital-combat", persons(2), me=0, clock=clock)
    with Player(client, made["table"], seat_token(made, 1)) as b, Player(client, made["table"], seat_token(made, 0)) as a:
        first = a.state()
        assert first["clock"]["running"] == 0 and 0 < first["clock"]["left"][0] <= 0.6
        assert a.until(lambda m: m["type"] == "welcome" or m["type"] == "seats" and m["seats"][0]["handed"] == "easy")
        moved = b.until(lambda m: m["type"] == "state" and m["move"] >= 1)
        assert moved["events"][0]["seat"] == 0  # the computer moved for seat 0 when its time ran out
        a.send({"type": "takeback"})
        problem = a.error()
        assert problem["code"] == "clock"
    (used,) = sql(settings, "SELECT clock_used FROM seats WHERE game_id = :t AND seat = 0", t=made["table"])[0]
    assert used >= 0.6  # the whole allowance was used; the computer's own moves are not on the clock


def test_a_clock_that_does_nothing_at_zero_only_counts(client: TestClient, settings: Settings) -> None:
    # The seat's turn is measured by the server between its two moments; the test brackets them with its own clock (the
    # same monotonic clock, in the same process) instead of assuming how quickly a loaded machine answers.
    started = time.monotonic()
    made = new_game(client, "orbital-combat", persons(2), me=0, clock={"minutes": 0.005, "increment": 2, "at_zero": "nothing"})
    with Player(client, made["table"], seat_token(made, 0)) as a:
        a.state()
        time.sleep(0.5)  # past the 0.3 s allowance: the clock runs on below zero
        a.act(a.position(0)["legal"][0], 0)
        a.until(lambda m: m["type"] == "ack")
        acknowledged = time.monotonic()
        state = a.state(1)
        assert hub_table(client, made["table"]).seats[0].handed is None
    (used,) = sql(settings, "SELECT clock_used FROM seats WHERE game_id = :t AND seat = 0", t=made["table"])[0]
    assert 0.5 - 2 <= used <= (acknowledged - started) - 2  # the whole turn, less the increment
    assert state["clock"]["running"] == 1
    assert state["clock"]["left"][0] == round(0.3 - used, 1) > 0.3  # went past zero, then got its increment


@pytest.mark.parametrize(
    "clock",
    [
        {"minutes": 0},
        {"minutes": 5, "at_zero": "computer"},  # which computer?
        {"minutes": 5, "at_zero": "explode", "level": "easy"},
        {"minutes": 5, "increment": -1, "at_zero": "nothing"},
    ],
)
def test_a_bad_clock_is_refused(client: TestClient, clock: dict) -> None:
    response = client.post("/api/tables", json={"game": "orbital-combat", "seats": persons(2), "clock": clock})
    assert response.status_code == 400


def test_the_clock_survives_a_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with running(settings) as client:
        made = new_game(client, "orbital-combat", persons(2), me=0, clock={"minutes": 10, "increment": 0, "at_zero": "nothing"})
        with Player(client, made["table"], seat_token(made, 0)) as a:
            a.state()
            time.sleep(0.3)
            a.act(a.position(0)["legal"][0], 0)
            a.until(lambda m: m["type"] == "ack")
        before = hub_table(client, made["table"]).seats[0].clock_used
    with running(settings) as client:
        assert hub_table(client, made["table"]).seats[0].clock_used == pytest.approx(before)
        assert before >= 0.3
