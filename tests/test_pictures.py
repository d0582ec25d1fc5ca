"""Every game's picture: well-formed SVG, from the view alone, with every legal action clickable.

A picture is ``game.render_svg(state.picture_view(seat))``. These tests hold
every game to the contract of the pictures: the SVG parses as XML, has a
viewBox and a title, and every legal action in random positions can be reached
by clicking tokens that are in the picture (or offered as buttons), with the
clicks narrowing to that very action and never to an illegal one.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterable

import pytest

import astrarium
from astrarium.core.game import State
from astrarium.core.svg import Svg, chosen, narrow

NS = "{http://www.w3.org/2000/svg}"
GAMES = [g for g in astrarium.list_games() if g != "toy-pile"]
POSITIONS = 200
#: The positions the quick suite checks, the first of :data:`POSITIONS`.
QUICK_POSITIONS = 50


def has_pictures(game_id: str) -> bool:
    game = astrarium.get_game(game_id)
    return importlib.util.find_spec(f"{type(game).__module__}.svg") is not None


def positions(game_id: str, count: int = POSITIONS, seed: int = 0):
    """``count`` positions of random play (several games, every stage), with the seat to look from."""
    game = astrarium.get_game(game_id)
    rng = random.Random(seed)
    made = 0
    game_seed = seed
    while made < count:
        players = rng.randint(max(1, game.min_players), game.max_players)
        state = game.new_game(players, game_seed)
        game_seed += 1
        stops = sorted(rng.randrange(0, 400) for _ in range(8))
        step = 0
        for stop in stops:
            while step < stop and not state.is_over:
                state.apply_unchecked(rng.choice(state.legal_actions()))
                step += 1
            seat = state.current_player
            yield state.clone(), seat
            made += 1
            if made >= count or state.is_over:
                break


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def tokens_in(root: ET.Element) -> set[str]:
    return {el.attrib["data-token"] for el in root.iter() if "data-token" in el.attrib}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_draws_its_position(game_id: str) -> None:
    assert has_pictures(game_id), f"{game_id} has no svg module (render_svg)"


@pytest.mark.parametrize("game_id", [g for g in GAMES if has_pictures(g)])
def test_pictures_parse_with_viewbox_and_title_and_every_legal_action_is_clickable(game_id: str) -> None:
    """The first :data:`QUICK_POSITIONS` positions; the rest in the slow suite."""
    check_pictures_and_clicks(game_id, itertools.islice(positions(game_id), QUICK_POSITIONS))


@pytest.mark.slow
@pytest.mark.parametrize("game_id", [g for g in GAMES if has_pictures(g)])
def test_the_rest_of_the_pictures_parse_and_every_legal_action_is_clickable(game_id: str) -> None:
    check_pictures_and_clicks(game_id, itertools.islice(positions(game_id), QUICK_POSITIONS, None))


def check_pictures_and_clicks(game_id: str, states: Iterable[tuple[State, int | None]]) -> None:
    game = astrarium.get_game(game_id)
    buttons = game.button_tokens()
    for state, seat in states:
        root = parse(state.render_svg(seat))
        assert root.attrib["viewBox"].startswith("0 0 ")
        assert (root.find(f"{NS}title").text or "").strip()
        if state.is_over or seat is None:
            continue
        drawn = tokens_in(root)
        legal = [str(a) for a in state.legal_actions()]
        for notation in legal:
            clicks = game.action_tokens(notation)
            missing = [t for t in clicks if t not in drawn and t not in buttons]
            assert not missing, f"{game_id}: {notation!r} needs {missing}, neither drawn nor a button"
            assert chosen(legal, clicks, game.action_tokens) == notation, f"{game_id}: clicking {clicks} does not pick {notation!r}"
        for token in sorted(drawn | buttons)[:40]:
            assert set(narrow(legal, [token], game.action_tokens)) <= set(legal)


def test_builder_escapes_every_text_and_attribute() -> None:
    svg = Svg(100, 50, 'A <b> & "quote"')
    svg.text(1, 2, "</text><script>alert(1)</script>", data_token='x"><script>')
    root = parse(svg.to_string())
    assert not any(el.tag.endswith("script") for el in root.iter())
    text = root.find(f"{NS}text")
    assert text is not None and text.text == "</text><script>alert(1)</script>"
    assert text.attrib["data-token"] == 'x"><script>'


def test_narrowing_by_tokens() -> None:
    legal = ["move e5-f6", "move e5-f6 x", "play a1", "end"]
    tokens = str.split
    assert narrow(legal, ["move"], tokens) == ["move e5-f6", "move e5-f6 x"]
    assert chosen(legal, ["move", "e5-f6"], tokens) == "move e5-f6"
    assert chosen(legal, ["e5-f6", "x"], tokens) == "move e5-f6 x"
    assert chosen(legal, ["move"], tokens) is None
    assert narrow(legal, ["zzz"], tokens) == []


def test_the_pictures_in_the_docs_are_current() -> None:
    """docs/images/ holds what `make pictures` draws today (run it after changing a picture or a rule)."""
    from helpers import load_script

    module = load_script("make_pictures")
    for path, svg in module.expected().items():
        assert path.exists(), f"{path.name} is missing: run make pictures"
        assert path.read_text(encoding="utf-8") == svg + "\n", f"{path.name} is out of date: run make pictures"
