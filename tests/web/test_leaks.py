"""No secret leaves the server: random games of every game with secrets, every message checked.

Every seat and a spectator are connected while random games are played
through the server. Afterwards each message each of them received is checked
against the hidden state of the position it was about (a replica of the game,
played in step, seed known to the test only):

* a position message holds exactly that seat's ``picture_view`` (the
  spectator's for a spectator), the picture drawn from that view alone, legal
  actions only for the seat to move, and public move notations;
* no string that is hidden from that seat (another seat's hand, the order of a
  deck, anything ``full_view`` holds that ``view(seat)`` does not) appears
  anywhere in the message unless the seat may see it (it is in its own view, in
  the moves played so far, or in its own legal actions);
* no hidden sequence (a hand, a deck order) appears as a list;
* the seed appears in no message, and no message has a ``seed`` field;
* errors answered to deliberately bad actions (naming cards the seat does not
  hold) reveal nothing hidden either.

The conformance tests prove each game's ``view`` keeps its secrets; this test
proves the server sends nothing beyond it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webclient import Player, hub_table, new_game, persons

import astrarium
from astrarium.core import State, get_game
from astrarium.web.catalogue import has_picture

SECRET_GAMES = [
    g for g in astrarium.list_games() if get_game(g).hidden_information and type(get_game(g)).__module__.startswith("astrarium.games.")
]
#: Shorter games (fewer rounds), so each plays to its end or near it within the move cap and the suite stays quick.
SHORTER = {"celestials": {"turn_limit": 4}, "connected-worlds": {"round_limit": 3}, "constellations": {"max_rounds": 4}}
MOVE_CAP = 120
KEYS = {
    "welcome": {"type", "table", "game", "seat", "you", "players", "seats", "marks", "levels", "clock", "chat"},
    "state": {
        *("type", "move", "to_move", "view", "picture", "legal", "tokens", "over", "result"),
        *("events", "thinking", "earlier_events", "clock"),
    },
    "seats": {"type", "seats"},
    "chat": {"type", "lines"},
    "ack": {"type", "move", "action", "ref"},
    "error": {"type", "code", "message", "ref"},
    "pong": {"type", "ref"},
    "thanks": {"type"},
}


def test_every_game_with_secrets_is_covered() -> None:
    assert {"celestials", "connected-worlds", "constellations", "streamlines"} <= set(SECRET_GAMES)


def hidden_parts(full: Any, seen: Any) -> Iterator[Any]:
    """The parts of ``full`` (a full view) that ``seen`` (a seat's view) does not hold as they are."""
    if isinstance(full, dict):
        for key, value in full.items():
            if not isinstance(seen, dict) or key not in seen:
                yield value
            else:
                yield from hidden_parts(value, seen[key])
    elif isinstance(full, list):
        if not isinstance(seen, list) or len(seen) != len(full):
            yield full
        else:
            for a, b in zip(full, seen, strict=True):
                yield from hidden_parts(a, b)
    elif full != seen:
        yield full


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def sequences(value: Any) -> Iterator[list[str]]:
    """Hidden lists of three or more strings (hands, deck orders), which must never be sent as lists."""
    if isinstance(value, list):
        if len(value) >= 3 and all(isinstance(v, str) for v in value):
            yield value
        for v in value:
            yield from sequences(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from sequences(v)


def keys_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, v in value.items():
            yield key
            yield from keys_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys_in(v)


class Secrets:
    """What a seat may not see in one position, and what it may."""

    def __init__(self, position: State, seat: int | None, extra_allowed: str = "") -> None:
        view = position.view(seat)
        parts = list(hidden_parts(position.full_view(), view))
        mover = position.current_player
        legal = [str(a) for a in position.legal_actions()] if seat is not None and seat == mover else []
        seen = [json.dumps(view), json.dumps(view, separators=(",", ":")), *position.history, *legal, extra_allowed]
        self.allowed = "\n".join(seen)
        self.items = {s for part in parts for s in strings(part) if len(s) >= 2 and s not in self.allowed}
        self.lists = [seq for part in parts for seq in sequences(part)]

    def check(self, raw: str, what: str) -> None:
        for secret in self.items:
            assert secret not in raw, f"{what} reveals the hidden {secret!r}"
        for seq in self.lists:
            for form in (json.dumps(seq), json.dumps(seq, separators=(",", ":"))):
                # The same cards in the same order may be in the seat's own view (two hands alike); that is no leak.
                assert form not in raw or form in self.allowed, f"{what} holds a hidden list"


def play_randomly(client: TestClient, game_id: str, seed: int) -> tuple[list[tuple[Player, int | None]], list[State], dict[str, str], int]:
    game = get_game(game_id)
    rng = random.Random(seed)
    players = min(game.max_players, max(game.min_players, 3))
    made = new_game(client, game_id, persons(players), options=SHORTER.get(game_id, {}))
    table = hub_table(client, made["table"])
    replica = game.new_game(players, table.state.seed, table.state.options)
    seats = [Player(client, made["table"], s["token"]) for s in made["seats"]]
    watcher = Player(client, made["table"], made["watch"]["token"])
    everyone: list[tuple[Player, int | None]] = [(p, n) for n, p in enumerate(seats)] + [(watcher, None)]
    positions = [replica.clone()]
    attempts: dict[str, str] = {}
    for move in range(MOVE_CAP):
        state = watcher.position(move)
        if state["over"]:
            break
        mover = seats[state["to_move"]]
        # First an illegal action naming something this seat cannot see (another hand's card, the next card of a deck).
        hidden = sorted(Secrets(replica, state["to_move"]).items)
        if hidden:
            attempt = f"play {rng.choice(hidden)}"
            attempts[f"x{move}"] = attempt
            mover.act(attempt, move, ref=f"x{move}")
            assert mover.until(lambda m: m["type"] in ("ack", "error"))["type"] == "error"
        action = rng.choice(mover.position(move)["legal"])
        mover.act(action, move, ref=move)
        assert mover.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        for player, _ in everyone:
            player.state(move + 1)
        replica.apply(action)
        positions.append(replica.clone())
    for player, _ in everyone:
        player.close()
    return everyone, positions, attempts, table.state.seed


@pytest.mark.parametrize("game_id", SECRET_GAMES)
def test_no_message_to_any_seat_or_spectator_reveals_a_secret(client: TestClient, game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game_seed = sum(map(ord, game_id)) * 7919
    monkeypatch.setattr("astrarium.web.hub.secrets.randbits", lambda bits: game_seed)  # the same deal on every run
    game = get_game(game_id)
    picture = has_picture(game)
    everyone, positions, attempts, seed = play_randomly(client, game_id, seed=sum(map(ord, game_id)))
    checked = 0
    for player, seat in everyone:
        current = 0
        for raw, message in zip(player.raw, player.seen, strict=True):
            kind = message["type"]
            assert set(message) <= KEYS[kind], f"unexpected fields in {kind}: {set(message) - KEYS[kind]}"
            assert str(seed) not in raw and "seed" not in set(keys_in(message))
            if kind == "state":
                current = message["move"]
                position = positions[current]
                assert message["view"] == json.loads(json.dumps(position.picture_view(seat)))
                assert message["picture"] == (game.render_svg(message["view"]) if picture else None)
                mover = position.current_player
                expected = [str(a) for a in position.legal_actions()] if seat is not None and seat == mover else []
                assert message["legal"] == expected and set(message["tokens"]) == set(expected)
                for event in message["events"]:
                    before = positions[event["n"] - 1]
                    assert event == {"n": event["n"], "seat": before.current_player, "text": positions[event["n"]].history[-1]}
            sent = attempts.get(str(message.get("ref")), "") if kind == "error" else ""
            Secrets(positions[current], seat, extra_allowed=sent).check(raw, f"{kind} to {seat} at move {current}")
            checked += 1
    assert checked > 4 * 20
