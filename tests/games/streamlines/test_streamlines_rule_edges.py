"""Rules at their edges, each named after the seed's section: exactly the refugees still needed, a gift to a full hold.

Positions are built as in the other rule tests: a scenario from text, a stacked deck, and the moves in notation.
"""

from __future__ import annotations

import pytest
from streamlines_fixtures import ONE_EACH, TWO_EACH, new_game, play, scenario_text, ship, stacked, write_scenario

from astrarium.core import IllegalAction


# -- Loading Up: "Refugee cards dumped this way are lost for the rest of the game" ----------------------
def test_loading_dumped_refugee_leaving_exactly_the_refugees_needed_the_game_goes_on(tmp_path) -> None:
    """Two refugees in the game and one needed: dumping one leaves exactly enough, so the team plays on and wins."""
    text = scenario_text(["e5"], ["e6"], ["e5"], required=1)
    deck = stacked([["action", "cargo", "action", "action"], ONE_EACH], ["straight", "refugee", "refugee"], refugees=0)
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck)
    play(state, "draw", "draw", "dump refugee")
    assert state.refugees_in_play() == state.required == 1
    assert not state.is_over and state.outcome is None
    assert ship(state, 0)["cargo"] == ["refugee"]
    play(state, "move e6", "end", "end", "drop")  # the third action moves; the drop waits for the next turn
    assert state.is_over and state.outcome.winners == (0, 1)


# -- Actions: "Transfer one unit of cargo to another ship on the same square" ----------------------------
def test_actions_transfer_to_a_ship_with_a_full_hold_is_refused(tmp_path) -> None:
    """Ship 1 has one Cargo card and carries a card: a gift to it is refused with the reason, and nothing changes."""
    text = scenario_text(["e5"], ["e6"], ["e5"])
    deck = stacked([TWO_EACH, ONE_EACH], ["straight", "refugee", "straight", "tee"])
    state = new_game(2, scenario_file=write_scenario(tmp_path, text), deck=deck)
    play(state, "draw", "end", "draw", "end")  # ship 0 draws a Refugee; ship 1 fills its one-card hold
    assert state.current_player == 0 and ship(state, 0)["cargo"] == ["refugee"] and ship(state, 1)["cargo"] == ["tee"]
    assert not [a for a in state.legal_actions() if str(a).startswith("give")]
    before = state.full_view()
    with pytest.raises(IllegalAction, match=r"^give refugee 1: the hold of ship B \(seat 1\) is full$"):
        state.apply("give refugee 1")
    assert state.full_view() == before
