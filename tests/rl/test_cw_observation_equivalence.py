"""Connected Worlds' observation is computed faster, never differently.

The encoder writes its tensors with precomputed offsets and one array
operation per kind of write instead of a loop over every hex; here the plain
definition it replaced (a grid filled hex by hex, a list of numbers per
segment, ``Counter`` for the cards, the round's order place by place) is
written out, and on many positions
(seeded random games over the player counts and options, and hypothesis's
scenarios with stacked units and several portals on one base) every seat's
observation and the global tensor must be the same to the bit.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from astrarium.core import get_game
from astrarium.core.learning import encoder_for
from astrarium.games.connected_worlds.actions import HEAD_VERBS
from astrarium.games.connected_worlds.learning import HEX_FEATURES, ConnectedWorldsEncoder
from astrarium.games.connected_worlds.state import PHASE_NAMES, Victory
from helpers import cw_piece as piece

GAME = get_game("connected-worlds")
STEPS = {"choices": "steps"}
_STRENGTH, _CARDS, _RESOURCES, _DECK, _PORTALS = 10.0, 5.0, 20.0, 20.0, 3.0
_VICTORIES = tuple(v.value for v in Victory)


# -- the plain definition ---------------------------------------------------------------------------------------------
def _one_hot(i: int, n: int) -> list[float]:
    row = [0.0] * n
    row[int(i)] = 1.0
    return row


def _counts(enc: ConnectedWorldsEncoder, slugs: Sequence[str] | Mapping[str, int]) -> list[float]:
    row = [0.0] * len(enc.cards.cards)
    items = slugs.items() if isinstance(slugs, Mapping) else Counter(slugs).items()
    for slug, count in items:
        row[enc.card_at[slug]] = count / _CARDS
    return row


def _hexes(enc: ConnectedWorldsEncoder, view: Mapping[str, Any], seat: int) -> np.ndarray:
    board, ids, p = enc.board, enc.board.cell_ids, enc.players
    grid = np.zeros((board.size, enc.hex_planes), dtype=np.float32)
    owner_at, units_at, terr_at = len(HEX_FEATURES), len(HEX_FEATURES) + p, len(HEX_FEATURES) + 2 * p
    for c in range(board.size):
        grid[c, 0 if board.board_of[c] == 0 else 1] = 1.0
        grid[c, 2] = float(board.world_below[c] != 0)
    for name, owner, strength in view["bases"]:
        c, rel = ids[name], (int(owner) - seat) % p
        grid[c, 3] = strength / _STRENGTH
        grid[c, owner_at + rel] = 1.0
        for t in board.territory[c]:
            grid[t, terr_at + rel] = 1.0
    for name, owner, strength, engaged in view["units"]:
        c = ids[name]
        grid[c, units_at + (int(owner) - seat) % p] += strength / _STRENGTH
        grid[c, 4] = max(grid[c, 4], float(engaged))
    for name, _owner, _strength in view["held"]:
        grid[ids[name], 5] = 1.0
    for name in view["held_bases"]:
        grid[ids[name], 5] = 1.0
    for a, b in view["portals"]:
        grid[ids[a], 6] += 1.0 / _PORTALS
        grid[ids[b], 6] += 1.0 / _PORTALS
    if view["moving"] is not None:
        grid[ids[view["moving"]["at"]], 7] = 1.0
    pending = view.get("pending")
    for name in pending["chosen"] if pending else ():
        grid[ids[name], 8] = 1.0
    return grid


def _pending(enc: ConnectedWorldsEncoder, pending: Mapping[str, Any] | None) -> list[float]:
    verbs, v = tuple(HEAD_VERBS), len(enc.cards.cards)
    if not pending:
        return [0.0] * (len(verbs) + v + 2)
    card = _one_hot(enc.card_at[pending["card"]], v)
    return [*_one_hot(verbs.index(pending["verb"]), len(verbs)), *card, *_one_hot(pending["next"] == "piece", 2)]


def _seats(enc: ConnectedWorldsEncoder, view: Mapping[str, Any], seat: int) -> list[float]:
    pieces = {b[1] for b in view["bases"]} | {u[1] for u in view["units"]}
    cells = float(enc.board.size)
    out: list[float] = []
    for k in range(enc.players):
        who = (seat + k) % enc.players
        row = view["players"][who]
        out += [
            row["resources"] / _RESOURCES,
            row["deck"] / _DECK,
            row["hand_size"] / enc.hand_size,
            row["deployed"] / _STRENGTH,
            row["bought"] / _STRENGTH,
            row["territory"] / cells,
            len(row["worlds"]) / enc.worlds_needed,
            float(who in pieces),
        ]
        out += _counts(enc, row["discard"])
        out += _counts(enc, row["known_in_hand"])
    return out


def _order(enc: ConnectedWorldsEncoder, view: Mapping[str, Any], seat: int) -> tuple[list[float], list[float]]:
    """Each seat's place in the round's order, one-hot; and whether it comes before the seat to move in that order."""
    p = enc.players
    order = list(view.get("order", range(p)))  # no order in the view: turn_order = fixed, seat order
    places = np.zeros((p, p), dtype=np.float32)
    for place, who in enumerate(order):
        places[(who - seat) % p, place] = 1.0
    played = [0.0] * p
    for who in order[: order.index(view["turn"])]:
        played[(who - seat) % p] = 1.0
    return places.reshape(-1).tolist(), played


def plain_observe(enc: ConnectedWorldsEncoder, view: Mapping[str, Any], seat: int) -> np.ndarray:
    """The observation as first defined: a hex-by-hex grid and a list per segment."""
    out = enc.segments.zeros()
    seg = enc.segments.slice
    out[seg("hexes")] = _hexes(enc, view, seat).reshape(-1)
    out[seg("hand")] = _counts(enc, view["players"][seat].get("hand", ()))
    out[seg("pending")] = _pending(enc, view.get("pending"))
    moving = view["moving"]
    if moving is not None:
        out[seg("moving")] = [float(moving["piece"] == "base"), moving["movement_left"] / enc.movement]
    out[seg("played")] = _counts(enc, view["played"])
    out[seg("seats")] = _seats(enc, view, seat)
    out[seg("to_move")] = _one_hot((int(view["turn"]) - seat) % enc.players, enc.players)
    out[seg("order")], out[seg("has_played")] = _order(enc, view, seat)
    out[seg("phase")] = _one_hot(PHASE_NAMES.index(view["phase"]), len(PHASE_NAMES))
    limit = max(int(view["round_limit"]), 1)
    out[seg("round")] = [view["round"] / limit, (limit - view["round"]) / limit]
    out[seg("victory")] = [*_one_hot(_VICTORIES.index(view["victory"]), len(_VICTORIES)), view["worlds_needed"] / 8.0]
    return out


def plain_observe_global(enc: ConnectedWorldsEncoder, full_view: Mapping[str, Any]) -> np.ndarray:
    extra: list[float] = []
    for row in full_view["players"]:
        extra += _counts(enc, row["hand"])
    for row in full_view["players"]:
        extra += _counts(enc, row["deck_order"])
    return np.concatenate([plain_observe(enc, full_view, 0), np.asarray(extra, dtype=np.float32)])


# -- the comparison -----------------------------------------------------------------------------------------------------
def assert_same_tensors(state: Any) -> None:  # noqa: ANN401 (the game's own State)
    """Every seat's observation and the global tensor, bit for bit against the plain definition."""
    enc = encoder_for(GAME, state.players, state.options)
    for seat in range(state.players):
        fast, plain = state.observation_tensor(seat), plain_observe(enc, state.view(seat), seat)
        assert fast.tobytes() == plain.tobytes(), f"seat {seat}: features {np.flatnonzero(fast != plain)[:8].tolist()} differ"
    fast, plain = state.global_tensor(), plain_observe_global(enc, state.full_view())
    assert fast.tobytes() == plain.tobytes(), f"global tensor: features {np.flatnonzero(fast != plain)[:8].tolist()} differ"


#: Options beside choices=steps that change what the observation holds (victory, who moves, who is out, combat).
VARIANTS: list[dict[str, Any]] = [
    {},
    {"victory": "capture", "turn_order": "rotating", "combat": "on-entry"},
    {"victory": "annihilation", "turn_order": "fixed", "elimination": False, "landing": "territory-or-any"},
    {"round_limit": 6, "worlds_needed": 2, "hand_size": 4, "launch": "anywhere", "deploy_moves": False},
]


def play_and_compare(players: int, seed: int, options: Mapping[str, Any], moves: int, every: int) -> int:
    """Random play from a new game for ``moves`` actions, comparing every ``every``-th position; the positions compared."""
    state = GAME.new_game(players, seed, {**STEPS, **options})
    pick = random.Random(seed)
    compared = 0
    for move in range(moves + 1):
        if move % every == 0 or state.is_over:
            assert_same_tensors(state)
            compared += 1
        if state.is_over:
            break
        state.apply_unchecked(pick.choice(state.legal_actions()))
    return compared


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 4),
    variant=st.sampled_from(range(len(VARIANTS))),
    moves=st.integers(0, 900),
)
def test_random_positions_observe_exactly_as_the_plain_definition(seed: int, players: int, variant: int, moves: int) -> None:
    play_and_compare(players, seed, VARIANTS[variant], moves, every=23)


@st.composite
def crowded_scenarios(draw: st.DrawFn) -> tuple[int, str]:
    """Two to four seats' bases on distinct world hexes, units stacked anywhere, portals sharing bases; a round and a seat
    to play in it (under turn_order = rotating the round decides the order, so the seat to play may be anywhere in it)."""
    players = draw(st.integers(2, 4))
    enc = encoder_for(GAME, players, STEPS)
    names, board_of = enc.board.cell_names, enc.board.board_of
    worlds = [names[c] for c in range(enc.board.size) if board_of[c]]
    bases = draw(st.lists(st.sampled_from(worlds), min_size=players, max_size=3 * players, unique=True))
    owners = [i % players for i in range(len(bases))]
    body = f"round = {draw(st.integers(1, 12))}\nturn = {draw(st.integers(0, players - 1))}\n"
    body += "".join(piece("base", at, owner, draw(st.integers(1, 4))) for at, owner in zip(bases, owners, strict=True))
    held = dict(zip(bases, owners, strict=True))  # opposing pieces never share a hex at the start of a turn
    for _ in range(draw(st.integers(0, 14))):
        at = draw(st.sampled_from(bases + draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))))
        owner = held.setdefault(at, draw(st.integers(0, players - 1)))
        body += piece("unit", at, owner, draw(st.integers(1, 12)))
    own = [[at for at, o in zip(bases, owners, strict=True) if o == owner] for owner in range(players)]
    pairs = sorted({(a, b) for group in own for a in group for b in group if a < b})
    for a, b in draw(st.lists(st.sampled_from(pairs), max_size=6, unique=True)) if pairs else ():
        body += f'[[portal]]\nbetween = ["{a}", "{b}"]\n'
    return players, body


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    scenario=crowded_scenarios(),
    seed=st.integers(0, 2**31),
    moves=st.integers(0, 12),
    turn_order=st.sampled_from(["drawn", "fixed", "rotating"]),
)
def test_crowded_positions_observe_exactly_as_the_plain_definition(
    scenario: tuple[int, str], seed: int, moves: int, turn_order: str
) -> None:
    """Stacked units of several strengths add up in float32 in the same order, and portal ends by thirds, as the grid's did;
    the round's order and the seats before the one to play are where the plain definition puts them."""
    players, body = scenario
    state = GAME.new_game(players, seed, {**STEPS, "scenario": body, "turn_order": turn_order})
    pick = random.Random(seed)
    for _ in range(moves):
        assert_same_tensors(state)
        if state.is_over:
            return
        state.apply_unchecked(pick.choice(state.legal_actions()))
    assert_same_tensors(state)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_whole_random_games_observe_exactly_as_the_plain_definition(players: int, variant: int) -> None:
    """Every position of eight whole games per player count and variant."""
    for seed in range(8):
        assert play_and_compare(players, seed, VARIANTS[variant], 10_000, every=1) > 1
