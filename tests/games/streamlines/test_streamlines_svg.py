"""The picture of a Streamlines position: what it draws, how its clicks pick actions, and that it shows only the view."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from streamlines_fixtures import GAME, TWO_EACH, new_game, play, scenario_text, stacked, write_scenario

from astrarium.agents.streamlines_courier import courier
from astrarium.core import Rng
from astrarium.core.svg import SEAT_COLOURS, SEAT_MARKS, chosen, narrow
from astrarium.games.streamlines.state import StreamlinesState
from astrarium.games.streamlines.svg import BUTTON_TOKENS, PIPS, action_tokens, orientations, render_svg

NS = "{http://www.w3.org/2000/svg}"
SCENARIOS = ("introductory", "standard", "hard")
#: Verbs a busy team prefers, so that positions with laid cards, full holds and transfers come up often.
BUSY = ("draw", "lay", "give", "drop", "dump", "pickup", "engineer", "extra")


def busy_positions(count: int, seed: int = 0) -> Iterator[StreamlinesState]:
    """``count`` positions where the team draws, lays and gives far more than random play does.

    Moves mostly follow the scripted builder (towards planets, then the escape), so ships reach
    the planets and fill their holds; the other choices are random.
    """
    rng = random.Random(seed)
    made = game_seed = 0
    while made < count:
        state = GAME.new_game(rng.randint(2, 4), game_seed, {"scenario": SCENARIOS[game_seed % 3]})
        game_seed += 1
        assert isinstance(state, StreamlinesState)
        for _ in range(rng.randint(1, 12)):
            for _ in range(rng.randint(1, 12)):
                if state.is_over:
                    break
                legal = state.legal_actions()
                busy = [a for a in legal if str(a).split()[0] in BUSY]
                roll = rng.random()
                if busy and roll < 0.5:
                    state.apply_unchecked(rng.choice(busy))
                elif roll < 0.85:
                    state.apply_unchecked(courier(state, lay=True))
                else:
                    state.apply_unchecked(rng.choice(legal))
            yield cast(StreamlinesState, state.clone())
            made += 1
            if made >= count or state.is_over:
                break


def picture(state: StreamlinesState, seat: int | None = None) -> ET.Element:
    return ET.fromstring(state.render_svg(state.current_player if seat is None else seat))


def classes(el: ET.Element) -> list[str]:
    return el.attrib.get("class", "").split()


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in classes(el)]


def drawn_tokens(root: ET.Element) -> set[str]:
    return {el.attrib["data-token"] for el in root.iter() if "data-token" in el.attrib}


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{NS}text")]


def gates_game(tmp_path: Path) -> StreamlinesState:
    """Two Gate cards laid at c4 and c6; ship 0 has just stepped between them to c5, with both jumps open."""
    path = write_scenario(tmp_path, scenario_text(["c3"], ["g7"], ["c3", "a9"], required=2, name="gates"))
    deck = stacked([["action", "cargo", "action", "cargo"], TWO_EACH], ["straight", "gate-a", "gate-a"])
    state = new_game(2, scenario_file=path, deck=deck)
    play(state, "draw", "draw", "end", "end", "move c4", "lay gate-a", "end", "end", "move c5", "move c6", "end", "end")
    return play(state, "lay gate-a", "end", "end", "move c5")


def laying_game(tmp_path: Path) -> StreamlinesState:
    """Ship 0 on the empty square d3 holding a corner and a Gate; ship 1 holds a line; ship 2 a refugee."""
    streams = {"e6": "s", "f6": "w", "e3": "n", "e4": "n"}
    path = write_scenario(tmp_path, scenario_text(["d4", "g7", "b8"], ["e5"], ["d4", "g7"], required=4, streamlines=streams))
    powers = [
        ["action", "cargo", "action", "cargo"],
        ["action", "cargo", "pickup", "engineering"],
        ["action", "cargo", "extra-move", "cargo"],
    ]
    cards = ["straight", "line", "collapse", "corner", "gate-a", "tee", "straight", "straight", "line", "collapse"]
    cards += ["straight", "line", "refugee", "refugee", "gate-a", "straight", "collapse", "line"]
    deck = [n for group in powers for n in group] + cards + ["straight"] * 20 + ["refugee"] * 6 + ["collapse"] * 4
    state = new_game(3, scenario_file=path, deck=deck)
    return play(state, "draw", "draw", "end", "draw", "end", "draw", "extra", "move d5", "end", "move d3")


def assert_every_action_clicks_to_itself(state: StreamlinesState) -> None:
    root = picture(state)
    drawn = drawn_tokens(root)
    legal = [str(a) for a in state.legal_actions()]
    for notation in legal:
        clicks = action_tokens(notation)
        assert all(t in drawn or t in BUTTON_TOKENS for t in clicks), (notation, clicks)
        assert chosen(legal, clicks, action_tokens) == notation
    for token in drawn | BUTTON_TOKENS:
        assert set(narrow(legal, [token], action_tokens)) <= set(legal)


# -- tokens ---------------------------------------------------------------------


def test_svg_tokens_a_move_is_the_ship_then_its_end_square() -> None:
    assert action_tokens("move c2-b2-b3-a3") == ["move", "a3"]
    assert action_tokens("move e6") == ["move", "e6"]
    assert action_tokens("move d4-g7=c8") == ["move", "c8", "jump"]


def test_svg_tokens_cards_then_where_they_go() -> None:
    assert action_tokens("lay nw") == ["corner", "nw"]
    assert action_tokens("lay ew") == ["line", "ew"]
    assert action_tokens("lay new") == ["tee", "new"]
    assert action_tokens("lay s") == ["straight", "s"]
    assert action_tokens("lay gate-b") == ["gate-b", "lay"]
    assert action_tokens("give corner 2") == ["corner", "2"]
    assert action_tokens("dump refugee") == ["dump", "refugee"]
    assert action_tokens("engineer ccw") == ["engineer", "ccw"]
    assert [action_tokens(v) for v in ("draw", "drop", "pickup", "extra", "end")] == [["draw"], ["drop"], ["pickup"], ["extra"], ["end"]]


def test_svg_orientations_are_the_cards_quarter_turns() -> None:
    assert orientations("straight") == ["n", "e", "s", "w"]
    assert orientations("line") == ["ns", "ew"] or orientations("line") == ["ew", "ns"]
    assert sorted(orientations("corner")) == ["es", "ne", "nw", "sw"]
    assert sorted(orientations("tee")) == ["esw", "nes", "new", "nsw"]


def test_svg_gate_jumps_and_walks_to_the_same_squares_each_click_to_themselves(tmp_path: Path) -> None:
    state = gates_game(tmp_path)
    legal = [str(a) for a in state.legal_actions()]
    assert {"move c6", "move c6=c4", "move c4", "move c4=c6"} <= set(legal)
    assert_every_action_clicks_to_itself(state)
    assert chosen(legal, ["move", "c4", "jump"], action_tokens) == "move c6=c4"
    assert chosen(legal, ["c4", "move"], action_tokens) == "move c4"
    root = picture(state)
    assert len(of_class(root, "gate")) == 2 and len(of_class(root, "gate-link")) == 1


def test_svg_laying_a_card_is_its_card_and_orientation_tile(tmp_path: Path) -> None:
    state = laying_game(tmp_path)
    legal = [str(a) for a in state.legal_actions()]
    assert {"lay ne", "lay es", "lay nw", "lay sw", "lay gate-a"} <= set(legal)
    assert_every_action_clicks_to_itself(state)
    root = picture(state)
    tiles = of_class(root, "orient")
    assert sorted(t.attrib["data-token"] for t in tiles) == sorted(orientations("corner"))
    assert narrow(legal, ["corner"], action_tokens) == ["lay ne", "lay es", "lay nw", "lay sw"]


def test_svg_every_legal_action_clicks_to_itself_in_busy_positions() -> None:
    seen: Counter[str] = Counter()
    for state in busy_positions(200, seed=7):
        if state.is_over:
            continue
        assert_every_action_clicks_to_itself(state)
        seen.update(str(a).split()[0] for a in state.legal_actions())
    # The busy team reaches the actions random play almost never offers.
    assert {"move", "draw", "lay", "dump", "give", "end"} <= set(seen)


# -- what is drawn --------------------------------------------------------------


def expected_counts(view: dict[str, Any]) -> dict[str, int]:
    laid = view["streamlines"].values()
    gates = Counter(c for c in laid if c.startswith("gate-"))
    ships = view["ships"]
    return {
        "ship": sum(s["square"] is not None for s in ships),
        "planet": len(view["planets"]),
        "escape": len(view["escapes"]),
        "streamline": sum(not c.startswith("gate-") for c in laid),
        "gate": sum(gates.values()),
        "gate-link": sum(n == 2 for n in gates.values()),
        "cargo": sum(len(s["cargo"]) for s in ships),
        "pip": sum(min(len(s["cargo"]), PIPS) for s in ships if s["square"] is not None),
        "power": sum(len(s["powers"]) for s in ships),
        "rescued": view["rescued"],
        "needed": max(view["required"] - view["rescued"], 0),
    }


def test_svg_counts_match_the_view_in_200_positions() -> None:
    for state in busy_positions(200, seed=3):
        view = state.picture_view(state.current_player)
        root = ET.fromstring(render_svg(view))
        for name, count in expected_counts(view).items():
            assert len(of_class(root, name)) == count, (name, view)
        stages = Counter(el.attrib["data-stage"] for el in of_class(root, "planet"))
        assert stages == Counter(p["stage"] for p in view["planets"])
        assert stages["black hole"] == sum(p["stage"] == "black hole" for p in view["planets"])
        (deck,) = of_class(root, "deck")
        assert int(deck.attrib["data-count"]) == view["deck"]
        (discard,) = of_class(root, "discard")
        assert int(discard.attrib["data-count"]) == sum(view["discard"].values())
        cards = sorted(el.attrib["data-card"] for el in of_class(root, "cargo"))
        assert cards == sorted(c for s in view["ships"] for c in s["cargo"])
        powers: Counter[str] = Counter()
        for el in of_class(root, "power"):
            powers[el.attrib["data-power"]] += int(el.attrib["data-count"])
        assert powers == sum((Counter(s["powers"]) for s in view["ships"]), Counter())


def test_svg_clock_counts_collapse_and_the_designed_events_in_the_deck() -> None:
    # Good news: Calm Star, Tailwind, Salvage; bad news besides Collapse: Ion Storm (events.toml).
    state = new_game(2)
    unseen = state.picture_view(0)["deck_contents"]
    good = unseen["calm-star"] + unseen["tailwind"] + unseen["salvage"]
    line = f"Collapse: {unseen['collapse']} in the deck, 0 discarded · other events in the deck: {good} good, {unseen['ion-storm']} bad"
    assert good > 0 and line in texts(picture(state))
    seeds_deck = new_game(2, events="collapse")
    line = f"Collapse: {seeds_deck.picture_view(0)['deck_contents']['collapse']} in the deck, 0 discarded"
    words = texts(picture(seeds_deck))
    assert line in words and not any("other events" in w for w in words)


def test_svg_board_has_every_square_as_a_token_with_coordinates() -> None:
    root = picture(new_game(2))
    squares = {el.attrib["data-token"] for el in of_class(root, "sq")}
    assert squares == {f"{f}{r}" for f in "abcdefghi" for r in range(1, 10)}
    words = texts(root)
    assert all(words.count(f) >= 2 for f in "abcdefghi") and all(words.count(str(r)) >= 2 for r in range(1, 10))


def test_svg_ships_sharing_a_square_sit_apart_and_say_so() -> None:
    state = new_game(4)  # the standard start: every ship on e5
    root = picture(state)
    ships = of_class(root, "ship")
    assert len(ships) == 4 and len({el.attrib["transform"] for el in ships}) == 4
    words = texts(root)
    assert any(w.endswith("shares the square with B, C, D") for w in words)
    assert any(w.endswith("shares the square with A, B, C") for w in words)


def test_svg_collapse_countdown_and_black_holes_are_signs_not_only_colours(tmp_path: Path) -> None:
    text = scenario_text(["e5", "a9"], ["i1"], ["e4", "a1"])
    deck = stacked([TWO_EACH, TWO_EACH], ["collapse", "straight", "collapse", "collapse"], planets=2)
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck)
    assert any("warned" in t for t in texts(picture(state)))
    play(state, "end")
    root = picture(state)
    (e5,) = [el for el in of_class(root, "planet") if el.attrib["data-square"] == "e5"]
    assert e5.attrib["data-stage"] == "collapsing" and "3" in texts(e5)
    assert any("black hole after 3 more turn ends" in t for t in texts(root))
    play(state, "end", "end", "end")
    root = picture(state)
    assert [el.attrib["data-stage"] for el in of_class(root, "planet")] == ["black hole", "warned"]
    assert any(t.startswith("e5  black hole") for t in texts(root))


def test_svg_status_shows_the_clock_refugees_and_the_result(tmp_path: Path) -> None:
    text = scenario_text(["e5"], ["e6"], ["e5"], required=1)
    deck = stacked([["action", "cargo", "action", "action"], TWO_EACH], ["straight", "refugee"])
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck)
    words = texts(picture(state))
    assert "Clock · turn 1" in words and "Refugees · rescued 0 of 1 needed" in words
    assert any(w.startswith("Turn 1 · A (seat 0) to act · 3 actions left") for w in words)
    play(state, "draw", "move e6")
    assert any("aboard ships 1" in w for w in texts(picture(state)))
    play(state, "drop")
    root = picture(state, 0)
    assert any(w.startswith("The team wins") for w in texts(root))
    assert len(of_class(root, "rescued")) == 1
    assert not drawn_tokens(root) - {el.attrib["data-token"] for el in of_class(root, "sq")}


# -- safety and legibility ------------------------------------------------------


def test_svg_text_from_a_scenario_file_is_escaped(tmp_path: Path) -> None:
    name = 'A <b>&amp; "map"</b>'
    path = write_scenario(tmp_path, scenario_text(["c3"], ["e5"], ["e5"], name=name.replace('"', '\\"')))
    svg = new_game(2, scenario_file=path).render_svg(0)
    root = ET.fromstring(svg)
    assert root.find(f"{NS}title").text == f"Streamlines · {name}"  # type: ignore[union-attr]
    assert not any(el.tag == f"{NS}b" for el in root.iter())


def test_svg_each_seat_has_its_own_colour_and_letter() -> None:
    state = new_game(4)
    root = picture(state)
    ships = of_class(root, "ship")
    assert len(ships) == 4
    letters = [texts(s)[-1] for s in sorted(ships, key=lambda el: int(el.attrib["data-seat"]))]
    assert letters == list(SEAT_MARKS)
    fills = [next(c.attrib["fill"] for c in s.iter(f"{NS}circle") if c.attrib.get("fill") in SEAT_COLOURS) for s in ships]
    assert len(set(fills)) == 4 and set(fills) == set(SEAT_COLOURS)


def test_svg_text_is_at_least_11_units_and_the_picture_640_wide() -> None:
    for state in busy_positions(20, seed=11):
        root = picture(state)
        assert root.attrib["viewBox"].startswith("0 0 640 ")
        sizes = [float(t.attrib["font-size"]) for t in root.iter(f"{NS}text")]
        assert min(sizes) >= 11


def test_svg_draws_only_the_view_not_the_deck_order() -> None:
    state = GAME.new_game(3, 11)
    assert isinstance(state, StreamlinesState)
    world = state.determinize(0, Rng(3))
    assert world.full_view()["deck_order"] != state.full_view()["deck_order"]
    for seat in (None, 0, 1, 2):
        assert world.render_svg(seat) == state.render_svg(seat)
    # Everything in Streamlines but the deck order is public: every seat sees every hold.
    holds = [sorted(el.attrib["data-card"] for el in of_class(picture(state, seat), "cargo")) for seat in (0, 1, 2)]
    assert holds[0] == holds[1] == holds[2]


def test_svg_only_the_ship_to_act_offers_its_cards() -> None:
    for state in busy_positions(60, seed=5):
        root = picture(state)
        seat = state.current_player
        for el in of_class(root, "tok"):
            if "cargo" in classes(el) or "power" in classes(el) or "orient" in classes(el):
                assert seat is not None
        offered = [el for el in of_class(root, "ship") if "tok" in classes(el)]
        assert [int(el.attrib["data-seat"]) for el in offered] == (
            [seat] if seat is not None and state.view()["ships"][seat]["square"] else []
        )
