"""The picture of an Orbital Combat position: what it draws, how its controls click, that it uses the view alone."""

from __future__ import annotations

import json
import math
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

import astrarium
from astrarium.core import State
from astrarium.core.svg import SEAT_MARKS, chosen
from astrarium.games.orbital_combat import svg as picture

GAME = astrarium.get_game("orbital-combat")
NS = "{http://www.w3.org/2000/svg}"
POSITIONS = 200


def game(*ships: str, **options: object) -> State:
    options.setdefault("turn_order", "fixed")
    return GAME.new_game(len(ships), 0, {"ships": list(ships), **options})


def random_positions(count: int = POSITIONS, seed: int = 7) -> Iterator[State]:
    """``count`` positions of random play with 2 to 4 ships, early, middle and finished games."""
    rng = random.Random(seed)
    made = 0
    game_seed = seed
    while made < count:
        state = GAME.new_game(rng.randint(2, 4), game_seed)
        game_seed += 1
        for stop in sorted(rng.randrange(0, 160) for _ in range(6)):
            while state.move_number < stop and not state.is_over:
                state.apply_unchecked(rng.choice(state.legal_actions()))
            yield state.clone()
            made += 1
            if made >= count or state.is_over:
                break


def draw(state: State, seat: int | None = None) -> ET.Element:
    return ET.fromstring(state.render_svg(seat))


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in el.attrib.get("class", "").split()]


def tokens(root: ET.Element) -> set[str]:
    return {el.attrib["data-token"] for el in root.iter() if "data-token" in el.attrib}


def texts(root: ET.Element) -> list[str]:
    return [el.text or "" for el in root.iter(f"{NS}text")]


def centre(root: ET.Element) -> tuple[float, float]:
    hole = with_class(root, "black-hole")[0]
    return float(hole.attrib["cx"]), float(hole.attrib["cy"])


def disc(group: ET.Element) -> tuple[float, float]:
    circle = group.find(f"{NS}circle")
    assert circle is not None
    return float(circle.attrib["cx"]), float(circle.attrib["cy"])


def clockwise_from_top(x: float, y: float) -> float:
    """Degrees clockwise from the top of a board point in millimetres (y up)."""
    return math.degrees(math.atan2(x, y)) % 360


def picture_angle(root: ET.Element, point: tuple[float, float]) -> float:
    cx, cy = centre(root)
    return clockwise_from_top(point[0] - cx, cy - point[1])


def angle_gap(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


# -- Board Layout: the black hole and the eight rings to scale, with sector ticks ---------------------------


def test_board_layout_rings_to_scale_with_a_tick_per_sector() -> None:
    state = GAME.new_game(2, 0)
    root = draw(state, 0)
    assert len(with_class(root, "black-hole")) == 1
    rings = state.view()["rings"]
    drawn = with_class(root, "ring")
    assert [int(el.attrib["data-ring"]) for el in drawn] == [r["ring"] for r in rings]
    scales = {round(float(el.attrib["r"]) / r["radius_mm"], 3) for el, r in zip(drawn, rings, strict=True)}
    assert len(scales) == 1, "one scale for every ring: the board is to scale"
    ticks = with_class(root, "ticks")
    assert [el.attrib["d"].count("M") for el in ticks] == [r["sectors"] for r in rings]
    labels = texts(root)
    for r in rings:
        assert str(r["ring"]) in labels and f"v{r['velocity']}" in labels


# -- Ships at their true angle, with facing; transfers; energy, mass, hull ---------------------------------


def test_ships_drawn_match_the_view_in_random_positions() -> None:
    for state in random_positions():
        seat = state.current_player
        view = state.picture_view(seat)
        root = ET.fromstring(picture.render_svg(view))
        flying = [s for s in view["ships"] if s["alive"]]
        ships = with_class(root, "ship")
        assert len(ships) == len(flying)
        scale = float(with_class(root, "ring")[0].attrib["r"]) / view["rings"][0]["radius_mm"]
        cx, cy = centre(root)
        for group, ship in zip(ships, flying, strict=True):
            assert int(group.attrib["data-seat"]) == ship["seat"]
            assert group.attrib["data-facing"] == ship["facing"]
            x, y = disc(group)
            mx, my = ship["position_mm"]
            assert angle_gap(picture_angle(root, (x, y)), clockwise_from_top(mx, my)) < 0.5
            assert math.hypot(x - cx, y - cy) / scale == pytest.approx(view["rings"][ship["ring"] - 1]["radius_mm"], abs=0.1)
        moving = [s for s in flying if s["in_transfer_to"]]
        assert len(with_class(root, "transfer")) == len(moving)
        assert len(with_class(root, "landing")) == len(moving)
        assert sorted(int(el.attrib["data-to"]) for el in with_class(root, "transfer")) == sorted(s["in_transfer_to"] for s in moving)
        over = state.is_over
        assert len(with_class(root, "ghost")) == (0 if over else 1)
        assert len(with_class(root, "range")) == (0 if over else 1)
        assert len(with_class(root, "ship-row")) == len(view["ships"])
        labels = texts(root)
        for ship in flying:
            assert f"mass {ship['mass']}/24" in labels
            assert f"hull {ship['hull']}" in labels


def test_facing_nose_points_along_the_orbit_for_prograde_and_against_it_for_retrograde() -> None:
    state = game("r4 s13 pro", "r6 s40 retro")  # seat 0 on the right (90°), seat 1 on the left
    root = draw(state, 0)
    for group in with_class(root, "ship"):
        x, y = disc(group)
        tip = group.find(f"{NS}polygon").attrib["points"].split()[0].split(",")  # type: ignore[union-attr]
        dy = float(tip[1]) - y
        # Clockwise motion goes down on the right of the board and up on the left.
        on_right = x > centre(root)[0]
        goes_down = dy > 0
        assert goes_down == (on_right == (group.attrib["data-facing"] == "prograde"))


def test_transfer_path_ends_at_the_landing_sector_of_the_destination_ring() -> None:
    state = game("r4 s13 retro", "r8 s1")
    state.apply("burn retro hard w0 d8")  # seat 0: ring 4 sector 13 -> sector 19, in transfer to ring 2
    state.apply("coast w0 d10")  # seat 1 moves; seat 0's transfer is still pending
    view = state.view()
    assert view["ships"][0]["in_transfer_to"] == 2
    root = draw(state, 1)
    landing = with_class(root, "landing")[0]
    # Keep the angle: sector 19 of 48 (index 18) lands on index floor(18.5 * 30 / 48) = 11 of ring 2.
    expected = 360 * (11 + 0.5) / 30
    assert angle_gap(picture_angle(root, disc(landing)), expected) < 0.01


def test_ghost_shows_where_the_ship_to_move_will_be_after_its_turn_in_random_positions() -> None:
    for state in random_positions(60, seed=11):
        if state.is_over:
            continue
        seat = state.current_player
        root = draw(state, seat)
        after = state.clone()
        after.apply(state.legal_actions()[0])
        while after.view()["ships"][seat]["allocated_this_round"] and not after.is_over:
            after.apply(after.legal_actions()[0])  # round resolution: the ship moves when the round resolves
        ship = after.view()["ships"][seat]
        if not ship["alive"]:
            continue
        ghost = with_class(root, "ghost")[0]
        assert angle_gap(picture_angle(root, disc(ghost)), clockwise_from_top(*ship["position_mm"])) < 0.5


def test_weapon_range_circle_is_drawn_to_scale_around_the_ghost() -> None:
    state = game("r4 s1", "r4 s25")
    root = draw(state, 0)
    scale = float(with_class(root, "ring")[3].attrib["r"]) / 100.0
    circle = with_class(root, "range")[0]
    assert float(circle.attrib["r"]) / scale == pytest.approx(150.0)
    assert (float(circle.attrib["cx"]), float(circle.attrib["cy"])) == disc(with_class(root, "ghost")[0])


# -- Clicking: every choice of an allocation is a control carrying its token -------------------------------


def test_action_tokens_make_a_burn_one_choice_and_keep_the_notation() -> None:
    assert picture.action_tokens("rot burn retro hard w5 d3") == ["rot", "burn retro hard", "w5", "d3"]
    assert picture.action_tokens("coast w5 d5 @1") == ["coast", "w5", "d5", "@1"]
    assert picture.action_tokens("coast scoop w0 d5") == ["coast", "scoop", "w0", "d5"]
    for notation in ("rot burn pro extreme w2 d4", "coast scoop w3 d2 @2"):
        assert " ".join(picture.action_tokens(notation)) == notation


def test_burn_markers_are_exactly_the_burns_the_ship_can_make_in_random_positions() -> None:
    for state in random_positions():
        if state.is_over:
            continue
        root = draw(state, state.current_player)
        legal_burns = {t for a in state.legal_actions() for t in picture.action_tokens(str(a)) if t.startswith("burn ")}
        on_board = {el.attrib["data-token"] for el in with_class(root, "burn")}
        assert on_board == legal_burns


def test_targets_are_the_opponent_ships_when_a_target_must_be_named() -> None:
    state = game("r4 s1", "r4 s5", "r4 s9")
    root = draw(state, 0)
    on_ships = {el.attrib["data-token"] for el in with_class(root, "ship") if "data-token" in el.attrib}
    assert on_ships == {"@1", "@2"}
    assert chosen([str(a) for a in state.legal_actions()], ["coast", "w4", "d6", "@2"], picture.action_tokens) == "coast w4 d6 @2"
    duel = game("r4 s1", "r4 s5")
    assert not any("data-token" in el.attrib for el in with_class(draw(duel, 0), "ship"))


def test_seed_examples_click_to_their_allocation() -> None:
    example_1 = game("r5 s1 retro", "r8 s1")  # Example 1: ring 5 facing retrograde, hard burn to ring 3
    legal = [str(a) for a in example_1.legal_actions()]
    root = draw(example_1, 0)
    assert "burn retro hard" in tokens(root)
    assert chosen(legal, ["burn retro hard", "w0", "d8"], picture.action_tokens) == "burn retro hard w0 d8"
    example_2 = game("r3 s1 retro", "r3 s9")  # Example 2: ring 3, rotate and extreme burn prograde to ring 6
    legal = [str(a) for a in example_2.legal_actions()]
    clicks = ["rot", "burn pro extreme", "w2", "d4"]
    assert set(clicks) <= tokens(draw(example_2, 0))
    assert chosen(legal, clicks, picture.action_tokens) == "rot burn pro extreme w2 d4"


def test_controls_are_drawn_only_for_the_seat_to_move() -> None:
    state = game("r4 s1", "r4 s5", "r4 s9")
    assert tokens(draw(state, 0))
    assert not tokens(draw(state, 1))
    assert not tokens(draw(state, None))
    assert not picture.BUTTON_TOKENS


# -- Text, colour and what the picture may know --------------------------------------------------------------


def test_text_from_the_view_is_escaped() -> None:
    state = game("r4 s1", "r4 s5")
    view = state.picture_view(0)
    nasty = '<b>&"fire"</b>'
    view["events"] = [nasty]
    view["ships"][1]["last_allocation"] = nasty
    root = ET.fromstring(picture.render_svg(view))
    assert nasty in texts(root)
    assert any(nasty in t for t in texts(root) if t.startswith("last:"))
    assert not any(el.tag == f"{NS}b" for el in root.iter())


def test_colour_is_not_the_only_carrier_each_seat_has_its_letter() -> None:
    state = game("r4 s1", "r4 s13", "r4 s25", "r4 s37")
    root = draw(state, 0)
    letters = []
    for group in with_class(root, "ship"):
        mark = [t.text or "" for t in group.iter(f"{NS}text")]
        assert mark == [SEAT_MARKS[int(group.attrib["data-seat"])]]
        letters += mark
    assert sorted(letters) == ["A", "B", "C", "D"]
    # The energy bar's systems carry letters too (R, E, S, W, D), not only their colours.
    assert {s[0] for s in picture.SYSTEMS} == {"R", "E", "S", "W", "D"}


def test_picture_is_drawn_from_the_view_alone() -> None:
    for state in random_positions(40, seed=3):
        seat = state.current_player
        view = state.picture_view(seat)
        assert picture.render_svg(json.loads(json.dumps(view))) == state.render_svg(seat)
        # Perfect information: every seat's view is the same, so every seat sees the same picture but for its controls.
        seats = range(state.players)
        assert len({picture.render_svg({**state.picture_view(s), "viewer": None}) for s in seats}) == 1


def test_two_clicks_pick_an_allocation_when_defense_takes_the_rest() -> None:
    state = game("r5 s1 retro", "r5 s5")  # one opponent, in range: no target to name
    legal = [str(a) for a in state.legal_actions()]
    assert chosen(legal, ["burn retro hard", "w5"], picture.action_tokens) == "burn retro hard w5 d3"
