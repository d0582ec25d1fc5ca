"""The shortcuts a busy table takes to send positions: each must give exactly what the plain way gives.

A position is sent as JSON built from pieces encoded before (the picture's cached
fragments, the choices of a position seen before, notations written before), and an
action written as the server wrote it is found among the legal ones without parsing.
Every message must still be byte for byte ``json.dumps`` of the plain snapshot, and every
action must still be refused or played exactly as the game's own ``apply`` would.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from astrarium.core import Game, IllegalAction, get_game
from astrarium.core.game import MAX_NOTATION_CHARS
from astrarium.web.catalogue import has_picture
from astrarium.web.hub import ActError, Hub, Seat, Table, notations_of, picture_json
from astrarium.web.protocol import dumps
from astrarium.web.settings import Settings

GAMES = ["orbital-combat", "streamlines", "constellations", "connected-worlds", "celestials"]


def make_table(game: Game, seed: int, players: int = 2) -> Table:
    state = game.new_game(players, seed, {})
    seats = [Seat(s, "person", None, None, None, True) for s in range(players)]
    return Table(id="t-enc", game=game, state=state, seats=seats, public=False, watch_hash="-", log=[], picture=has_picture(game))


def play_one(table: Table, rng: random.Random) -> None:
    """Play a random legal action on the table the way the hub does (a copy, applied, then committed)."""
    trial = table.state.clone()
    trial.apply(rng.choice(trial.legal_actions()))
    table.commit(trial, table.state.current_player, str(trial.actions[-1]))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_position_is_sent_exactly_as_its_snapshot_encodes(game_id: str) -> None:
    game = get_game(game_id)
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        table = make_table(game, seed)
        for _ in range(25):
            for seat in (None, *range(table.state.players)):
                for drawn in (True, False):
                    assert table.snapshot_json(seat, drawn) == dumps(table.snapshot(seat, drawn))[1:-1]
                snap = table.snapshot(seat)
                view = table.state.picture_view(seat)
                assert snap["view"] == view
                assert snap["picture"] == (game.render_svg(view) if table.picture else None)
                mover = table.state.current_player
                expected = [str(a) for a in table.state.legal_actions()] if seat == mover and not table.state.is_over else []
                assert snap["legal"] == expected
                checked += 1
            if table.state.is_over:
                break
            play_one(table, rng)
    assert checked > 100


def test_orbital_combat_draws_its_picture_in_pieces_that_join_into_the_picture() -> None:
    game = get_game("orbital-combat")
    table = make_table(game, 11, players=3)
    rng = random.Random(11)
    for _ in range(30):
        for seat in (None, 0, 1, 2):
            view = table.state.picture_view(seat)
            parts = game.render_svg_parts(view)
            assert parts is not None
            assert "".join(parts) == game.render_svg(view)
            assert picture_json(parts, True) == json.dumps("".join(parts))
        if table.state.is_over:
            break
        play_one(table, rng)


@given(st.lists(st.text(), max_size=8), st.booleans())
def test_a_picture_encoded_in_pieces_is_the_json_of_the_whole(parts: list[str], pieces: bool) -> None:
    assert picture_json(parts, pieces) == json.dumps("".join(parts))
    assert picture_json(parts, pieces) == json.dumps("".join(parts))  # the second time from what was kept


@pytest.mark.parametrize("game_id", GAMES)
def test_notations_written_once_are_the_notations_of_the_actions(game_id: str) -> None:
    game = get_game(game_id)
    rng = random.Random(3)
    table = make_table(game, 5)
    for _ in range(30):
        legal = table.state.legal_actions()
        assert notations_of(legal) == [str(a) for a in legal]
        assert notations_of(legal) == [str(a) for a in legal]
        if table.state.is_over:
            break
        play_one(table, rng)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_an_action_is_played_or_refused_exactly_as_the_game_would() -> None:
    """Legal notations are found in the table's list; anything else goes to the game, which refuses it as before."""

    class Store:
        is_postgres = False

        async def append(self, *args: object) -> None:
            return None

    hub = Hub(Settings())
    hub.store = Store()  # type: ignore[assignment]
    game = get_game("orbital-combat")
    table = make_table(game, 21)
    rng = random.Random(21)
    for _ in range(12):
        state = table.state
        seat = state.current_player
        assert seat is not None
        notation = str(rng.choice(state.legal_actions()))
        variants = (notation + " ", " " + notation, notation.upper(), "x" * (MAX_NOTATION_CHARS + 1), "burn", "rot rot", notation)
        for written in variants:
            reference = state.clone()
            other = Table(
                id="t-other", game=game, state=state.clone(), seats=table.seats, public=False, watch_hash="-", log=[], picture=True
            )
            try:
                reference.apply(written)
            except IllegalAction as exc:
                with pytest.raises(ActError) as refused:
                    await hub.act(other, seat, written, state.move_number)
                assert (refused.value.code, refused.value.message) == ("illegal", str(exc))
                assert other.state.to_record() == state.to_record()
            else:
                number, played = await hub.act(other, seat, written, state.move_number)
                assert (number, played) == (reference.move_number, str(reference.actions[-1]))
                assert other.state.to_record() == reference.to_record()
                assert other.state.view(seat) == reference.view(seat)
        await hub.act(table, seat, notation, state.move_number)


def test_the_benchmark_measures_the_server_work_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    from astrarium.web import bench

    bench.main(["--in-process", "--games", "3", "--rounds", "4"])
    printed = capsys.readouterr().out
    assert "in process: 3 games, 12 actions" in printed
    assert re.search(r"CPU per action \(act, ack and both seats' state messages\): \d+\.\d\d ms", printed)


def test_a_game_that_draws_in_one_go_has_no_picture_pieces() -> None:
    game = get_game("constellations")
    state = game.new_game(game.min_players, 3)
    assert game.render_svg_parts(state.picture_view(0)) is None
