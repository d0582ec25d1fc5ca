"""The picture of a Constellations position: what it draws, how its clicks pick actions, and that it shows only the view."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from typing import Any, cast

import pytest

import astrarium
from astrarium.core.svg import SEAT_MARKS, chosen, narrow
from astrarium.games.constellations.board import STAR_RANGES, cell_name, geometry
from astrarium.games.constellations.state import ConstellationsState
from astrarium.games.constellations.svg import BUTTON_TOKENS, action_tokens, glyph, render_svg

GAME = astrarium.get_game("constellations")
NS = "{http://www.w3.org/2000/svg}"
COLOUR_LETTERS = "bgyrwk"


def new(board: str, deck: list[str], players: int = 1, **options: Any) -> ConstellationsState:
    return cast(ConstellationsState, GAME.new_game(players, 0, {"board": board, "deck": deck, **options}))


def positions(count: int, seed: int = 0, **options: Any) -> Iterator[ConstellationsState]:
    """``count`` positions of random play (1 to 4 players, every stage of the turn and of the game)."""
    rng = random.Random(seed)
    made = game_seed = 0
    while made < count:
        state = GAME.new_game(rng.randint(1, 4), game_seed, options)
        game_seed += 1
        while made < count:
            yield cast(ConstellationsState, state.clone())
            made += 1
            if state.is_over:
                break
            for _ in range(rng.randint(1, 5)):
                if not state.is_over:
                    state.apply_unchecked(rng.choice(state.legal_actions()))


def picture(state: ConstellationsState, seat: int | None = None) -> ET.Element:
    return ET.fromstring(state.render_svg(state.current_player if seat is None else seat))


def classes(el: ET.Element) -> list[str]:
    return el.attrib.get("class", "").split()


def of_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in classes(el)]


def drawn_tokens(root: ET.Element) -> set[str]:
    return {el.attrib["data-token"] for el in root.iter() if "data-token" in el.attrib}


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{NS}text")]


def board_cells(state: ConstellationsState) -> list[str]:
    return list(state.view(None)["board"].replace("\n", ""))


# -- clicking ------------------------------------------------------------------------


def test_action_tokens_a_rotation_is_its_star_a_play_its_card_and_verbs_are_buttons() -> None:
    assert action_tokens("rot c4") == ["c4"]
    assert action_tokens("rotate c4") == ["c4"]
    assert action_tokens("play ryw/3") == ["ryw/3"]
    assert action_tokens("swap ryw/3") == ["swap", "ryw/3"]
    assert action_tokens("end") == ["end"]
    assert action_tokens("pass") == ["pass"]
    assert set(BUTTON_TOKENS) == {"end", "pass", "swap"}


@pytest.mark.parametrize("options", [{}, {"swap": True}], ids=["seed-rules", "variant-swap"])
def test_every_legal_action_is_clicked_on_its_star_or_card_or_a_button(options: dict[str, Any]) -> None:
    for state in positions(200, seed=3, **options):
        if state.is_over:
            continue
        root = picture(state)
        drawn = drawn_tokens(root)
        legal = [str(a) for a in state.legal_actions()]
        for notation in legal:
            clicks = action_tokens(notation)
            assert all(t in drawn or t in BUTTON_TOKENS for t in clicks), (notation, clicks)
            assert chosen(legal, clicks, action_tokens) == notation
            if notation.startswith("rot "):
                star = [g for g in of_class(root, "star") if g.attrib.get("data-token") == clicks[0]]
                assert len(star) == 1 and "tok" in classes(star[0])
            if notation.startswith("play "):
                assert any(g.attrib.get("data-token") == clicks[0] for g in of_class(root, "card"))
        for token in drawn | BUTTON_TOKENS:
            assert set(narrow(legal, [token], action_tokens)) <= set(legal)


def test_pass_is_a_button_when_no_star_can_move_anything() -> None:
    # Seed section 3: a rotation affecting only empty cells is no rotation; the yellow dwarf at e3 reaches b..e only.
    state = new("P....\n.....\n....Y", ["g/1"])
    legal = [str(a) for a in state.legal_actions()]
    assert legal == ["pass"]
    root = picture(state)
    assert "pass" in BUTTON_TOKENS and chosen(legal, action_tokens("pass"), action_tokens) == "pass"
    assert [g.attrib["data-token"] for g in of_class(root, "star")] == ["e3"]
    # No star of the viewer's is outlined as ready to turn.
    assert not any(r.attrib.get("stroke-dasharray") for g in of_class(root, "star") for r in g.iter(f"{NS}rect"))


# -- what it draws -------------------------------------------------------------------


def test_the_picture_draws_every_object_star_card_and_score_the_view_holds() -> None:
    for state in positions(200, seed=7):
        seat = state.current_player
        view = state.view(seat)
        root = picture(state)
        cells = board_cells(state)
        objects = of_class(root, "obj")
        assert Counter(g.attrib["data-kind"] for g in objects) == Counter(c for c in cells if c != ".")
        width = view["width"]
        for g in objects:
            r, c = divmod(next(i for i, ch in enumerate(cells) if cell_name(i // width, i % width) == g.attrib["data-cell"]), width)
            assert cells[r * width + c] == g.attrib["data-kind"]
        stars = {cell_name(i // width, i % width) for i, ch in enumerate(cells) if ch in STAR_RANGES}
        assert {g.attrib["data-token"] for g in of_class(root, "star")} == stars
        assert all("tok" in classes(g) for g in of_class(root, "star"))
        hand = view["hand"] or []
        assert sorted(g.attrib["data-card"] for g in of_class(root, "card")) == sorted(hand)
        scores = of_class(root, "score")
        assert [int(g.attrib["data-score"]) for g in scores] == view["scores"]
        for s, g in enumerate(scores):
            assert SEAT_MARKS[s] in texts(g)


def test_each_star_reveals_the_rings_its_rotation_moves_on_hover_or_choice() -> None:
    # Seed section 3: every ring up to the range, cut off by the board's edges; the black hole turns every ring.
    board = "Y...B\n..G..\nR....\n.P.C.\nG...N"
    state = new(board, ["g/1"])
    root = picture(state)
    geo = geometry(5, 5)
    cells = board_cells(state)
    grid = root.find(f"{NS}clipPath/{NS}rect")
    assert grid is not None
    x0, y0, cell = float(grid.attrib["x"]), float(grid.attrib["y"]), float(grid.attrib["width"]) / 5
    for star in of_class(root, "star"):
        reveal = [child for child in star if "reveal" in classes(child)]
        assert len(reveal) == 1, "the rings are a direct child of the star's clickable group (CSS: g:hover>.reveal, .sel>.reveal)"
        ring = reveal[0]
        name = star.attrib["data-token"]
        index = next(i for i in range(25) if cell_name(i // 5, i % 5) == name)
        radius = geo.radius_of(cells[index])
        assert int(ring.attrib["data-radius"]) == radius
        assert ring.attrib.get("clip-path") == "url(#board-clip)"
        # The shaded area is exactly the box of the cells the rules' rotation moves (and the star).
        moved = [*geo.rotation(index, radius).affected, index]
        shade = ring.find(f"{NS}rect")
        assert shade is not None
        left = min(i % 5 for i in moved)
        top = min(i // 5 for i in moved)
        assert float(shade.attrib["x"]) == x0 + left * cell
        assert float(shade.attrib["y"]) == y0 + top * cell
        assert float(shade.attrib["width"]) == (max(i % 5 for i in moved) - left + 1) * cell
        assert float(shade.attrib["height"]) == (max(i // 5 for i in moved) - top + 1) * cell
        # One dashed square per ring that reaches the board, with its arrows.
        outline = ring.findall(f"{NS}path")[0].attrib["d"]
        assert outline.count("M") == len(geo.rotation(index, radius).rings)


def test_comet_shows_a_star_sign_next_to_a_sun_and_a_dash_elsewhere() -> None:
    # Seed section 4: a comet within range 1 of a yellow dwarf or red giant counts as any colour.
    state = new("CY...\n.....\n....C\n.....\nN.C.R", ["g/1"])
    root = picture(state)
    signs = {g.attrib["data-cell"]: g.attrib["data-sign"] for g in of_class(root, "obj") if g.attrib["data-kind"] == "C"}
    assert signs == {"a1": "*", "e3": "-", "c5": "-"}
    for g in of_class(root, "obj"):
        if g.attrib["data-kind"] == "C":
            assert signs[g.attrib["data-cell"]] in texts(g)


def test_seed_section2_the_last_play_draws_its_line_from_the_planet_over_the_matched_objects() -> None:
    # The yellow dwarf's rings (rows 2-5) never reach row 1: its rotation moves only the gas giant at h4.
    state = new("P.G.G....\n.........\n.........\n.......G.\n........Y", ["gg/2", "b/1"])
    state.apply("rot i5")
    state.apply("play gg/2")
    assert state.view(0)["played"] == [[0, "gg/2", 1, 2]]
    root = picture(state, 0)
    last = of_class(root, "last-play")
    assert len(last) == 1
    lines = of_class(last[0], "found-line")
    assert [(g.attrib["data-planet"], g.attrib["data-direction"]) for g in lines] == [("a1", "right")]
    circles = lines[0].findall(f"{NS}circle")
    stroke = lines[0].find(f"{NS}line")
    assert stroke is not None and len(circles) == 2
    # The line runs from the planet's centre to the farther gas giant (e1), over c1.
    cx = sorted(float(c.attrib["cx"]) for c in circles)
    # a1 is as far left of c1 as e1 is right of it.
    assert float(stroke.attrib["x1"]) == cx[0] - (cx[1] - cx[0]) and float(stroke.attrib["x2"]) == cx[1]


def test_the_lines_drawn_for_the_last_play_and_for_each_card_are_where_the_game_finds_them() -> None:
    plays = 0
    for state in positions(200, seed=11):
        view = state.view(state.current_player)
        root = picture(state)
        last = of_class(root, "last-play")
        drawn = len(of_class(last[0], "found-line")) if last else 0
        if view["played"]:
            plays += 1
            assert drawn == state.found(view["played"][-1][1].partition("/")[0])
        else:
            assert drawn == 0
        for g in of_class(root, "card"):
            found = state.found(g.attrib["data-card"].partition("/")[0])
            assert int(g.attrib["data-found"]) == found
            assert f"found {found}×" in texts(g)
            assert len(of_class(g, "found-line")) == found
    assert plays > 100


def test_the_status_names_the_mover_and_step_and_the_result_when_over() -> None:
    state = new("P.G.G....\n.........\n.........\n.......G.\n........Y", ["gg/2"], players=2)
    status = texts(picture(state))[1]
    assert "A (seat 0) to rotate a star" in status and "Round 1/12" in status
    state.apply("rot i5")
    assert "A (seat 0) to play cards or end" in texts(picture(state))[1]
    state.apply("play gg/2")
    assert state.is_over
    status = texts(picture(state, 0))[1]
    assert status.startswith("A wins:")


# -- colour is never alone ---------------------------------------------------------


def _without_colour(el: ET.Element) -> str:
    """The element's markup with every colour (fill, stroke, style) and opacity taken out."""
    text = ET.tostring(el, encoding="unicode")
    return re.sub(r' (fill|stroke|style|opacity|fill-opacity|transform|data-colour)="[^"]*"', "", text)


def test_each_colour_has_its_own_glyph_and_letter_on_the_cards_and_on_the_board() -> None:
    view = new("PGY\nRNB\n...", ["g/1"]).picture_view(0)
    view["hand"] = ["bgyrw/5", "k/1"]
    root = ET.fromstring(render_svg(view))
    chips = {g.attrib["data-colour"]: g for g in of_class(root, "chip")}
    assert sorted(chips) == sorted(COLOUR_LETTERS)
    for colour, chip in chips.items():
        assert texts(chip) == [colour]
    shapes = {colour: re.sub(r"<text.*?</text>", "", _without_colour(chip)) for colour, chip in chips.items()}
    assert len(set(shapes.values())) == len(COLOUR_LETTERS), "without colour and letter, each colour's chip still has its own shape"
    objects = {g.attrib["data-kind"]: g for g in of_class(root, "obj")}
    letters = {kind: [t for t in texts(g) if t.isalpha()] for kind, g in objects.items()}
    assert letters == {"P": ["b"], "G": ["g"], "Y": ["y"], "R": ["r"], "N": ["w"], "B": ["k"]}
    # The board draws each object with its glyph (cells of a 3x3 board are 72 units); a comet's is told apart too.
    svg = render_svg(view)
    assert all(glyph(kind, 72) in svg for kind in objects)
    kinds = [*objects, "C"]
    board_shapes = {re.sub(r"<text.*?</text>", "", re.sub(r' (fill|stroke|style|opacity)="[^"]*"', "", glyph(k, 72))) for k in kinds}
    assert len(board_shapes) == len(kinds), "without colour and letter, each object still has its own shape"


def test_seats_carry_their_letter_beside_their_colour() -> None:
    state = new("PGY\nRNB\n...", ["g/1"] * 12, players=4)
    root = picture(state)
    rows = of_class(root, "score")
    assert [SEAT_MARKS[int(g.attrib["data-seat"])] in texts(g) for g in rows] == [True] * 4


# -- only the view -------------------------------------------------------------------


def _card_words(root: ET.Element) -> set[str]:
    words = {el.attrib[k] for el in root.iter() for k in ("data-card", "data-token") if k in el.attrib}
    for t in texts(root):
        words.update(t.replace(":", " ").replace(",", " ").split())
    return words


def test_the_picture_shows_the_viewers_hand_and_never_another_seats_cards() -> None:
    for state in positions(60, seed=5):
        if state.players < 2:
            continue
        full = state.full_view()
        public = {p[1] for p in full["played"]} | {p[1] for p in full["swapped"]}
        for seat in range(state.players):
            root = ET.fromstring(state.render_svg(seat))
            mine = set(full["hands"][seat])
            words = _card_words(root)
            assert mine <= {g.attrib["data-token"] for g in of_class(root, "card")}
            hidden = {c for s, hand in enumerate(full["hands"]) if s != seat for c in hand} | set(full["deck_order"])
            assert not (hidden - mine - public) & words
        spectator = ET.fromstring(state.render_svg(None))
        assert not of_class(spectator, "card")
        assert not ({c for hand in full["hands"] for c in hand} - public) & _card_words(spectator)


def test_text_from_the_view_is_escaped() -> None:
    view = new("PGY\nRNB\n...", ["g/1"]).picture_view(0)
    nasty = '<&>"/3'
    view["hand"] = [nasty]
    view["played"] = [[0, "</text><script>x</script>/1", 1, 1]]
    view["swapped"] = [[0, '"&amp;/2']]
    root = ET.fromstring(render_svg(view))
    assert not any(el.tag.endswith("script") for el in root.iter())
    card = of_class(root, "card")[0]
    assert card.attrib["data-token"] == nasty and nasty in texts(card)
    words = " ".join(texts(root))
    assert "</text><script>x</script>/1" in words and '"&amp;/2' in words


def test_a_view_without_a_readable_board_still_draws() -> None:
    view = new("PGY\nRNB\n...", ["g/1"]).picture_view(0)
    view["board"] = "PX\n"
    root = ET.fromstring(render_svg(view))
    assert not of_class(root, "obj")
