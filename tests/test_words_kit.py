"""Every game's words are told with the shared kit, and the words stay exactly as recorded.

The kit (``astrarium.core.words``) holds what every game's ``words`` module
says alike: how a seat is named in a line (``who`` with the game's naming),
the end in words (``outcome_lines``), the round and the next seat, the new
events, and the readers. A game's ``words`` module keeps no copy of them: no
function of a kit helper's name, no seat letters of its own, no line of the
end written out again; and every helper that reads two views takes them in
one order, ``before`` then ``after``.

The digests in ``tests/data/words_digests.json`` were recorded from the words
as the games told them before the kit held ``who`` and the end: random games
of every game over several player counts and options, every line of
``describe`` for every action, from every seat and the spectator (and, at the
end, from views that lack one field each). Every game of a case has its own
short digest, so a difference names its seed.

To record the file again (only for a deliberate change of a game's words or
of its views)::

    python tests/test_words_kit.py --record
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import astrarium
from astrarium.core import Rng
from astrarium.core import words as kit
from helpers import RecordedDigests

#: The hard map the Streamlines digests were recorded on (the shipped hard map has since moved).
HARD_CORNERS = str(Path(__file__).parent / "games" / "streamlines" / "hard_corners.toml")
DATA = Path(__file__).parent / "data" / "words_digests.json"

MODULES = {
    "celestials": "astrarium.games.celestials.words",
    "connected-worlds": "astrarium.games.connected_worlds.words",
    "constellations": "astrarium.games.constellations.words",
    "orbital-combat": "astrarium.games.orbital_combat.words",
    "streamlines": "astrarium.games.streamlines.words",
}

#: case name -> (game id, players, options, games). Seeds are 0..games-1; about 50 games per game.
CASES: dict[str, tuple[str, int, dict[str, Any], int]] = {
    "celestials-default": ("celestials", 2, {}, 25),
    "celestials-short": ("celestials", 2, {"turn_limit": 3, "health": 4, "first": "moon"}, 25),
    "connected-worlds-2": ("connected-worlds", 2, {"turn_order": "fixed"}, 15),
    "connected-worlds-3-annihilation": (
        "connected-worlds",
        3,
        {"victory": "annihilation", "round_limit": 6, "combat": "on-entry", "turn_order": "fixed"},
        15,
    ),
    "connected-worlds-4-short": ("connected-worlds", 4, {"round_limit": 1, "victory": "capture", "turn_order": "fixed"}, 20),
    "constellations-solo": ("constellations", 1, {}, 15),
    "constellations-2": ("constellations", 2, {}, 15),
    "constellations-3-swap": ("constellations", 3, {"swap": True, "planet_in_line": True}, 10),
    "constellations-4-short": ("constellations", 4, {"max_rounds": 2, "hand_size": 1}, 10),
    "orbital-combat-2": ("orbital-combat", 2, {}, 20),
    "orbital-combat-3": ("orbital-combat", 3, {"hull": 6}, 15),
    "orbital-combat-4-turns": ("orbital-combat", 4, {"resolution": "turn", "round_limit": 8}, 15),
    "streamlines-2": ("streamlines", 2, {}, 20),
    "streamlines-3": ("streamlines", 3, {}, 15),
    "streamlines-4-hard": ("streamlines", 4, {"scenario_file": HARD_CORNERS, "movement": "carried", "free_lay": True}, 15),
}

#: What the kit holds: a game's words module defines none of these itself.
KIT_HELPERS = {
    "who",
    "_who",
    "mark",
    "_mark",
    "names",
    "_outcome",
    "_outcome_of",
    "outcome_of",
    "outcome_lines",
    "_result",
    "_ended",
    "_winners",
    "_next",
    "_round_line",
    "_ships",
    "_ship",
    "cards_gained",
}
#: Lines of the end (and of the hand-over) the kit words: no game writes them out again.
KIT_LINES = ("Game over", "share the win", "is a draw", "The team wins", "is next.")


def _update(digest: Any, lines: list[str], tag: bytes) -> int:
    digest.update(tag + "\n".join(lines).encode() + b"\x00")
    return len(lines)


def _end_told_from_fewer_fields(game: Any, before: Mapping[str, Any], notation: str, after: Mapping[str, Any], digest: Any) -> None:
    """The last action told from views that lack one field each (the end must not depend on a field by chance)."""
    for key in sorted(after):
        _update(digest, game.describe(before, notation, {k: v for k, v in after.items() if k != key}), b"a" + key.encode())
        _update(digest, game.describe({k: v for k, v in before.items() if k != key}, notation, after), b"b" + key.encode())


def words_digest(game_id: str, players: int, options: dict[str, Any], seed: int) -> str:
    """The digest of every line of one seeded random game, told to every seat and a spectator."""
    game = astrarium.get_game(game_id)
    state = game.new_game(players, seed, dict(options))
    rng = Rng(seed)
    digest = hashlib.sha256()
    seats = [None, *range(state.players)]
    views = [state.picture_view(seat) for seat in seats]
    while not state.is_over:
        notation = str(rng.choice(state.legal_actions()))
        state.apply(notation)
        after = [state.picture_view(seat) for seat in seats]
        for before, now in zip(views, after, strict=True):
            _update(digest, game.describe(before, notation, now), b"")
            if state.is_over:
                _end_told_from_fewer_fields(game, before, notation, now, digest)
        views = after
    return digest.hexdigest()[:16]


DIGESTS = RecordedDigests(DATA, CASES, lambda name, seed: words_digest(*CASES[name][:3], seed))


@pytest.mark.parametrize("name", sorted(CASES))
def test_words_are_exactly_as_recorded(name: str) -> None:
    """The first quarter of each case's games; the rest in the slow suite."""
    DIGESTS.check(name, "the words", DIGESTS.split(name)[0])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_rest_of_the_words_are_exactly_as_recorded(name: str) -> None:
    DIGESTS.check(name, "the words", DIGESTS.split(name)[1])


def test_every_case_is_recorded_and_every_game_has_a_case() -> None:
    assert sorted(DIGESTS.recorded()) == sorted(CASES)
    assert {case[0] for case in CASES.values()} == set(MODULES)
    assert {g for g in astrarium.list_games() if g != "toy-pile"} == set(MODULES)


def _tree(module_name: str) -> ast.Module:
    return ast.parse(inspect.getsource(importlib.import_module(module_name)))


@pytest.mark.parametrize("game_id", sorted(MODULES))
def test_the_words_module_names_seats_and_tells_the_end_with_the_kit(game_id: str) -> None:
    tree = _tree(MODULES[game_id])
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "astrarium.core.words"
        for alias in node.names
    }
    assert {"outcome_lines"} <= imported and imported & {"who", "ship_who"}, f"{game_id}: name seats and tell the end with the kit"
    defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.ClassDef)}
    assert not defined & KIT_HELPERS, f"{game_id}: copies of the kit's helpers: {sorted(defined & KIT_HELPERS)}"
    assigned = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)}
    assert "SEAT_MARKS" not in assigned, f"{game_id}: the seats' letters are the kit's SEAT_MARKS (mark)"
    texts = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    again = sorted({line for line in KIT_LINES for text in texts if line in text})
    assert not again, f"{game_id}: lines the kit words, written out again: {again}"


@pytest.mark.parametrize("module_name", [*sorted(MODULES.values()), "astrarium.core.words"])
def test_every_helper_takes_the_views_before_then_after(module_name: str) -> None:
    for node in ast.walk(_tree(module_name)):
        if isinstance(node, ast.FunctionDef):
            params = [a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]]
            if "before" in params and "after" in params:
                assert params.index("before") < params.index("after"), f"{module_name}.{node.name}: take (before, after)"


@pytest.mark.parametrize("game_id", sorted(MODULES))
def test_every_game_keeps_its_describe(game_id: str) -> None:
    describe = importlib.import_module(MODULES[game_id]).describe
    assert list(inspect.signature(describe).parameters) == ["before", "notation", "after"]


# -- the kit itself -----------------------------------------------------------------------------------
def test_who_names_a_seat_by_the_games_naming() -> None:
    assert kit.who(0) == "A (seat 0)" and kit.who(None) == "The game" and kit.who(-1, start=False) == "the game"
    assert kit.ship_who(1) == "Ship B (seat 1)" and kit.ship_who(3, start=False) == "ship D (seat 3)"
    by_name = lambda seat, view, start: f"{view['names'][seat]} ({kit.mark(seat)})"  # noqa: E731
    assert kit.who(1, {"names": ["Sun", "Moon"]}, naming=by_name) == "Moon (B)"
    assert kit.names([2, 0], naming=kit.by_ship) == "Ship C (seat 2) and ship A (seat 0)"


def _ending(outcome: dict[str, Any] | None, **extra: Any) -> dict[str, Any]:
    return {"outcome": outcome, **extra}


def test_outcome_lines_tell_the_end_once() -> None:
    won = _ending({"winners": [1], "reason": "seat 1 reached 30"})
    assert kit.outcome_lines({}, won, 2) == ["Game over: seat 1 reached 30.", "B (seat 1) wins."]
    assert kit.outcome_lines(won, won, 2) == []
    assert kit.outcome_lines({}, _ending(None), 2) == []
    assert kit.outcome_lines({}, _ending({"winners": [0, 1]}), 2) == ["Game over.", "The game is a draw."]
    assert kit.outcome_lines({}, _ending({"winners": []}), 3) == ["Game over.", "The game is a draw."]
    shared = kit.outcome_lines({}, _ending({"winners": [0, 2]}, scores=[9, 3, 9]), 3, naming=kit.by_ship, scored=True)
    assert shared[1] == "Ship A (seat 0) and ship C (seat 2) share the win with 9 points."
    assert kit.outcome_lines({}, _ending({"winners": []}), 1)[1] == "A (seat 0) loses."
    assert kit.outcome_lines({}, _ending({"winners": [0, 1]}), 4, team=True)[1] == "The team wins."
    assert kit.outcome_lines({}, {"over": {"reason": "x", "winners": [0]}}, 2, reason=str.upper) == ["Game over: X.", "A (seat 0) wins."]


def test_the_hand_over_lines() -> None:
    assert kit.round_line({"round": 2}, {"round": 3, "limit": 12}, "limit") == "Round 3 of 12 begins."
    assert kit.round_line({"round": 2}, {"round": 3}, "limit", "; ship A allocates first") == "Round 3 begins; ship A allocates first."
    assert kit.round_line({"round": 3}, {"round": 3}, "limit") == ""
    assert kit.next_line(0, {"to_move": 1}) == "B (seat 1) is next." and kit.next_line(1, {"to_move": 1}) == ""
    assert kit.new_events({"events": ["a", "b", "c"]}, {"events": ["b", "c", "d"]}) == ["d"]
    assert kit.new_events({"events": ["a", "b", "c"]}, {"events": ["b", "c", "d"]}, most=1) == ["b", "c", "d"]
    assert kit.cards_gained(["x", "y"], ["y", "z", "x"], left="x") == ["x", "z"]
    assert kit.seat_count({"players": [{}, {}]}, "players") == 2 and kit.seat_count({"players_count": 3}, "ships") == 3


if __name__ == "__main__":
    DIGESTS.record(sys.argv[1:])
