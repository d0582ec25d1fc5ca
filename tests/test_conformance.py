"""The API contract, tested once for every registered game.

Every game gets these tests for free by registering itself: random play ends
within the game's bound, the same seed and actions give the same game, records
replay, illegal actions change nothing, views are JSON and keep secrets.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import astrarium
from astrarium.core import IllegalAction, OptionError, RecordError, Rng, State
from helpers import play_randomly, sample_positions

GAMES = astrarium.list_games()


def player_counts(game_id: str) -> list[int]:
    game = astrarium.get_game(game_id)
    return list(range(game.min_players, game.max_players + 1))


HIDDEN = [g for g in GAMES if astrarium.get_game(g).hidden_information]
CASES = [(g, n) for g in GAMES for n in player_counts(g)]
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def new(game_id: str, players: int, seed: int) -> State:
    return astrarium.get_game(game_id).new_game(players, seed)


@pytest.mark.parametrize("game_id,players", CASES)
@given(seed=seeds)
def test_random_play_ends_within_the_bound(game_id: str, players: int, seed: int) -> None:
    game = astrarium.get_game(game_id)
    state = game.new_game(players, seed)
    bound = game.max_moves(players, state.options)
    while not state.is_over:
        assert state.current_player in range(players)
        assert state.move_number < bound, f"{game_id} passed its bound of {bound} moves"
        legal = state.legal_actions()
        assert legal, "legal_actions() is empty while the game goes on"
        state.apply(Rng(seed + state.move_number).choice(legal))
    assert state.current_player is None
    assert state.legal_actions() == []
    assert state.outcome is not None and state.outcome.reason
    returns = state.returns()
    assert len(returns) == players
    assert all(-1.0 <= r <= 1.0 for r in returns)


@pytest.mark.parametrize("game_id,players", CASES)
@given(seed=seeds)
def test_same_seed_and_actions_give_the_same_game(game_id: str, players: int, seed: int) -> None:
    a = new(game_id, players, seed)
    b = new(game_id, players, seed)
    rng = Rng(seed)
    for _ in range(60):
        assert a.full_view() == b.full_view()
        assert all(a.view(s) == b.view(s) for s in [None, *range(players)])
        if a.is_over:
            break
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(str(action))


@pytest.mark.parametrize("game_id,players", CASES)
@given(seed=seeds, steps=st.integers(min_value=0, max_value=80))
def test_record_round_trip(game_id: str, players: int, seed: int, steps: int) -> None:
    state = play_randomly(new(game_id, players, seed), seed, steps)
    record = json.loads(json.dumps(state.to_record()))
    again = astrarium.replay(record)
    assert again.history == state.history
    assert again.full_view() == state.full_view()
    assert again.is_over == state.is_over
    assert again.returns() == state.returns()


@pytest.mark.parametrize("game_id,players", CASES)
@given(seed=seeds)
def test_notation_round_trips_and_views_are_json(game_id: str, players: int, seed: int) -> None:
    for state in sample_positions(new(game_id, players, seed), seed, 6):
        for action in state.legal_actions():
            notation = str(action)
            assert notation and notation == notation.strip()
            assert state.parse_action(notation) == action
        for seat in [None, *range(players)]:
            json.dumps(state.view(seat))
            assert isinstance(state.render(seat), str)
        json.dumps(state.full_view())


def _names_a_legal_action(state: State, text: str, legal: list[Any]) -> bool:
    """Whether ``text`` is another spelling of a legal action here (Streamlines: ``move d5`` for the one path to d5)."""
    try:
        return state.parse_action(text) in legal
    except IllegalAction:
        return False


@pytest.mark.parametrize("game_id,players", CASES)
@given(seed=seeds)
def test_illegal_action_raises_and_changes_nothing(game_id: str, players: int, seed: int) -> None:
    positions = sample_positions(new(game_id, players, seed), seed, 8)
    for i, state in enumerate(positions):
        before = json.dumps(state.full_view(), sort_keys=True)
        history = state.history
        with pytest.raises(IllegalAction):
            state.apply("xyzzy plugh 999")
        legal = state.legal_actions()
        # An action that is legal somewhere else in the game but not here.
        foreign = [a for p in positions[:i] + positions[i + 1 :] for a in p.legal_actions() if a not in legal]
        for action in foreign[:5]:
            with pytest.raises(IllegalAction) as err:
                state.apply(action)
            assert str(err.value)
            if not _names_a_legal_action(state, str(action), legal):
                with pytest.raises(IllegalAction):
                    state.apply(str(action))
        assert json.dumps(state.full_view(), sort_keys=True) == before
        assert state.history == history
        assert state.legal_actions() == legal
    final = positions[-1]
    if final.is_over:
        with pytest.raises(IllegalAction, match="over"):
            final.apply("anything")


@pytest.mark.parametrize("game_id,players", CASES)
@given(seed=seeds)
def test_clone_is_independent(game_id: str, players: int, seed: int) -> None:
    for state in sample_positions(new(game_id, players, seed), seed, 5):
        before = json.dumps(state.full_view(), sort_keys=True)
        copy = state.clone()
        assert copy.full_view() == state.full_view()
        play_randomly(copy, seed, 20)
        assert json.dumps(state.full_view(), sort_keys=True) == before


@pytest.mark.parametrize("game_id,players", CASES)
@given(seed=seeds)
def test_views_keep_what_the_rules_hide(game_id: str, players: int, seed: int) -> None:
    """A seat's view is the same in every world that differs only in what that seat cannot see.

    ``determinize(seat, rng)`` re-samples exactly what ``seat`` cannot see; if the
    view were to show any of it, the views of two re-sampled worlds would differ.
    And re-sampling must actually change something hidden somewhere, or the
    test would prove nothing.
    """
    game = astrarium.get_game(game_id)
    changed = False
    for state in sample_positions(new(game_id, players, seed), seed, 6):
        if state.is_over:
            continue
        for seat in [None, *range(players)]:
            view = state.view(seat)
            for k in range(3):
                world = state.determinize(seat, Rng(seed * 7 + k))
                assert world.view(seat) == view, f"seat {seat}'s view leaks or determinize changes what it sees"
                assert world.legal_actions() == state.legal_actions() or seat != state.current_player
                changed |= world.full_view() != state.full_view()
    if game.hidden_information:
        assert game.hidden, "a game with hidden information says what it hides"
    else:
        assert not changed, "a perfect-information game has nothing to re-sample but its chance"


@pytest.mark.parametrize("game_id", HIDDEN)
def test_determinize_changes_hidden_parts(game_id: str) -> None:
    game = astrarium.get_game(game_id)
    for seed in range(20):
        for state in sample_positions(game.new_game(game.min_players, seed), seed, 6):
            if state.is_over:
                continue
            seat = state.current_player
            worlds = [state.determinize(seat, Rng(k)).full_view() for k in range(4)]
            if any(w != state.full_view() for w in worlds):
                return
    pytest.fail(f"{game_id} says it hides information, but determinize never re-sampled anything")


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_options_and_player_counts_are_refused(game_id: str) -> None:
    game = astrarium.get_game(game_id)
    with pytest.raises(OptionError, match="no_such_option"):
        game.new_game(game.min_players, 0, {"no_such_option": 1})
    with pytest.raises(OptionError, match="players"):
        game.new_game(game.max_players + 1, 0)
    with pytest.raises(OptionError, match="players"):
        game.new_game(game.min_players - 1, 0)
    for option in game.options:
        assert option.validate(option.default) == option.default or option.default is None
        if option.kind in (int, float) and option.maximum is not None:
            with pytest.raises(OptionError, match=option.name):
                game.new_game(game.min_players, 0, {option.name: option.maximum + 1})


@pytest.mark.parametrize("game_id", GAMES)
def test_a_record_that_does_not_replay_names_the_move(game_id: str) -> None:
    game = astrarium.get_game(game_id)
    state = play_randomly(game.new_game(game.min_players, 3), 3, 4)
    record = state.to_record()
    record["actions"] = [*record["actions"][:2], "xyzzy plugh 999"]
    with pytest.raises(RecordError, match="move 3"):
        astrarium.replay(record)
    with pytest.raises(RecordError, match="version"):
        astrarium.replay({**state.to_record(), "version": 99})
    with pytest.raises(RecordError, match="no game called"):
        astrarium.replay({**state.to_record(), "game": "no-such-game"})


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_document_has_decisions(game_id: str) -> None:
    text = astrarium.get_game(game_id).rules_text()
    assert text.startswith("#")
    if game_id != "toy-pile":
        assert "## Decisions" in text
