"""Invariants over random play: cards are conserved, ships only stand where they could enter, games end."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from streamlines_fixtures import GAME

from astrarium.core import Rng
from astrarium.games.streamlines import actions as act
from astrarium.games.streamlines.actions import Move
from astrarium.games.streamlines.board import SCENARIO_NAMES, builtin_scenario, parse_square
from astrarium.games.streamlines.cards import NAMES, card_counts, shape_of
from helpers import examples

STEP = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}


def busy_choice(state, rng: Rng):
    """A random but purposeful action (draw, lay, drop, ... first; moves onto planets and escapes next),
    so random games reach full holds, gates, special cards, rescues and black holes."""
    legal = state.legal_actions()
    other = [a for a in legal if not isinstance(a, Move) and str(a) != "end"]
    if other and rng.random() < 0.8:
        return rng.choice(other)
    targets = {*state.scenario.planets, *state.scenario.escapes}
    useful = [a for a in legal if isinstance(a, Move) and a.path[-1] in targets]
    if useful and rng.random() < 0.6:
        return rng.choice(useful)
    busy = [a for a in legal if str(a) != "end"]
    return rng.choice(busy if busy and rng.random() < 0.9 else legal)


def census(view: dict) -> Counter:
    """Every card in the game, wherever it is, counted from the full view."""
    count: Counter = Counter()
    for pile in ("deck_contents", "discard", "lost"):
        count.update(view[pile])
    for ship in view["ships"]:
        count.update(ship["powers"])
        count.update(ship["cargo"])
    for card in view["streamlines"].values():
        count[card.split()[0]] += 1
    count["collapse"] += sum(p["collapse_cards"] for p in view["planets"])
    count["refugee"] += view["rescued"]
    return +count


def whole_deck(state) -> Counter:
    counts = card_counts(state.options, state.scenario.collapse_cards)
    whole = Counter({NAMES[k]: n for k, n in enumerate(counts) if n})
    for _sq, mask in state.scenario.streamlines:
        whole[NAMES[shape_of(mask)]] += 1
    return whole


def arrows(view: dict) -> dict[str, str]:
    return {sq: card.split()[1] for sq, card in view["streamlines"].items() if " " in card}


def neighbour(square: str, d: str) -> str | None:
    col, row = "abcdefghi".index(square[0]) + STEP[d][0], int(square[1]) + STEP[d][1]
    return f"{'abcdefghi'[col]}{row}" if 0 <= col < 9 and 1 <= row <= 9 else None


def check_move(view: dict, start: str, move: Move) -> None:
    """The rules of movement, checked independently of the engine, on the board before the move."""
    lines = arrows(view)
    squares = [f"{'abcdefghi'[s % 9]}{s // 9 + 1}" for s in move.path]
    walked = squares[:-1] if move.jump else squares
    cur, seen = start, {start}
    for k, nxt in enumerate(walked):
        (d,) = [d for d in "nesw" if neighbour(cur, d) == nxt]
        if k > 0:
            assert d in lines.get(cur, ""), f"{move}: no streamline on {cur} leads to {nxt}"
        assert OPPOSITE[d] not in lines.get(nxt, ""), f"{move}: enters {nxt} against its streamline"
        assert nxt not in seen, f"{move}: re-enters {nxt}"
        seen.add(nxt)
        cur = nxt
    if move.jump:
        assert view["streamlines"].get(cur, "").startswith("gate")
        assert view["streamlines"][squares[-1]] == view["streamlines"][cur]


@settings(max_examples=examples(25))
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), name=st.sampled_from(SCENARIO_NAMES))
def test_property_cards_are_conserved(seed: int, players: int, name: str) -> None:
    state = GAME.new_game(players, seed, {"scenario": name})
    whole = whole_deck(state)
    rng = Rng(seed)
    while True:
        assert census(state.full_view()) == whole
        if state.is_over:
            break
        state.apply(busy_choice(state, rng))


@settings(max_examples=examples(25))
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), name=st.sampled_from(SCENARIO_NAMES))
def test_property_ships_only_stand_where_they_could_enter(seed: int, players: int, name: str) -> None:
    state = GAME.new_game(players, seed, {"scenario": name})
    black_holes = set()
    rng = Rng(seed)
    while not state.is_over:
        view = state.full_view()
        black_holes = {p["square"] for p in view["planets"] if p["stage"] == "black hole"}
        for ship in view["ships"]:
            assert ship["square"] is None or ship["square"] not in black_holes
        action = busy_choice(state, rng)
        seat = state.current_player
        if isinstance(action, Move):
            check_move(view, view["ships"][seat]["square"], action)
        state.apply(action)
        if isinstance(action, Move):
            where = state.full_view()["ships"][seat]["square"]
            end = f"{'abcdefghi'[action.path[-1] % 9]}{action.path[-1] // 9 + 1}"
            assert where == end or (where is None and end in black_holes)


def test_property_random_play_from_200_seeds_ends() -> None:
    for seed in range(200):
        players = 2 + seed % 3
        name = SCENARIO_NAMES[seed % 3]
        state = GAME.new_game(players, seed, {"scenario": name})
        bound = GAME.max_moves(players, state.options)
        rng = Rng(seed)
        while not state.is_over:
            assert state.move_number < bound
            state.apply(rng.choice(state.legal_actions()))
        assert state.outcome.winners in ((), tuple(range(players)))


def test_property_starting_squares_match_the_scenario() -> None:
    for name in SCENARIO_NAMES:
        start = builtin_scenario(name).starts[0]
        state = GAME.new_game(2, 0, {"scenario": name})
        assert all(parse_square(s["square"]) == start for s in state.view()["ships"])


POWER_OR_EVENT = {"action", "cargo", "pickup", "extra-move", "engineering", "collapse", "calm-star", "tailwind", "salvage", "ion-storm"}


def drawn(view: dict) -> str:
    """The card named by the last "ship N drew CARD at SQ" event."""
    event = [e for e in view["events"] if " drew " in e][-1]
    return event.split(" drew ")[1].split(" at ")[0]


@settings(max_examples=examples(25))
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), name=st.sampled_from(SCENARIO_NAMES))
def test_property_a_free_draw_follows_only_a_power_or_an_event(seed: int, players: int, name: str) -> None:
    """Loading Up: a draw costs no action only right after a draw that brought a Power or an Event,
    and only while the deck has cards (Decisions 12)."""
    state = GAME.new_game(players, seed, {"scenario": name})
    rng = Rng(seed)
    last: str | None = None  # what the previous action drew, if it was a draw
    while not state.is_over:
        action = busy_choice(state, rng)
        if act.DRAW in state.legal_actions() and rng.random() < 0.7:
            action = act.DRAW  # draw often, so decks run dry and free draws meet reshuffles
        before = state.view()
        state.apply(action)
        if str(action) != "draw":
            last = None
            continue
        after = state.view()
        card = drawn(after)
        gained = 1 if card == "action" else 0  # a drawn Action card gives an action at once
        if after["turn"] == before["turn"] and after["actions_left"] == before["actions_left"] + gained:
            assert last in POWER_OR_EVENT, f"move {state.move_number}: a free draw after {last!r}"
            assert before["deck"] > 0, f"move {state.move_number}: a free draw reshuffled"
        last = card
