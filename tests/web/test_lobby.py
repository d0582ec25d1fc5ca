"""The lobby API: the games on offer, making a game, links, public games, and what the answers never hold."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from webclient import Player, hub_table, make_settings, new_game, persons, running, seat_token

import astrarium
from astrarium.web import Settings
from astrarium.web.catalogue import file_options


def test_catalogue_lists_every_game_with_described_options_but_no_file_options(client: TestClient) -> None:
    data = client.get("/api/games").json()
    ids = {g["id"] for g in data["games"]}
    assert {"celestials", "connected-worlds", "constellations", "orbital-combat", "streamlines"} <= ids
    assert data["levels"] == ["easy", "medium", "hard"]
    for described in data["games"]:
        game = astrarium.get_game(described["id"])
        names = [o["name"] for o in described["options"]]
        assert not set(names) & file_options(game)
        for option in described["options"]:
            assert option["description"] == game.option(option["name"]).describe()


def test_a_new_game_gives_each_person_seat_its_own_secret_link_and_a_spectator_link(client: TestClient) -> None:
    made = new_game(client, "streamlines", persons(3), me=1)
    tokens = [s["token"] for s in made["seats"]] + [made["watch"]["token"]]
    assert len(set(tokens)) == 4
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token)
    assert made["me"] == 1
    assert made["seats"][1]["link"] == f"/t/{made['table']}#k={tokens[1]}"
    assert "seed" not in json.dumps(made)


def test_computer_seats_have_levels_and_no_link(client: TestClient) -> None:
    made = new_game(client, "orbital-combat", [{"kind": "person"}, {"kind": "computer", "level": "easy"}], me=0)
    assert "token" not in made["seats"][1]
    assert made["seats"][1]["level"] == "easy"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "chess", "seats": [{"kind": "person"}]}, 404, "unknown-game"),
        ({"game": "streamlines", "seats": [{"kind": "person"}]}, 400, "bad-options"),  # Streamlines needs 2 to 4
        ({"game": "streamlines", "players": 3, "seats": [{"kind": "person"}] * 2}, 400, "bad-seat"),
        ({"game": "streamlines", "seats": [{"kind": "person"}, {"kind": "computer"}]}, 400, "bad-seat"),
        ({"game": "streamlines", "seats": [{"kind": "person"}, {"kind": "computer", "level": "grandmaster"}]}, 400, "bad-seat"),
        ({"game": "streamlines", "seats": [{"kind": "person"}, {"kind": "person", "level": "easy"}]}, 400, "bad-seat"),
        ({"game": "streamlines", "seats": [{"kind": "person"}, {"kind": "computer", "level": "easy"}], "me": 1}, 400, "bad-seat"),
        ({"game": "streamlines", "seats": [{"kind": "robot"}, {"kind": "person"}]}, 400, "bad-request"),
        ({"game": "streamlines", "seats": persons(2), "options": {"action_cards": 1}}, 400, "bad-options"),
        ({"game": "streamlines", "seats": persons(2), "options": {"action_cards": "8"}}, 400, "bad-options"),
        ({"game": "streamlines", "seats": persons(2), "options": {"no_such": 1}}, 400, "bad-options"),
        ({"game": "streamlines", "seats": persons(2), "colour": "red"}, 400, "bad-request"),
        ({"game": 7, "seats": persons(2)}, 400, "bad-request"),
        ({"game": "streamlines", "seats": persons(2), "public": "yes"}, 400, "bad-request"),
        ([1, 2, 3], 400, "bad-request"),
    ],
)
def test_a_bad_new_game_request_is_refused_with_a_reason(client: TestClient, body: object, status: int, code: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == status
    problem = response.json()["error"]
    assert problem["code"] == code
    assert problem["message"]
    assert client.app.state.hub.tables == {}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("celestials", {"sun_deck": "/etc/passwd"}),
        ("constellations", {"deck_file": "deck.toml"}),
        ("orbital-combat", {"ring_table": "rings.toml"}),
        ("streamlines", {"scenario_file": "x.json"}),
        ("connected-worlds", {"cards": "/etc/hosts"}),
        ("connected-worlds", {"map": "/etc/hosts"}),
        ("connected-worlds", {"scenario": "../../secret.toml"}),
    ],
)
def test_options_that_name_files_on_the_server_are_refused(client: TestClient, game: str, options: dict[str, str]) -> None:
    response = client.post("/api/tables", json={"game": game, "seats": persons(2), "options": options})
    assert response.status_code == 400
    assert "file" in response.json()["error"]["message"]


def test_inline_text_options_are_accepted(client: TestClient) -> None:
    position = "sun hand advance sunspear; moon health 3"
    made = new_game(client, "celestials", persons(2), options={"position": position})
    assert hub_table(client, made["table"]).state.options["position"] == position


def test_malformed_and_oversized_bodies_are_refused(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, max_body_bytes=20_000)) as client:
        too_big = {"game": "streamlines", "seats": persons(2), "options": {"deck": ["refugee"] * 4000}}
        response = client.post("/api/tables", json=too_big)
        assert response.status_code == 413
        assert response.json()["error"]["code"] == "too-big"
        response = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "not-json"
        response = client.post("/api/tables", content=b"[" * 5000 + b"]" * 5000, headers={"content-type": "application/json"})
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "not-json"
        response = client.post("/api/tables", content=b'{"game": 1' + b"0" * 5000 + b"}", headers={"content-type": "application/json"})
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "not-json"
        assert client.get("/api/health").json()["ok"]


def test_new_games_from_one_address_are_limited(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, creates_per_minute=3)) as client:
        for _ in range(3):
            new_game(client, "orbital-combat", persons(2))
        response = client.post("/api/tables", json={"game": "orbital-combat", "seats": persons(2)})
        assert response.status_code == 429
        assert response.json()["error"]["code"] == "too-many"


def test_open_public_games_can_be_joined_until_every_seat_is_taken(client: TestClient) -> None:
    private = new_game(client, "streamlines", persons(2), me=0)
    public = new_game(client, "streamlines", persons(3), public=True, me=0)
    with Player(client, public["table"], seat_token(public, 0)) as creator:
        creator.state()
        listed = client.get("/api/tables").json()["tables"]
        assert [t["table"] for t in listed] == [public["table"]]
        assert [s["taken"] for s in listed[0]["seats"]] == [True, False, False]
        joined = [client.post(f"/api/tables/{public['table']}/join", json={}).json() for _ in range(2)]
        assert [j["seat"] for j in joined] == [1, 2]
        assert joined[0]["token"] != seat_token(public, 1)  # a taken open seat gets a new link
        full = client.post(f"/api/tables/{public['table']}/join", json={})
        assert full.status_code == 409
        assert full.json()["error"]["code"] == "full"
        assert client.get("/api/tables").json()["tables"] == []
        with Player(client, public["table"], joined[1]["token"]) as third:
            welcome = third.until(lambda m: m["type"] == "welcome")
            assert welcome["seat"] == 2
        with Player(client, public["table"], seat_token(public, 1)) as old_link:
            assert old_link.error()["code"] == "bad-link"
    assert client.post(f"/api/tables/{private['table']}/join", json={}).status_code == 404


def test_anyone_may_watch_a_public_game_but_a_private_one_needs_its_spectator_link(client: TestClient) -> None:
    public = new_game(client, "orbital-combat", persons(2), public=True)
    private = new_game(client, "orbital-combat", persons(2))
    with Player(client, public["table"]) as watcher:
        assert watcher.until(lambda m: m["type"] == "welcome")["seat"] is None
    with Player(client, private["table"]) as watcher:
        assert watcher.error()["code"] == "bad-link"
    with Player(client, private["table"], private["watch"]["token"]) as watcher:
        welcome = watcher.until(lambda m: m["type"] == "welcome")
        assert welcome["seat"] is None and welcome["you"] == "spectator"


def test_status_and_summary_say_whose_turn_it_is_and_nothing_secret(client: TestClient) -> None:
    made = new_game(client, "celestials", persons(2), me=0)
    summary = client.get(f"/api/tables/{made['table']}").json()
    assert summary["to_move"] == 0 and summary["move"] == 0 and not summary["over"]
    status = client.get("/api/status", params={"ids": f"{made['table']},nosuchgame,../../x"}).json()["tables"]
    assert list(status) == [made["table"]]
    text = json.dumps(summary) + json.dumps(status)
    state = hub_table(client, made["table"]).state
    assert str(state.seed) not in text and '"hand"' not in text
    assert client.get("/api/tables/nosuchgame").status_code == 404


def test_the_record_and_replay_wait_for_the_end(client: TestClient) -> None:
    made = new_game(client, "orbital-combat", persons(2))
    for path in ("record", "replay"):
        response = client.post(f"/api/tables/{made['table']}/{path}", json={"token": made["watch"]["token"]})
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "not-over"


def test_rules_are_served_as_text(client: TestClient) -> None:
    response = client.get("/api/games/streamlines/rules")
    assert response.status_code == 200 and response.text.startswith("#")
    assert client.get("/api/games/chess/rules").status_code == 404


def test_pages_carry_security_headers_and_no_inline_script(client: TestClient) -> None:
    for path in ("/", "/t/abcd1234", "/static/table.js", "/api/games"):
        response = client.get(path)
        assert response.status_code == 200, path
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        assert "frame-ancestors 'none'" in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
    for page in ("/", "/t/abcd1234"):
        html = client.get(page).text
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
        assert scripts and all('src="/static/' in attrs and not body.strip() for attrs, body in scripts)
        assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers either
    assert client.get("/t/../../etc").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_unknown_paths_and_methods_get_short_json_errors(client: TestClient) -> None:
    response = client.get("/api/nothing-here")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not-found"
    response = client.delete("/api/tables")
    assert response.status_code == 405 and "error" in response.json()


def test_links_are_stored_only_as_hashes(client: TestClient, settings: Settings) -> None:
    made = new_game(client, "streamlines", persons(2), me=0)
    tokens = [seat_token(made, 0), seat_token(made, 1), made["watch"]["token"]]
    database = Path(settings.data_dir) / "astrarium.db"
    with sqlite3.connect(database) as db:
        dump = "\n".join(db.iterdump())
    for token in tokens:
        assert token not in dump


def test_the_default_levels_are_each_games_own_levels_as_at_the_terminal() -> None:
    from astrarium.web.hub import Hub

    hub = Hub(Settings())
    connected, orbital, streamlines = (astrarium.get_game(name) for name in ("connected-worlds", "orbital-combat", "streamlines"))
    assert hub.level_spec("easy", connected) == "greedy"
    assert hub.level_spec("medium", connected) == "cw-general:ties=random"
    assert hub.level_spec("medium", orbital) == f"mcts:{orbital.parts.search},spread=0.02,worlds=one,seconds=0.3"
    assert hub.level_spec("hard", streamlines) == "sl-search:samples=12"
    custom = Hub(Settings(levels={"hard": "mcts:iterations=30"}))
    assert custom.level_spec("hard", connected) == "mcts:iterations=30"
