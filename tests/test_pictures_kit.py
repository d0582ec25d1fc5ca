"""Every game's picture is drawn with the shared kit, and the pictures stay exactly as recorded.

The kit (``astrarium.core.picture_kit``) holds what every picture shares: the
palette by role, the header band, ``fragment`` and ``place``, panels, badges,
the legend and the status line's phrases. A game's ``svg`` module uses it and
keeps no copy of its helpers: no function of a kit helper's name, no header
height of its own, no colour of the palette written out again.

The digests in ``tests/data/picture_digests.json`` were recorded from the
pictures as the games drew them before the kit existed: random games of every
game, over several player counts and options, a few hundred positions each,
every seat's picture and the spectator's (and ``render_svg_parts`` where a game
has it). The same digests prove the kit changed no picture by a byte. Every
game of a case has its own short digest, so a difference names its seed.

To record the file again (only for a deliberate change of a picture or of a
game's view)::

    python tests/test_pictures_kit.py --record
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import astrarium
from astrarium.core import picture_kit as kit
from helpers import RecordedDigests, sample_positions

#: The hard map the Streamlines digests were recorded on (the shipped hard map has since moved).
HARD_CORNERS = str(Path(__file__).parent / "games" / "streamlines" / "hard_corners.toml")
DATA = Path(__file__).parent / "data" / "picture_digests.json"

MODULES = {
    "celestials": "astrarium.games.celestials.svg",
    "connected-worlds": "astrarium.games.connected_worlds.svg",
    "constellations": "astrarium.games.constellations.svg",
    "orbital-combat": "astrarium.games.orbital_combat.svg",
    "streamlines": "astrarium.games.streamlines.svg",
}

#: case name -> (game id, players, options, games, positions per game). Seeds are 0..games-1.
CASES: dict[str, tuple[str, int, dict[str, Any], int, int]] = {
    "celestials-default": ("celestials", 2, {}, 6, 30),
    "celestials-short": ("celestials", 2, {"turn_limit": 3, "health": 4, "first": "moon"}, 6, 20),
    "connected-worlds-2": ("connected-worlds", 2, {"turn_order": "fixed"}, 4, 30),
    "connected-worlds-4-short": ("connected-worlds", 4, {"round_limit": 1, "victory": "capture", "turn_order": "fixed"}, 4, 30),
    "constellations-solo": ("constellations", 1, {}, 6, 20),
    "constellations-3-swap": ("constellations", 3, {"swap": True, "planet_in_line": True}, 6, 30),
    "orbital-combat-2": ("orbital-combat", 2, {}, 5, 30),
    "orbital-combat-4-turns": ("orbital-combat", 4, {"resolution": "turn", "round_limit": 8}, 5, 30),
    "streamlines-2": ("streamlines", 2, {}, 5, 30),
    "streamlines-4-hard": ("streamlines", 4, {"scenario_file": HARD_CORNERS, "movement": "carried", "free_lay": True}, 5, 30),
}

#: Helpers the kit holds: a picture module defines none of these itself.
KIT_HELPERS = {"fragment", "_fragment", "place", "_place", "_text", "badge", "_badge", "_panel", "_plural", "_n", "_draw_events"}


def picture_digest(game_id: str, players: int, options: dict[str, Any], seed: int, count: int) -> str:
    """The digest of every picture of ``count`` positions of one seeded random game, from every seat and a spectator."""
    game = astrarium.get_game(game_id)
    digest = hashlib.sha256()
    for state in sample_positions(game.new_game(players, seed, dict(options)), seed, count):
        for seat in [None, *range(state.players)]:
            view = state.picture_view(seat)
            digest.update(game.render_svg(view).encode())
            parts = game.render_svg_parts(view)
            if parts is not None:
                digest.update(json.dumps(parts).encode())
            digest.update(b"\n")
    return digest.hexdigest()[:16]


DIGESTS = RecordedDigests(DATA, CASES, lambda name, seed: picture_digest(*CASES[name][:3], seed, CASES[name][4]))


@pytest.mark.parametrize("name", sorted(CASES))
def test_pictures_are_exactly_as_recorded(name: str) -> None:
    """The first quarter of each case's games; the rest in the slow suite."""
    DIGESTS.check(name, "the pictures", DIGESTS.split(name)[0])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_rest_of_the_pictures_are_exactly_as_recorded(name: str) -> None:
    DIGESTS.check(name, "the pictures", DIGESTS.split(name)[1])


def test_every_case_is_recorded_and_every_game_has_a_case() -> None:
    assert sorted(DIGESTS.recorded()) == sorted(CASES)
    assert {case[0] for case in CASES.values()} == set(MODULES)


def test_every_game_is_checked() -> None:
    assert {g for g in astrarium.list_games() if g != "toy-pile"} == set(MODULES)


@pytest.mark.parametrize("game_id", sorted(MODULES))
def test_the_picture_module_draws_with_the_kit(game_id: str) -> None:
    module = importlib.import_module(MODULES[game_id])
    tree = ast.parse(inspect.getsource(module))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "astrarium.core.picture_kit"
        for alias in node.names
    }
    assert imported, f"{game_id}: its picture module does not import the kit"
    assert not any(isinstance(node, ast.ImportFrom) and node.module == "astrarium.core.svg" for node in ast.walk(tree)), (
        f"{game_id}: draw from the kit (astrarium.core.picture_kit), which holds what core.svg offers a picture"
    )
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert not defined & KIT_HELPERS, f"{game_id}: copies of the kit's helpers: {sorted(defined & KIT_HELPERS)}"
    assigned = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)}
    assert "HEADER" not in assigned, f"{game_id}: the header's height is the kit's HEADER"


@pytest.mark.parametrize("game_id", sorted(MODULES))
def test_no_palette_colour_is_written_out_again(game_id: str) -> None:
    source = inspect.getsource(importlib.import_module(MODULES[game_id])).lower()
    roles = [role for role in kit.COLOURS if not role.startswith("seat ")]  # a seat's hue may stand for something else too
    again = sorted(role for role in roles if f'"{kit.COLOURS[role].lower()}"' in source)
    assert not again, f"{game_id}: use the kit's names for the palette's colours: {again}"


def test_the_kit_places_fragments_one_way() -> None:
    parts: list[str] = []
    kit.place(parts, "<b/>", 3, 4.5)
    kit.place(parts, "<b/>", 0, 0, cls="card", token="a&b", extra=' data-x="1"')
    assert parts == [
        '<g transform="translate(3 4.5)"><b/></g>',
        '<g class="card tok" data-token="a&amp;b" transform="translate(0 0)" data-x="1"><b/></g>',
    ]
    assert kit.fragment(lambda svg: svg.circle(0, 0, 2)) == '<circle cx="0" cy="0" r="2"/>'
    assert kit.HEADER == 52 and tuple(kit.COLOURS[f"seat {m}"] for m in kit.SEAT_MARKS) == kit.SEAT_COLOURS


def test_the_status_phrases() -> None:
    assert kit.seat_to(1, "play") == "B (seat 1) to play"
    assert kit.you_are(2, 1) == ["you are C"] and kit.you_are(1, 1) == [] and kit.you_are(None, 1) == []
    assert kit.you_suffix(0) == " · you: A" and kit.you_suffix(None) == ""
    assert kit.wins(kit.winner_marks({"winners": [0, 2]}), "a draw") == "A and C win"
    assert kit.wins([], "a draw") == "a draw"
    assert kit.game_over("A wins", "x" * 200).endswith("…") and len(kit.game_over("A wins", "x" * 200)) == 90


if __name__ == "__main__":
    DIGESTS.record(sys.argv[1:])
