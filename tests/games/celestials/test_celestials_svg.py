"""The picture of a Celestials position: what it draws, how its clicks pick actions, and that it shows only the view."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import astrarium
from astrarium.core import Rng, State
from astrarium.core.svg import SEAT_COLOURS, SEAT_MARKS, chosen, narrow
from astrarium.games.celestials import cards
from astrarium.games.celestials.cards import builtin_deck, load_deck
from astrarium.games.celestials.svg import BUTTON_TOKENS, action_tokens, deck_summary, render_svg

GAME = astrarium.get_game("celestials")
NS = "{http://www.w3.org/2000/svg}"
POSITIONS = 200
LOCATIONS = [f"{lane}{pos}" for lane in "ABCD" for pos in range(6)]


def game(position: str = "", **options: object) -> State:
    return GAME.new_game(2, 0, {"position": position, **options})


def play(state: State, *notations: str) -> State:
    for notation in notations:
        state.apply(notation)
    return state


def random_positions(count: int = POSITIONS, seed: int = 4) -> Iterator[State]:
    """``count`` positions of random play: early, middle and late, some finished."""
    rng = random.Random(seed)
    made = 0
    game_seed = seed
    while made < count:
        state = GAME.new_game(2, game_seed)
        game_seed += 1
        for stop in sorted(rng.randrange(0, 600) for _ in range(6)):
            while state.move_number < stop and not state.is_over:
                state.apply_unchecked(rng.choice(state.legal_actions()))
            yield state.clone()
            made += 1
            if made >= count or state.is_over:
                break


def draw(state: State, seat: int | None) -> ET.Element:
    return ET.fromstring(state.render_svg(seat))


def classes(el: ET.Element) -> list[str]:
    return el.attrib.get("class", "").split()


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in classes(el)]


def tokens(root: ET.Element) -> set[str]:
    return {el.attrib["data-token"] for el in root.iter() if "data-token" in el.attrib}


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{NS}text")]


def y_of(root: ET.Element, at: str) -> float:
    cell = next(el for el in of_class(root, "cell") if el.attrib["data-at"] == at)
    return float(cell.find(f"{NS}rect").attrib["y"])  # type: ignore[union-attr]


def assert_every_action_clicks_to_itself(state: State) -> None:
    root = draw(state, state.current_player)
    drawn = tokens(root)
    legal = [str(a) for a in state.legal_actions()]
    for notation in legal:
        clicks = action_tokens(notation)
        assert all(t in drawn or t in BUTTON_TOKENS for t in clicks), (notation, clicks)
        assert chosen(legal, clicks, action_tokens) == notation
    for token in drawn | BUTTON_TOKENS:
        assert set(narrow(legal, [token], action_tokens)) <= set(legal)


ZENITH = (
    "sun phase Zenith; sun hand advance sunspear phoenix solar-flare radiance; sun board B1 solar-lion; sun board B2 phoenix; "
    "sun board C1 dawn-herald exhausted; sun board A0 sun-temple; sun board A4 solar-archer; "
    "moon board B4 night-wolf; moon board B3 moth-swarm; moon board D5 moon-well"
)


# -- Pictures and clicking: how actions decompose into tokens -------------------------------------------


def test_tokens_a_card_is_played_by_clicking_it_then_its_square_or_target() -> None:
    assert action_tokens("play phoenix A1") == ["phoenix", "A1"]
    assert action_tokens("play sunspear B4") == ["sunspear", "B4"]
    assert action_tokens("play solar-flare") == ["solar-flare"]
    assert action_tokens("move A1 B1") == ["A1", "B1"]
    assert action_tokens("activate B4 C4") == ["activate B4", "C4"]
    assert action_tokens("activate B4 face") == ["activate B4", "face"]
    assert action_tokens("activate B4") == ["activate B4"]
    assert action_tokens("discard phoenix") == ["phoenix", "discard"]
    assert action_tokens("reshuffle yes") == ["reshuffle yes"]
    for word in ("advance", "draw", "nodraw", "end", "keep"):
        assert action_tokens(word) == [word]
    assert {"nodraw", "end", "keep"} == BUTTON_TOKENS


def test_tokens_two_cards_attacking_each_other_are_two_actions() -> None:
    state = game(ZENITH)
    legal = [str(a) for a in state.legal_actions()]
    assert "activate B1 B2" in legal and "activate B2 B1" in legal
    assert chosen(legal, ["activate B1", "B2"], action_tokens) == "activate B1 B2"
    assert chosen(legal, ["B1", "activate B2"], action_tokens) == "activate B2 B1"


def test_tokens_every_legal_action_clicks_to_itself_in_each_step() -> None:
    state = game(ZENITH)
    assert_every_action_clicks_to_itself(state)  # main step, Damage phase: plays, moves, activations, face
    play(state, "end")
    assert_every_action_clicks_to_itself(state)  # discard step
    reshuffle = game("sun hand advance; sun pile phoenix; moon hand advance; moon pile")
    assert_every_action_clicks_to_itself(reshuffle)  # draw step
    play(reshuffle, "draw")
    assert_every_action_clicks_to_itself(reshuffle)  # the reshuffle question


def test_tokens_are_drawn_only_in_the_picture_of_the_seat_to_move() -> None:
    state = game(ZENITH)
    assert tokens(draw(state, 0))
    assert not tokens(draw(state, 1))
    assert not tokens(draw(state, None))


# -- Board: both halves of the four lane pairs, with every card -------------------------------------------


def test_board_every_location_is_drawn_and_the_viewers_half_is_at_the_bottom() -> None:
    state = game(ZENITH)
    for seat, near, far in ((0, "A0", "A5"), (1, "A5", "A0"), (None, "A0", "A5")):
        root = draw(state, seat)
        assert sorted(el.attrib["data-at"] for el in of_class(root, "cell")) == sorted(LOCATIONS)
        assert y_of(root, near) > y_of(root, far)
        assert y_of(root, "B2") > y_of(root, "B3") if near == "A0" else y_of(root, "B3") > y_of(root, "B2")
    assert set(LOCATIONS) <= tokens(draw(state, 0))


def test_board_cards_drawn_match_the_view_in_random_positions() -> None:
    rng = random.Random(1)
    for state in random_positions():
        seat = rng.choice([state.current_player, 0, 1, None])
        view = state.picture_view(seat)
        root = ET.fromstring(render_svg(view))
        drawn = {el.attrib["data-at"]: el for el in of_class(root, "board-card")}
        assert len(drawn) == len(of_class(root, "board-card")) == len(view["board"])
        for cell in view["board"]:
            el = drawn[cell["at"]]
            assert int(el.attrib["data-owner"]) == cell["owner"]
            assert el.attrib["data-card"] == cell["card"]
            assert int(el.attrib["data-health"]) == cell["health"]
            assert ("exhausted" in classes(el)) == cell["exhausted"]
            assert any(t.startswith(f"♥{cell['health']}") for t in texts(el))
        assert len(of_class(root, "exhausted")) == sum(c["exhausted"] for c in view["board"])


def test_board_cards_show_name_damage_health_of_maximum_and_type() -> None:
    root = draw(game(ZENITH), 0)
    lion = next(el for el in of_class(root, "board-card") if el.attrib["data-at"] == "B1")
    assert texts(lion) == ["A", "Solar Lion", "⚔3", "♥4/4", "creature"]
    herald = next(el for el in of_class(root, "board-card") if el.attrib["data-at"] == "C1")
    assert "exhausted" in texts(herald)
    well = next(el for el in of_class(root, "board-card") if el.attrib["data-at"] == "D5")
    assert texts(well) == ["B", "Moon Well", "⚔0", "♥5/5", "structure"]


def test_health_cubes_green_five_red_one_beside_the_number() -> None:
    root = draw(game("moon board D5 silver-tower"), 0)
    tower = of_class(root, "board-card")[0]
    fills = [r.attrib["fill"] for r in tower.iter(f"{NS}rect") if r.attrib.get("width") == "7"]
    assert fills.count("#3cb371") == 1 and fills.count("#e0483e") == 3  # 8 health: one green, three red
    assert "♥8/8" in texts(tower)


# -- Phases, health, piles -------------------------------------------------------------------------------------


def test_panels_show_health_phase_cycle_and_pile_sizes_in_random_positions() -> None:
    for state in random_positions(80, seed=9):
        view = state.picture_view(state.current_player)
        root = ET.fromstring(render_svg(view))
        panels = {int(el.attrib["data-seat"]): el for el in of_class(root, "player")}
        assert sorted(panels) == [0, 1]
        for seat, p in enumerate(view["players"]):
            panel = panels[seat]
            assert f"♥ {p['health']}" in texts(panel)
            phases = of_class(panel, "phase")
            assert len(phases) == len(builtin_deck(("sun", "moon")[seat]).phases)
            current = of_class(panel, "current")
            assert [el.attrib["data-phase"] for el in current] == [p["phase"]]
            assert texts(current[0])[0].startswith("▶ ")
        piles = {(el.attrib["data-count"], classes(el)[1]) for el in of_class(root, "pile")}
        for p in view["players"]:
            assert (str(p["hand_size"]), "hand") in piles
            assert (str(p["draw_pile"]), "draw") in piles
            assert (str(len(p["discard"])), "discard") in piles
            assert (str(len(p["graveyard"])), "graveyard") in piles


def test_phase_cycle_marks_the_damage_phase_and_loops() -> None:
    root = draw(game("moon phase Waxing"), 1)
    moon = next(el for el in of_class(root, "player") if el.attrib["data-seat"] == "1")
    labels = [texts(el)[0] for el in of_class(moon, "phase")]
    assert labels == ["New Moon", "▶ Waxing", "Full Moon ⚔", "Waning"]
    assert "↺" in texts(moon)


def test_status_says_whose_turn_and_the_step() -> None:
    state = game(ZENITH)
    status = texts(draw(state, 0))[1]
    assert status == "Turn 1 of 60 · A Sun to move · main step · you: A"
    play(state, "end")
    assert "discard step" in texts(draw(state, 1))[1]


# -- The hand: the viewer's own, with card text; the other's only as a size -------------------------------------


def test_hand_shows_each_card_with_its_text() -> None:
    root = draw(game(ZENITH), 0)
    hand = of_class(root, "hand-card")
    assert sorted(el.attrib["data-token"] for el in hand) == ["advance", "phoenix", "radiance", "solar-flare", "sunspear"]
    sunspear = next(el for el in hand if el.attrib["data-token"] == "sunspear")
    assert texts(sunspear)[:3] == ["Sunspear", "spell · play in Zenith", "on play: damage 4 chosen enemy; damage 1 enemy"]
    phoenix = next(el for el in hand if el.attrib["data-token"] == "phoenix")
    assert texts(phoenix)[:2] == ["Phoenix", "⚔2  ♥3"]
    assert "turn start: mend 1 self" in texts(phoenix)


def test_hand_of_the_other_seat_is_never_drawn_only_its_size() -> None:
    for state in random_positions(60, seed=13):
        full = state.full_view()
        for seat in (0, 1, None):
            root = draw(state, seat)
            hand = sorted(el.attrib["data-card"] for el in of_class(root, "hand-card"))
            assert hand == ([] if seat is None else sorted(full["players"][seat]["hand"]))
            sizes = [el.attrib["data-count"] for el in of_class(root, "hand")]
            assert sizes == [str(len(full["players"][1 - (seat or 0)]["hand"])), str(len(full["players"][seat or 0]["hand"]))]


def test_picture_is_drawn_from_the_view_alone_a_redealt_hand_changes_nothing() -> None:
    for state in random_positions(30, seed=17):
        for seat in (0, 1):
            world = state.determinize(seat, Rng(5))
            if state.is_over:
                continue
            assert world.render_svg(seat) == state.render_svg(seat)
        assert state.determinize(None, Rng(5)).render_svg(None) == state.render_svg(None)


# -- Activation, direct attacks, the reshuffle question ------------------------------------------------------------


def test_activation_buttons_on_ready_cards_in_the_damage_phase_only() -> None:
    root = draw(game(ZENITH), 0)
    buttons = sorted(el.attrib["data-token"] for el in of_class(root, "activate"))
    # B1, B2, A4 can act; C1 is exhausted; A0 (Sun Temple) has no activation; D5, B4, B3 are the Moon's.
    assert buttons == ["activate A4", "activate B1", "activate B2"]
    assert "face" in tokens(root)
    dawn = draw(game(ZENITH.replace("Zenith", "Dawn", 1)), 0)
    assert not of_class(dawn, "activate") and "face" not in tokens(dawn)


def test_reshuffle_question_with_both_answers_when_open() -> None:
    state = play(game("sun hand advance; sun pile phoenix; moon hand advance; moon pile"), "draw")
    root = draw(state, 0)
    assert of_class(root, "reshuffle")
    assert {"reshuffle yes", "reshuffle no"} <= tokens(root)
    assert "reshuffle question" in texts(root)[1]
    play(state, "reshuffle yes")
    root = draw(state, 1)
    assert any("A Sun said yes; B Moon answers" in t for t in texts(root))
    play(state, "reshuffle no")
    root = draw(state, 0)
    assert not of_class(root, "reshuffle")
    assert any("reshuffle was refused" in t for t in texts(root))


# -- Text from data is escaped; colour is never alone; sizes ---------------------------------------------------------


def designer_deck(tmp_path: Path) -> Path:
    source = Path(cards.__file__).with_name("sun.toml").read_text(encoding="utf-8")
    source = source.replace('character = "Sun"', "character = 'Sun <&> \"Co\"'")
    source = source.replace('name = "Solar Lion"', "name = 'Lion <b>&amp; \"x\"</b>'")
    source = source.replace('"Dawn"', "'Da<w>&\"n'")
    path = tmp_path / "sun.toml"
    path.write_text(source, encoding="utf-8")
    return path


def test_text_from_a_designers_deck_is_escaped(tmp_path: Path) -> None:
    path = designer_deck(tmp_path)
    state = game("sun hand solar-lion advance; sun board B1 solar-lion", sun_deck=str(path))
    view = state.picture_view(0)
    view["decks"] = [deck_summary(load_deck(str(path), "sun")), deck_summary(builtin_deck("moon"))]
    root = ET.fromstring(render_svg(view))
    assert not any(el.tag == f"{NS}b" for el in root.iter())
    everything = texts(root)
    assert 'Lion <b>&amp; "x"</b>' in everything
    assert '☀ Sun <&> "Co" (you)' in everything
    assert '▶ Da<w>&"n' in everything
    assert root.find(f"{NS}desc").text == 'Celestials: Sun <&> "Co" against Moon'  # type: ignore[union-attr]
    # Without the deck data in the view, the character and the phase still come from the view, escaped.
    plain = draw(state, 0)
    assert '☀ Sun <&> "Co" (you)' in texts(plain) and '▶ Da<w>&"n' in texts(plain)


def test_colour_is_never_alone_each_seat_has_its_letter_and_exhaustion_its_word() -> None:
    root = draw(game(ZENITH), 0)
    for el in of_class(root, "board-card"):
        owner = int(el.attrib["data-owner"])
        assert texts(el)[0] == SEAT_MARKS[owner]
        assert any(c.attrib.get("fill") == SEAT_COLOURS[owner] for c in el.iter(f"{NS}circle"))
        assert ("exhausted" in texts(el)) == ("exhausted" in classes(el))
    assert SEAT_MARKS[0] != SEAT_MARKS[1]
    badges = {texts(el)[0] for el in of_class(root, "player")}
    assert badges == {"A", "B"}


def test_text_is_at_least_11_units_and_the_picture_640_wide() -> None:
    for state in random_positions(30, seed=21):
        root = draw(state, state.current_player)
        assert root.attrib["viewBox"].startswith("0 0 640 ")
        assert min(float(t.attrib["font-size"]) for t in root.iter(f"{NS}text")) >= 11
