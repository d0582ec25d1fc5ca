"""The web table's defences against strangers: seats, files, cross-site requests, limits, private records.

Each test names what it checks; each was written against a hole a probe of
``astrarium serve`` found, and fails on a server that has it.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webclient import WAIT, Player, hub_table, make_settings, new_game, persons, running, seat_token, sql

import astrarium.core.data
import astrarium.web.app
from astrarium.core.data import read_text_file
from astrarium.core.errors import DataError
from astrarium.web import Settings


def eventually(condition: Callable[[], bool], what: str) -> None:
    """Wait until ``condition`` holds (the server acts on a closed connection in its own time), failing after WAIT s."""
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def join(client: TestClient, table: str) -> Any:
    return client.post(f"/api/tables/{table}/join", json={})


def games_stored(settings: Settings) -> int:
    return int(sql(settings, "SELECT count(*) FROM games")[0][0])


# -- 1. the maker's seat ---------------------------------------------------------------------------
def test_the_makers_own_seat_of_a_public_game_cannot_be_taken_by_a_joiner(client: TestClient) -> None:
    made = new_game(client, "constellations", persons(2), public=True, me=0)
    listed = client.get("/api/tables").json()["tables"]
    assert [s["taken"] for s in listed[0]["seats"]] == [True, False]
    joined = join(client, made["table"])
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    full = join(client, made["table"])
    assert full.status_code == 409 and full.json()["error"]["code"] == "full"
    with Player(client, made["table"], seat_token(made, 0)) as maker, Player(client, made["table"], joined.json()["token"]) as other:
        assert maker.until(lambda m: m["type"] == "welcome")["seat"] == 0
        assert other.until(lambda m: m["type"] == "welcome")["seat"] == 1
    assert client.get("/api/tables").json()["tables"] == []


# -- 2. nothing from a browser reaches a file ----------------------------------------------------------
@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path the data reader opens from now on (``os.open`` as ``core.data`` calls it)."""
    paths: list[str] = []
    real_open = os.open

    def spy(path: Any, *args: Any, **kwargs: Any) -> int:
        paths.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(astrarium.core.data.os, "open", spy)
    return paths


@pytest.mark.parametrize(
    ("option", "ending"),
    [("map", "\n"), ("map", "\r"), ("map", "\r\n"), ("scenario", "\n"), ("map", "=")],
)
def test_a_path_with_a_line_break_never_makes_the_server_open_a_file(
    client: TestClient, settings: Settings, tmp_path: Path, opened: list[str], option: str, ending: str
) -> None:
    target = tmp_path / f"secret{ending}"
    target.write_text((resources.files("astrarium.games.connected_worlds") / "maps" / "default-2p.toml").read_text())
    before = games_stored(settings)
    response = client.post("/api/tables", json={"game": "connected-worlds", "seats": persons(2), "options": {option: str(target)}})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "bad-options"
    assert not [p for p in opened if "secret" in p], "the server opened the file a browser named"
    assert games_stored(settings) == before


def test_a_game_built_from_a_browsers_options_cannot_read_a_file_even_past_the_option_check(
    client: TestClient, settings: Settings, tmp_path: Path, opened: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "map.toml"
    target.write_text((resources.files("astrarium.games.connected_worlds") / "maps" / "default-2p.toml").read_text())
    monkeypatch.setattr("astrarium.web.hub.check_web_options", lambda game, options: None)  # a hole in the option check
    response = client.post("/api/tables", json={"game": "connected-worlds", "seats": persons(2), "options": {"map": str(target)}})
    assert response.status_code == 400, response.text
    assert "browser" in response.json()["error"]["message"]
    assert str(target) not in opened
    assert games_stored(settings) == 0


def test_file_reads_are_refused_inside_no_file_reads_and_allowed_again_after(tmp_path: Path, opened: list[str]) -> None:
    target = tmp_path / "deck.toml"
    target.write_text("x = 1\n")
    with astrarium.core.data.no_file_reads(), pytest.raises(DataError, match="browser"):
        read_text_file(target)
    assert opened == []
    assert read_text_file(target)[1] == "x = 1\n"


# -- 3. private files -----------------------------------------------------------------------------------
@pytest.fixture
def usual_umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_data_folder_and_every_database_file_are_readable_by_the_server_user_alone(tmp_path: Path, usual_umask: None) -> None:
    folder = tmp_path / "new" / "data"
    with running(make_settings(folder)) as client:
        made = new_game(client, "orbital-combat", persons(2), me=0)
        with Player(client, made["table"], seat_token(made, 0)) as a:
            state = a.state()
            a.act(state["legal"][0], 0)
            a.until(lambda m: m["type"] == "ack")
        files = {p.name: mode(p) for p in folder.iterdir() if p.is_file()}
        assert {"astrarium.db", "astrarium.db-wal", "astrarium.db-shm"} <= set(files)
        assert files == dict.fromkeys(files, 0o600)
    assert mode(folder) == 0o700


def test_a_database_left_readable_by_others_is_made_private_at_start(tmp_path: Path, usual_umask: None) -> None:
    settings = make_settings(tmp_path)
    with running(settings):
        pass
    for name in ("astrarium.db", "astrarium.db-journal"):
        (tmp_path / name).touch()
        os.chmod(tmp_path / name, 0o644)
    with running(settings):
        assert mode(tmp_path / "astrarium.db") == 0o600
        assert mode(tmp_path / "astrarium.db-journal") == 0o600


# -- 4. cross-site requests -------------------------------------------------------------------------------
CREATE = json.dumps({"game": "orbital-combat", "seats": persons(2), "public": True}).encode()


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
def test_a_new_game_or_a_join_that_is_not_declared_json_is_refused(
    client: TestClient, settings: Settings, content_type: str | None
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    refused = client.post("/api/tables", content=CREATE, headers=headers)
    assert refused.status_code == 415
    assert "application/json" in refused.json()["error"]["message"]
    assert games_stored(settings) == 0
    made = new_game(client, "orbital-combat", persons(2), public=True)
    refused = client.post(f"/api/tables/{made['table']}/join", content=b"{}", headers=headers)
    assert refused.status_code == 415
    assert [s["taken"] for s in client.get(f"/api/tables/{made['table']}").json()["seats"]] == [False, False]


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://testserver.evil.example", "ftp://testserver"])
def test_a_request_from_another_sites_page_is_refused(client: TestClient, settings: Settings, origin: str) -> None:
    json_type = {"content-type": "application/json", "origin": origin}
    refused = client.post("/api/tables", content=CREATE, headers=json_type)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "cross-site"
    assert games_stored(settings) == 0
    made = new_game(client, "orbital-combat", persons(2), public=True)
    refused = client.post(f"/api/tables/{made['table']}/join", content=b"{}", headers=json_type)
    assert refused.status_code == 403
    assert [s["taken"] for s in client.get(f"/api/tables/{made['table']}").json()["seats"]] == [False, False]


def test_a_request_from_the_servers_own_page_is_accepted(client: TestClient) -> None:
    made = client.post(
        "/api/tables", content=CREATE, headers={"content-type": "application/json; charset=utf-8", "origin": "http://testserver"}
    )
    assert made.status_code == 201, made.text
    joined = client.post(
        f"/api/tables/{made.json()['table']}/join", headers={"content-type": "application/json", "origin": "http://testserver"}
    )
    assert joined.status_code == 200, joined.text
    bad_body = client.post(f"/api/tables/{made.json()['table']}/join", json={"seat": 1})
    assert bad_body.status_code == 400


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://example.com:8000", "example.com:8000", True),
        ("https://example.com", "example.com", True),
        ("https://example.com", "example.com:443", True),
        ("https://example.com:8443", "example.com", True),  # a reverse proxy forwarding the name without the port
        ("http://example.com:8001", "example.com:8000", False),
        ("http://example.com", "example.com:8000", False),
        ("http://[::1]:8000", "[::1]:8000", True),
        ("http://example.com:bad", "example.com", False),
        ("http://other.com", "example.com", False),
    ],
)
def test_an_origin_matches_only_the_host_it_was_sent_to(origin: str, host: str, same: bool) -> None:
    assert astrarium.web.app.same_host(origin, host) is same


# -- 5. limits per seat and per address ---------------------------------------------------------------------
def test_chat_is_limited_per_seat_so_reconnecting_does_not_reset_it(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, chat_burst=5, chat_per_second=0.001)
    with running(settings) as client:
        made = new_game(client, "orbital-combat", persons(2), me=0)
        for _ in range(2):
            with Player(client, made["table"], seat_token(made, 0)) as a:
                a.until(lambda m: m["type"] == "welcome")
                answers = []
                for n in range(3):
                    a.send({"type": "chat", "text": f"line {n}"})
                    answers.append(a.until(lambda m: m["type"] in ("chat", "error")))
        assert [m["type"] for m in answers] == ["chat", "chat", "error"]
        assert answers[-1]["code"] == "chat-flood"
        assert sql(settings, "SELECT count(*) FROM chat")[0][0] == 5
        with Player(client, made["table"], seat_token(made, 1)) as b:  # another seat has its own allowance
            b.send({"type": "chat", "text": "hello"})
            assert b.until(lambda m: m["type"] in ("chat", "error"))["type"] == "chat"


def test_connections_from_one_address_are_limited_with_their_own_close_code(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, connections_per_address=3)) as client:
        made = new_game(client, "orbital-combat", persons(2), public=True)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        watchers = [Player(client, made["table"]) for _ in range(3)]
        for watcher in watchers:
            watcher.until(lambda m: m["type"] == "welcome")
        extra = Player(client, made["table"])
        assert extra.error()["code"] == "too-many-connections"
        assert extra.recv() is None and extra.closed_code == 4430
        extra.close()
        watchers.pop().close()
        eventually(lambda: hub.connections.open("testclient") == 2, "a closed connection was not given back")
        with Player(client, made["table"]) as again:
            assert again.until(lambda m: m["type"] == "welcome")["seat"] is None


# -- 6. private games' records -------------------------------------------------------------------------------
def finish(client: TestClient, made: dict[str, Any]) -> None:
    """Play a game of two people to its end, each playing its first legal action."""
    with Player(client, made["table"], seat_token(made, 0)) as a, Player(client, made["table"], seat_token(made, 1)) as b:
        players = [a, b]
        state = a.state()
        while not state["over"]:
            mover = players[state["to_move"]]
            mover.act(mover.position(state["move"])["legal"][0], state["move"])
            state = a.state(state["move"] + 1)


@pytest.fixture
def private_finished(client: TestClient) -> dict[str, Any]:
    made = new_game(client, "orbital-combat", persons(2), me=0, options={"round_limit": 2})
    finish(client, made)
    return made


def test_a_private_games_record_and_replay_need_one_of_its_links(client: TestClient, private_finished: dict[str, Any]) -> None:
    table = private_finished["table"]
    for what in ("record", "replay"):
        refused = client.get(f"/api/tables/{table}/{what}")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "private"
        assert str(hub_table(client, table).state.seed) not in refused.text
        wrong = client.post(f"/api/tables/{table}/{what}", data={"token": "x" * 32})
        assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad-link"
        other = new_game(client, "orbital-combat", persons(2))
        assert client.post(f"/api/tables/{table}/{what}", json={"token": other["watch"]["token"]}).status_code == 403
    by_seat = client.post(f"/api/tables/{table}/record", data={"token": seat_token(private_finished, 1)})
    assert by_seat.status_code == 200 and by_seat.json()["seed"] == hub_table(client, table).state.seed
    assert "attachment" in by_seat.headers["content-disposition"]
    by_watcher = client.post(f"/api/tables/{table}/replay", json={"token": private_finished["watch"]["token"]})
    assert by_watcher.status_code == 200 and "sandbox allow-scripts" in by_watcher.headers["content-security-policy"]


def test_a_public_games_record_stays_open_to_anyone(client: TestClient) -> None:
    made = new_game(client, "orbital-combat", persons(2), public=True, options={"round_limit": 2})
    finish(client, made)
    assert client.get(f"/api/tables/{made['table']}/record").status_code == 200
    assert client.get(f"/api/tables/{made['table']}/replay").status_code == 200


def test_a_link_request_that_is_malformed_is_refused(client: TestClient, private_finished: dict[str, Any]) -> None:
    table, token = private_finished["table"], seat_token(private_finished, 0)
    path = f"/api/tables/{table}/record"
    assert client.post(path, content=token.encode(), headers={"content-type": "text/plain"}).status_code == 415
    assert client.post(path, json={"token": token, "more": 1}).status_code == 400
    assert client.post(path, data={"token": [token, token]}).status_code == 400
    assert client.post(path, data={"token": token}, headers={"origin": "null"}).status_code == 200  # as the table page's form sends it


def test_the_table_page_sends_its_link_for_the_record_and_replay_in_a_post_body() -> None:
    static = resources.files("astrarium.web") / "static"
    html, script = (static / "table.html").read_text(), (static / "table.js").read_text()
    for what in ("record", "replay"):
        assert f'<form id="{what}" method="post"' in html
    assert 'name="token"' in html
    assert 'form.method = page.token ? "post" : "get"' in script and "form.elements.token.value = page.token" in script


# -- also ----------------------------------------------------------------------------------------------------
def test_a_public_games_options_are_not_shown_in_the_lobby_or_join_answers(client: TestClient) -> None:
    made = new_game(client, "celestials", persons(2), public=True, me=0, options={"start_hand": 4, "turn_limit": 29})
    answers = [
        client.get("/api/tables").text,
        client.get(f"/api/tables/{made['table']}").text,
        client.get("/api/status", params={"ids": made["table"]}).text,
        join(client, made["table"]).text,
    ]
    for text in answers:
        assert "options" not in text and "start_hand" not in text and "turn_limit" not in text


def test_a_redirect_never_echoes_the_requests_host(client: TestClient) -> None:
    response = client.get("/static", headers={"host": "evil.example"}, follow_redirects=False)
    assert response.status_code in (301, 302, 307, 308)
    assert response.headers["location"] == "/static/"


@pytest.mark.parametrize(
    ("location", "relative"),
    [
        ("http://evil.example/static/", "/static/"),
        ("http://evil.example//other.example/x?a=1", "/other.example/x?a=1"),
        ("/\\other.example", "/other.example"),
        ("http://evil.example", "/"),
    ],
)
def test_a_redirect_target_is_always_a_path_on_this_server(location: str, relative: str) -> None:
    assert astrarium.web.app.relative_location(location) == relative


# -- in a real browser ------------------------------------------------------------------------------------------
def test_the_table_page_opens_a_private_games_record_and_replay_with_its_link(browser: Any, server: str, tmp_path: Path) -> None:
    import httpx

    computers = [{"kind": "computer", "level": "easy"}] * 2
    made = httpx.post(f"{server}/api/tables", json={"game": "orbital-combat", "seats": computers, "options": {"round_limit": 1}}).json()
    context = browser.new_context(accept_downloads=True)
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(server + made["watch"]["link"])
        page.wait_for_selector("#over:not([hidden])")
        assert httpx.get(f"{server}/api/tables/{made['table']}/record").status_code == 403
        with page.expect_download() as download:
            page.locator("#record button").click()
        saved = tmp_path / "record.json"
        download.value.save_as(saved)
        record = json.loads(saved.read_text())
        assert record["table"] == made["table"] and isinstance(record["seed"], int)
        with context.expect_page() as opened:
            page.locator("#replay button").click()
        replay = opened.value
        replay.wait_for_load_state()
        assert replay.url.endswith(f"/api/tables/{made['table']}/replay")
        assert replay.locator("script").count() >= 1 and replay.locator("svg").count() >= 1  # the replay itself, drawn
    finally:
        context.close()


def test_a_stranger_joins_a_public_game_from_the_lobby_and_gets_a_seat_that_is_not_the_makers(browser: Any, server: str) -> None:
    import httpx

    made = httpx.post(f"{server}/api/tables", json={"game": "streamlines", "seats": persons(2), "public": True, "me": 0}).json()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(server + "/")
        page.locator("li", has_text="Streamlines").locator("button", has_text="join").first.click()
        page.wait_for_url(f"**/t/{made['table']}#k=*")
        page.wait_for_selector("#link-state:has-text('connected')")
        seats = httpx.get(f"{server}/api/tables/{made['table']}").json()["seats"]
        assert [s["taken"] for s in seats] == [True, True]
        assert httpx.post(f"{server}/api/tables/{made['table']}/join", json={}).status_code == 409
    finally:
        context.close()
