"""Connected Worlds actions told in words: moves, combats, captures, territory, secret draws and the end."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

import astrarium
from astrarium.core import Rng, State
from astrarium.games.connected_worlds.words import describe
from helpers import examples

GAME = astrarium.get_game("connected-worlds")
PLAYERS = """
[[player]]
resources = 20
hand = ["harvester", "scientists", "engineers", "portal", "assault-team"]
deck = ["harvester", "harvester", "scientists", "engineers", "portal", "standard-base", "harvester", "scientists"]
[[player]]
hand = ["harvester", "harvester", "portal", "scientists", "engineers"]
deck = ["harvester", "scientists", "engineers", "assault-team", "standard-base"]
"""


def unit(at: str, owner: int, strength: int) -> str:
    return f'[[unit]]\nat = "{at}"\nowner = {owner}\nstrength = {strength}\n'


def base(at: str, owner: int, strength: int) -> str:
    return f'[[base]]\nat = "{at}"\nowner = {owner}\nstrength = {strength}\n'


def position(body: str, **options: object) -> State:
    return GAME.new_game(2, 7, {"scenario": body, **options})


def told(state: State, notation: str, seat: int | None = 0) -> list[str]:
    before = state.picture_view(seat)
    state.apply(notation)
    return GAME.describe(before, notation, state.picture_view(seat))


def told_to_all(state: State, notation: str) -> dict[int | None, list[str]]:
    seats: list[int | None] = [*range(state.players), None]
    before = {seat: state.picture_view(seat) for seat in seats}
    state.apply(notation)
    return {seat: GAME.describe(before[seat], notation, state.picture_view(seat)) for seat in seats}


# A's unit (strength 2) beside B's base (strength 1) on world A; A has a second base on world C.
RAID = base("A:0,0", 0, 2) + unit("A:0,0", 0, 2) + base("A:1,0", 1, 1) + base("C:0,0", 0, 1) + base("B:0,0", 1, 1) + PLAYERS


def test_found_names_the_world_and_the_territory_it_claims() -> None:
    state = GAME.new_game(2, 7)
    assert told(state, "found A:0,0", None) == [
        "A (seat 0) founds a first base on Aurelia at A:0,0.",
        "A's territory: 0 → 7 hexes.",
        "A has a base on 1 world (Aurelia).",
        "B (seat 1) is next.",
    ]
    assert told(state, "found A:1,1", 0)[-2:] == ["Every player has founded a base: play begins.", "A (seat 0) is next."]


def test_move_into_an_enemy_base_engages_then_captures_it_at_the_end_of_the_turn() -> None:
    state = position(RAID)
    assert told(state, "move harvester A:0,0 u2") == ["A (seat 0) plays Harvester to move the strength-2 unit at A:0,0 (up to 3 steps)."]
    assert told(state, "step A:1,0") == [
        "A (seat 0) moves the strength-2 unit from A:0,0 to A:1,0.",
        "It meets enemy pieces at A:1,0: they fight when the turn ends.",
    ]
    lines = told(state, "end", 1)
    assert lines[:6] == [
        "A (seat 0) ends the turn.",
        "Combat at A:1,0: A attacks with a strength-2 unit against B's base of strength 1; attackers left: 2; defenders left: none.",
        "A (seat 0) captures B's base at A:1,0 (strength 1).",
        "A's territory: 14 → 17 hexes.",
        "B's territory: 14 → 7 hexes.",
        "B has a base on 1 world (Boreas).",
    ]


def test_cards_drawn_are_named_to_the_drawer_and_counted_for_the_others() -> None:
    state = position(RAID)
    lines = told_to_all(state, "end")
    assert lines[0][-2:] == ["A (seat 0) draws 5 cards: Engineers, Harvester, Harvester, Portal, Scientists.", "B (seat 1) is next."]
    assert lines[1][-2:] == lines[None][-2:] == ["A (seat 0) draws 5 cards.", "B (seat 1) is next."]


def test_a_draw_that_takes_the_whole_deck_is_known_to_everyone() -> None:
    state = position(
        base("A:0,0", 0, 1) + base("B:0,0", 1, 1) + '[[player]]\nhand = ["harvester"]\ndeck = ["portal", "scientists"]\n[[player]]\n'
    )
    assert "The whole deck was drawn, so everyone knows A's hand includes Portal and Scientists." in told(state, "end", 1)


def test_spend_cards_on_resources_research_building_and_portals() -> None:
    state = position(RAID)
    assert told(state, "gather harvester") == ["A (seat 0) plays Harvester to gather 3 resources (now 23)."]
    assert told(state, "research scientists excavater") == [
        "A (seat 0) plays Scientists to research an Excavater card for 6 resources; it goes to the discard pile."
    ]
    assert told(state, "build engineers titan-force") == [
        "A (seat 0) plays Engineers to build a Titan Force card for 12 resources; it goes to the discard pile."
    ]
    assert told(state, "connect portal A:0,0 C:0,0") == ["A (seat 0) plays Portal to open a portal between its bases at A:0,0 and C:0,0."]
    assert told(state, "deploy assault-team A:0,1") == ["A (seat 0) deploys an Assault Team (strength 2) at A:0,1."]


def test_base_destroyed_by_an_equal_force_closes_its_portal() -> None:
    portal = '[[portal]]\nbetween = ["A:1,0", "B:0,0"]\n'
    state = position(base("A:0,0", 0, 2) + unit("A:0,0", 0, 2) + base("A:1,0", 1, 2) + base("B:0,0", 1, 1) + portal + PLAYERS)
    play = ["move harvester A:0,0 u2", "step A:1,0"]
    for notation in play:
        state.apply(notation)
    lines = told(state, "end", None)
    assert lines[1:4] == [
        "Combat at A:1,0: A attacks with a strength-2 unit against B's base of strength 2; attackers left: none; defenders left: none.",
        "B's base at A:1,0 (strength 2) is destroyed.",
        "1 portal closes with it.",
    ]


def test_capture_of_the_last_base_ends_the_round_and_the_game() -> None:
    state = position(
        "turn = 1\n" + base("A:0,0", 0, 1) + base("B:0,0", 1, 1) + unit("A:1,0", 1, 2) + PLAYERS,
        victory="capture",
    )
    state.apply("move harvester A:1,0 u2")
    state.apply("step A:0,0")
    lines = told(state, "end", 0)
    assert lines[-2:] == ["Game over: seat 1 wins by capture at the end of round 1.", "B (seat 1) wins."]
    assert "B (seat 1) captures A's base at A:0,0 (strength 1)." in lines


def test_missing_keys_fall_back_to_plain_words() -> None:
    assert describe({}, "end", {}) == ["The game ends the turn."]
    assert describe({"to_move": 3}, "warp A:0,0", {"events": [7], "players": [None]}) == ["D (seat 3): warp A:0,0"]
    assert describe({"to_move": 0, "moving": "odd"}, "step S:0,1", {"units": [[1, 2]]})[0] == "A (seat 0) moves a piece to S:0,1."


def _visible(before: dict, after: dict, notation: str, seat: int | None) -> set[str]:
    """The card slugs the seat may read: its own hand, the cards played, discard piles, what is known of hands, the notation."""
    seen = {w.lower() for w in notation.split()}
    for view in (before, after):
        seen.update(view.get("played", []))
        for s, player in enumerate(view.get("players", [])):
            seen.update(player.get("discard", {}))
            seen.update(player.get("known_in_hand", []))
            if s == seat:
                seen.update(player.get("hand", []))
    return seen


@settings(max_examples=examples(20))
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), victory=st.sampled_from(["expansion", "capture", "annihilation"]))
def test_every_action_is_told_to_every_seat_without_naming_a_hidden_card(seed: int, players: int, victory: str) -> None:
    state = GAME.new_game(players, seed, {"victory": victory, "round_limit": 3})
    table = {card["name"]: card["slug"] for card in state.view(None)["cards"]}
    mention = re.compile(r"\b(" + "|".join(re.escape(name) for name in sorted(table, key=len, reverse=True)) + r")\b")
    rng = Rng(seed)
    seats: list[int | None] = [*range(players), None]
    while not state.is_over:
        before = {seat: state.picture_view(seat) for seat in seats}
        notation = str(rng.choice(state.legal_actions()))
        state.apply(notation)
        for seat in seats:
            after = state.picture_view(seat)
            lines = describe(before[seat], notation, after)
            assert lines and all(isinstance(line, str) and line.strip() for line in lines)
            named = {table[m] for m in mention.findall(" ".join(lines))}
            assert named <= _visible(before[seat], after, notation, seat), (seat, notation, lines)


def test_order_of_the_game_a_new_round_names_who_plays_first_unless_the_order_is_fixed():
    home = base("A:0,0", 0, 3) + base("B:0,0", 1, 3)
    rotating = position("round = 1\nturn = 1\n" + home + PLAYERS, turn_order="rotating")
    assert "Round 2 of 30 begins: B (seat 1) plays first." in told(rotating, "end", 1)
    fixed = position("round = 1\nturn = 1\n" + home + PLAYERS, turn_order="fixed")
    assert "Round 2 of 30 begins." in told(fixed, "end", 1)
