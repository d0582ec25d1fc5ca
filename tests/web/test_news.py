"""News between server processes on one SQLite file: the sockets themselves, and two servers in this process.

The news channel must carry what PostgreSQL's NOTIFY carries (moves, chat,
seats, who is where) to every other process, never make a sender wait or fail
(a receiver that takes nothing, a socket left by a killed process, a folder
whose path is too long for a socket address), and merge what a slow receiver
has not yet taken without losing the last word of any game.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable
from pathlib import Path

from webclient import Player, make_settings, new_game, persons, running, seat_token, stored_actions

from astrarium.web.news import SUFFIX, NewsSocket, news_folder


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the news did not arrive"
        await asyncio.sleep(0.01)


def hearer(into: list[tuple[str, str]]) -> Callable[[str, str], None]:
    """A listener that keeps what it hears, in order."""

    def heard(game: str, news: str) -> None:
        into.append((game, news))

    return heard


def sockets_in(folder: Path) -> set[str]:
    return {p.name for p in folder.glob("*" + SUFFIX)}


def test_news_told_by_one_process_is_heard_by_the_others_and_not_by_itself(tmp_path: Path) -> None:
    folder = news_folder(tmp_path / "astrarium.db")

    async def run() -> None:
        a, b, c = NewsSocket(folder), NewsSocket(folder), NewsSocket(folder)
        heard: dict[str, list[tuple[str, str]]] = {"a": [], "b": [], "c": []}
        for name, end in (("a", a), ("b", b), ("c", c)):
            end.listen(hearer(heard[name]))
        told = [("g1", "3"), ("g1", "chat"), ("g1", "seats"), ("g2", "here p1 0,1"), ("g2", "ask p1")]
        for game, news in told:
            a.tell(game, news)
        await until(lambda: len(heard["b"]) == len(told) and len(heard["c"]) == len(told))
        assert heard["b"] == told and heard["c"] == told
        b.tell("g1", "4")
        await until(lambda: heard["a"] == [("g1", "4")] and len(heard["c"]) == len(told) + 1)
        await asyncio.sleep(0.05)
        assert heard["b"] == told  # a process does not hear its own news
        for end in (a, b, c):
            end.close()

    asyncio.run(run())
    assert sockets_in(folder) == set()  # each removed its own


def test_a_receiver_that_takes_nothing_never_holds_up_the_sender_and_gets_the_last_word_of_every_game(tmp_path: Path) -> None:
    folder = news_folder(tmp_path / "astrarium.db")
    games, moves = 40, 50

    async def run() -> dict[str, int]:
        sender = NewsSocket(folder)
        sender.open()
        stuck = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        stuck.bind(str(folder / ("1-stuck" + SUFFIX)))
        stuck.setblocking(False)
        started = time.monotonic()
        for n in range(1, moves + 1):
            for g in range(games):
                sender.tell(f"game{g}", str(n))
                sender.tell(f"game{g}", f"here p{g} {n % 3}")
            await asyncio.sleep(0)  # each round in a turn of its own: a datagram of its own, until the queue is full
        assert time.monotonic() - started < 10  # (sending never waited for the receiver)
        last: dict[str, int] = {}
        presence: dict[str, str] = {}
        deadline = time.monotonic() + 10
        while (len(last) < games or min(last.values()) < moves) and time.monotonic() < deadline:
            try:
                data = stuck.recv(1 << 16)
            except BlockingIOError:
                await asyncio.sleep(0.01)  # the sender tries again a few milliseconds later
                continue
            for line in data.decode().splitlines():
                game, _, news = line.partition(" ")
                if news.isdigit():
                    last[game] = max(last.get(game, 0), int(news))
                else:
                    presence[game] = news
        stuck.close()
        sender.close()
        assert all(presence[f"game{g}"] == f"here p{g} {moves % 3}" for g in range(games))
        return last

    last = asyncio.run(run())
    assert last == {f"game{g}": moves for g in range(games)}


def test_a_socket_left_by_a_killed_process_is_removed_and_the_others_still_hear(tmp_path: Path) -> None:
    folder = news_folder(tmp_path / "astrarium.db")
    folder.mkdir()
    left = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    left.bind(str(folder / ("12345-dead" + SUFFIX)))
    left.close()  # its file stays, and nobody has it: as after a SIGKILL

    async def run() -> list[tuple[str, str]]:
        a, b = NewsSocket(folder), NewsSocket(folder)
        heard: list[tuple[str, str]] = []
        a.listen(lambda *_: None)
        b.listen(lambda game, news: heard.append((game, news)))
        a.tell("g", "1")
        await until(lambda: heard == [("g", "1")])
        (folder / b.name).unlink()  # a socket already gone is forgotten too
        a.tell("g", "2")
        await asyncio.sleep(0.05)
        a.close()
        b.close()
        return heard

    assert asyncio.run(run()) == [("g", "1")]
    assert sockets_in(folder) == set()


def test_a_folder_too_deep_for_a_socket_address_still_carries_news(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    folder = news_folder(deep / "astrarium.db")
    assert len(str(folder)) > 108

    async def run() -> list[tuple[str, str]]:
        a, b = NewsSocket(folder), NewsSocket(folder)
        heard: list[tuple[str, str]] = []
        a.listen(lambda *_: None)
        b.listen(lambda game, news: heard.append((game, news)))
        assert sockets_in(folder) == {a.name, b.name}
        a.tell("g", "7")
        await until(lambda: heard == [("g", "7")])
        a.close()
        b.close()
        return heard

    assert asyncio.run(run()) == [("g", "7")]


def test_two_servers_on_one_sqlite_file_show_each_other_moves_and_chat_and_never_both_store_a_move(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with running(settings) as one, running(settings) as two:
        made = new_game(one, "orbital-combat", persons(2))
        table = made["table"]
        first = Player(one, table, seat_token(made, 0))  # seat 0 on the server that made the game
        second = Player(two, table, seat_token(made, 1))  # seat 1 on the other, which loads it from the file
        watcher = Player(two, table, made["watch"]["token"])
        players = {0: first, 1: second}
        for move in range(4):
            mover = players[first.position(move)["to_move"]]
            mover.act(mover.position(move)["legal"][0], move)
            answer = mover.until(lambda m: m["type"] in ("ack", "error"))
            assert answer["type"] == "ack", answer
            for client in (first, second, watcher):
                assert client.position(move + 1)["move"] == move + 1
            assert watcher.latest is not None and watcher.latest["events"][-1]["text"] == answer["action"]
        second.send({"type": "chat", "text": "hello from the other server"})
        line = first.until(lambda m: m["type"] == "chat")
        assert [(x["seat"], x["text"]) for x in line["lines"]] == [(1, "hello from the other server")]
        # The seat to move plays through both servers at once: one move is stored, the other is refused as stale,
        # and the refused client is then shown the position with the stored move.
        to_move = first.position(4)["to_move"]
        here = players[to_move]
        there = Player(two if here is first else one, table, seat_token(made, to_move))
        legal = here.position(4)["legal"]
        there.position(4)
        here.act(legal[0], 4)
        there.act(legal[-1], 4)
        answers = [c.until(lambda m: m["type"] in ("ack", "error")) for c in (here, there)]
        assert sorted(a["type"] for a in answers) == ["ack", "error"]
        assert [a["code"] for a in answers if a["type"] == "error"] == ["stale"]
        stored = next(a["action"] for a in answers if a["type"] == "ack")
        for client in (here, there, watcher):
            assert client.position(5)["events"][-1]["text"] == stored
    assert [row[2] for row in stored_actions(settings, table)][-1] == stored
    assert len(stored_actions(settings, table)) == 5


def test_a_public_game_made_through_one_server_is_listed_by_the_other(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with running(settings) as one, running(settings) as two:
        made = new_game(one, "streamlines", persons(2), public=True)
        listed = two.get("/api/tables").json()["tables"]
        assert [t["table"] for t in listed] == [made["table"]]
        joined = two.post(f"/api/tables/{made['table']}/join", json={})
        assert joined.status_code == 200, joined.text
        taken = joined.json()["seat"]
        deadline = time.monotonic() + 10
        while not one.get(f"/api/tables/{made['table']}").json()["seats"][taken]["taken"]:  # taken here too, once heard of
            assert time.monotonic() < deadline, "the seat taken through the other server is still open here"
            time.sleep(0.05)
