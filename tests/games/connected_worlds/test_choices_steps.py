"""The option choices = steps: a move, a portal and a deployment chosen a part at a time, the same game as whole actions.

rules.md, "Decisions": under ``steps`` the game offers ``move CARD``,
``connect CARD`` and ``deploy CARD`` as heads, then ``at HEX`` (and
``piece base|uN`` for a move, a second ``at HEX`` for a portal); a head only
when a whole legal action starts with it, each part exactly the next words of
the whole legal actions. Positions are set up from scenario notation.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import IllegalAction, Rng
from astrarium.games.connected_worlds.actions import At, Head, Piece, split
from helpers import CW_HANDS, examples
from helpers import cw_piece as piece

GAME = astrarium.get_game("connected-worlds")
STEPS = {"choices": "steps"}
PARTS = (Head, At, Piece)
HANDS = CW_HANDS


HOME = piece("base", "A:0,0", 0, 1) + piece("base", "B:0,0", 1, 1)


def position(body: str, **options: Any):  # noqa: ANN201 (the game's own State)
    return GAME.new_game(2, 11, {"scenario": body + HANDS, **options})


def legal(state) -> list[str]:  # noqa: ANN001
    return [str(a) for a in state.legal_actions()]


def same_game(view: dict[str, Any]) -> dict[str, Any]:
    """A full view without what only the option adds (its name and the pending choice)."""
    return {k: v for k, v in view.items() if k not in ("choices", "pending")}


def whole_of_parts(state) -> list[str]:  # noqa: ANN001
    """Every sequence of choices from ``state`` until no action is pending, each written as the whole action it makes."""
    out = []
    for action in state.legal_actions():
        if type(action) not in PARTS:
            out.append(str(action))
            continue
        after = state.clone()
        after.apply(action)
        word = " ".join(str(action).split()[1:]) if type(action) is not Head else str(action)
        if after.pending:
            out += [f"{word} {rest}" for rest in whole_of_parts(after)]
        else:
            out.append(word)
    return out


def test_a_move_is_chosen_as_its_card_then_the_pieces_hex_then_the_piece() -> None:
    body = HOME + piece("unit", "A:0,0", 0, 2)
    state, whole = position(body, **STEPS), position(body)
    assert "move harvester" in legal(state) and not any(a.startswith("move harvester ") for a in legal(state))
    state.apply("move harvester")
    assert legal(state) == ["at A:0,0"]
    state.apply("at A:0,0")
    assert legal(state) == ["piece base", "piece u2"]
    state.apply("piece u2")
    whole.apply("move harvester A:0,0 u2")
    assert same_game(state.full_view()) == same_game(whole.full_view())
    assert state.full_view()["moving"] == {"at": "A:0,0", "piece": "u2", "movement_left": 3}


def test_a_portal_is_chosen_as_its_card_then_its_two_bases_in_map_order() -> None:
    state = position(HOME + piece("base", "C:0,0", 0, 1), **STEPS)
    state.apply("connect portal")
    assert legal(state) == ["at A:0,0"]
    state.apply("at A:0,0")
    assert legal(state) == ["at C:0,0"]
    state.apply("at C:0,0")
    assert state.full_view()["portals"] == [["A:0,0", "C:0,0"]] and state.pending == ()


def test_a_deployment_is_chosen_as_its_card_then_a_hex_of_territory() -> None:
    state = position(HOME, **STEPS)
    state.apply("deploy assault-team")
    territory = sorted(a.removeprefix("at ") for a in legal(state))
    assert territory == sorted(["A:0,0", "A:1,0", "A:1,-1", "A:0,-1", "A:-1,0", "A:-1,1", "A:0,1"])
    state.apply("at A:1,0")
    assert [u[:3] for u in state.full_view()["units"]] == [["A:1,0", 0, 2]]  # Assault Team: strength 2


def test_a_head_is_offered_only_when_a_whole_action_starts_with_it() -> None:
    state = position(HOME, **STEPS)  # one base: the portal card can move it but has no two bases to join
    assert "move portal" in legal(state) and "connect portal" not in legal(state)
    with pytest.raises(IllegalAction, match="no two of your bases"):
        state.apply("connect portal")


def test_the_card_chosen_leaves_the_hand_and_every_seat_sees_the_choice() -> None:
    state = position(HOME + piece("unit", "A:0,0", 0, 2), **STEPS)
    state.apply("move harvester")
    state.apply("at A:0,0")
    expected = {"verb": "move", "card": "harvester", "chosen": ["A:0,0"], "next": "piece", "notation": "move harvester A:0,0"}
    for seat in (None, 0, 1):
        assert state.view(seat)["pending"] == expected
    assert sorted(state.view(0)["players"][0]["hand"]) == ["assault-team", "engineers", "excavater", "portal"]
    assert state.view(1)["players"][0]["hand_size"] == 4
    for k in range(3):  # the card aside is never re-dealt: the opponent's worlds keep the choice and its end
        world = state.determinize(1, Rng(k))
        assert world.view(1) == state.view(1) and legal(world) == legal(state)


def test_no_action_but_the_next_part_while_one_is_being_chosen() -> None:
    state = position(HOME + piece("unit", "A:0,0", 0, 2), **STEPS)
    state.apply("move harvester")
    state.apply("at A:0,0")
    for text in ("end", "gather harvester", "move portal", "at A:0,0"):
        with pytest.raises(IllegalAction, match="the next part is the piece"):
            state.apply(text)


def test_a_whole_action_is_refused_with_its_parts_to_write() -> None:
    state = position(HOME + piece("unit", "A:0,0", 0, 2), **STEPS)
    with pytest.raises(IllegalAction, match="'move harvester', then 'at A:0,0', then 'piece u2'"):
        state.apply("move harvester A:0,0 u2")
    with pytest.raises(IllegalAction, match="start with its card"):
        state.apply("at A:0,0")


def test_parts_are_refused_where_the_game_takes_whole_actions() -> None:
    state = position(HOME)
    with pytest.raises(IllegalAction, match="choices=steps"):
        state.apply("move harvester")
    assert "pending" not in state.view(0) and "choices" not in state.view(0)


def test_the_terminal_the_picture_and_the_log_tell_the_choice() -> None:
    state = position(HOME + piece("unit", "A:0,0", 0, 2), **STEPS)
    before = state.picture_view(None)
    state.apply("move harvester")
    assert GAME.describe(before, "move harvester", state.picture_view(None)) == [
        "A (seat 0) plays Harvester to move a piece; next: the hex of the piece to move."
    ]
    before = state.picture_view(None)
    state.apply("at A:0,0")
    assert (
        GAME.describe(before, "at A:0,0", state.picture_view(None))[0]
        == "A (seat 0) chooses A:0,0 for Harvester; next: the piece (base or unit)."
    )
    assert "Choosing:[/] move harvester A:0,0 — next: the piece" in state.render(0)
    picture = state.render_svg(1)
    assert "choosing: move harvester A:0,0 — next: the piece" in picture and 'class="chosen"' in picture
    before = state.picture_view(None)
    state.apply("piece u2")
    assert GAME.describe(before, "piece u2", state.picture_view(None))[0] == (
        "A (seat 0) plays Harvester to move the strength-2 unit at A:0,0 (up to 3 steps)."
    )


def test_a_whole_action_splits_into_the_parts_its_notation_names() -> None:
    parts = [str(p) for p in split(GAME.new_game(2, 1).parse_action("connect portal A:0,0 C:0,0"))]
    assert parts == ["connect portal", "at A:0,0", "at C:0,0"]
    assert [str(p) for p in split(GAME.new_game(2, 1).parse_action("move harvester A:0,0 base"))][-1] == "piece base"
    assert split(GAME.new_game(2, 1).parse_action("end"))[0] is not None


def test_the_bound_counts_three_parts_for_every_card_played() -> None:
    whole, steps = GAME.max_moves(4, GAME.resolve_options(4, None)), GAME.max_moves(4, GAME.resolve_options(4, STEPS))
    rounds, hand = 30, 5
    assert steps - whole == rounds * 4 * hand * 2


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4), moves=st.integers(0, 160))
def test_the_sequences_of_choices_are_the_whole_legal_actions_one_to_one(seed: int, players: int, moves: int) -> None:
    whole, steps = GAME.new_game(players, seed), GAME.new_game(players, seed, STEPS)
    pick = random.Random(seed)
    for move in range(moves + 1):
        if whole.is_over:
            break
        if move == moves or pick.random() < 0.1:
            sequences = whole_of_parts(steps)
            assert len(sequences) == len(set(sequences)), "two sequences of choices make one action"
            assert sorted(sequences) == sorted(legal(whole))
        action = pick.choice(whole.legal_actions())
        whole.apply(action)
        for part in split(action):
            steps.apply(part)
        assert same_game(steps.full_view()) == same_game(whole.full_view())
    assert steps.is_over == whole.is_over and steps.returns() == whole.returns()
