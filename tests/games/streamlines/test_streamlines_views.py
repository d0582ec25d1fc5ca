"""Everything but the deck order is public; the board is drawn for a terminal."""

from __future__ import annotations

import json

from streamlines_fixtures import GAME, SEED_EXAMPLE, TWO_EACH, new_game, play, scenario_text, stacked, write_scenario

from astrarium.core import Rng

THREE_ACTIONS = ["action", "cargo", "action", "action"]


def test_views_every_seat_sees_the_same_public_position() -> None:
    state = GAME.new_game(3, 5)
    views = [state.view(seat) for seat in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    assert "deck_order" not in views[0] and "deck_order" in state.full_view()
    json.dumps(state.full_view())


def test_views_deck_contents_are_public_but_not_their_order() -> None:
    state = GAME.new_game(2, 11)
    world = state.determinize(0, Rng(3))
    assert world.view(0) == state.view(0)
    assert sorted(world.full_view()["deck_order"]) == sorted(state.full_view()["deck_order"])
    assert world.full_view()["deck_order"] != state.full_view()["deck_order"]
    assert world.legal_actions() == state.legal_actions()


def test_views_determinize_reseeds_the_future() -> None:
    state = GAME.new_game(2, 11)
    a, b = state.determinize(0, Rng(1)), state.determinize(0, Rng(2))
    assert a.rng != b.rng


def test_render_draws_streamlines_ships_and_tiles() -> None:
    state = new_game(2, scenario_file=SEED_EXAMPLE, deck=stacked([TWO_EACH, TWO_EACH], []))
    text = state.render(0)
    assert "←↑→" in text  # G: up, left and right
    assert "ESC" in text and " P " in text
    assert "ship A at c1" in text and "ship B at d2" in text
    assert "2 action(s) left" in text


def test_render_shows_warnings_countdowns_and_black_holes(tmp_path) -> None:
    text = scenario_text(["e5", "a9"], ["i1"], ["e4", "a1"])
    deck = stacked([TWO_EACH, TWO_EACH], ["collapse", "straight", "collapse", "collapse"], planets=2)
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck)
    assert "P!" in state.render() and "warned" in state.render()
    play(state, "end")
    assert "P!3" in state.render() and "black hole after 3 more turn end(s)" in state.render()
    play(state, "end", "end", "end")
    assert "(BH)" in state.render() and "Planet e5: black hole" in state.render()


def test_render_game_over_line(tmp_path) -> None:
    text = scenario_text(["e5"], ["e6"], ["e5"], required=1)
    deck = stacked([THREE_ACTIONS, TWO_EACH], ["straight", "refugee"])
    state = play(new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck), "draw", "move e6", "drop")
    assert "Game over" in state.render() and "rescued 1" in state.render()


def test_evaluate_is_bounded_and_rewards_rescues(tmp_path) -> None:
    text = scenario_text(["e5"], ["e6"], ["e5"], required=2)
    deck = stacked([THREE_ACTIONS, TWO_EACH], ["straight", "refugee"])
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck)
    before = state.evaluate(0)
    play(state, "draw", "move e6", "drop")
    assert -1 <= before < state.evaluate(0) <= 1


def test_evaluate_rewards_heading_for_the_next_errand(tmp_path) -> None:
    """Empty ships score higher nearer a live planet; loaded ships nearer an escape."""
    text = scenario_text(["a1"], ["i9"], ["e5"], required=2)
    deck = stacked([THREE_ACTIONS, TWO_EACH], ["refugee"])
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck)
    centre = state.evaluate(0)
    play(state, "move d5")
    assert state.evaluate(0) > centre  # one step nearer the planet at a1
    near = write_scenario(tmp_path, scenario_text(["e5"], ["e9"], ["e5"], required=2), "near.toml")
    # The Clock phase takes the first card (a Streamline, discarded); the draw brings the Refugee aboard.
    loaded = new_game(2, scenario_file=near, deck=stacked([THREE_ACTIONS, TWO_EACH], ["straight", "refugee"]))
    play(loaded, "draw")
    assert loaded.view(None)["ships"][0]["cargo"].count("refugee") == 1
    carrying = loaded.evaluate(0)
    play(loaded, "move e6")
    assert loaded.evaluate(0) > carrying  # with a refugee aboard, nearer the escape at e9
