"""A fixed Constellations player: the look-ahead yardstick the search player is measured against.

``constellations-lookahead`` plans its own rotations only. For each rotation it
may make, it searches the boards its own next rotations reach (breadth first,
``depth`` rotations beyond the one it makes; the opponent ignored) and scores
the rotation by what its hand would score on the nearest board that shows each
card, discounted by ``gamma`` per rotation; after the rotation it plays every
card that is found, the first in the legal list first. It reads only the
public board and its own hand (from its seat's view), so it never peeks at the
other hands or the deck.

It is the player the strength target names: the shipped search player
must win at least half of a 200-game match against it (see
docs/balance/constellations.md, "Strength of the computer players"). How
often it beats random play is in docs/agents.md, "Constellations look-ahead
player".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from astrarium.core.game import State
from astrarium.games.constellations.actions import Play, Rotate
from astrarium.games.constellations.board import Geometry, colour_lines, found_count, star_moves
from astrarium.games.constellations.cards import Card

GAME_ID = "constellations"
Board = tuple[str, ...]
#: Boards remembered between moves before the memo is cleared (a few MB).
MEMO_LIMIT = 200_000


class LookaheadPlayer:
    """Own-rotation breadth-first look-ahead with memoized board lines and successors."""

    name = "constellations-lookahead"
    games = (GAME_ID,)

    def __init__(self, seed: int = 0, *, depth: int = 2, gamma: float = 0.5) -> None:
        if type(depth) is not int or not 0 <= depth <= 4:
            raise ValueError(f"depth must be a whole number from 0 to 4, not {depth!r}")
        if not isinstance(gamma, int | float) or not 0.0 < gamma <= 1.0:
            raise ValueError(f"gamma must be a number above 0 and at most 1, not {gamma!r}")
        self.seed = seed
        self.depth = depth
        self.gamma = float(gamma)
        self._lines: dict[Board, tuple[str, ...]] = {}
        self._next: dict[Board, tuple[Board, ...]] = {}
        self._geo: Geometry | None = None
        self._planet_in_line = False

    def choose(self, state: State) -> Any:
        if state.game.id != GAME_ID:
            raise ValueError(f"this player plays only {GAME_ID}, not {state.game.id}")
        legal = state.legal_actions()
        seat = state.current_player
        view = state.view(seat)
        if view["phase"] == "play":
            plays = [a for a in legal if isinstance(a, Play)]
            return plays[0] if plays else legal[-1]
        rotations = [a for a in legal if isinstance(a, Rotate)]
        if not rotations:
            return legal[0]
        geo: Geometry = state.geo  # type: ignore[attr-defined]  # the public board's shape
        board: Board = state.board  # type: ignore[attr-defined]  # the public board
        if geo is not self._geo:
            self._geo = geo
            self._lines.clear()
            self._next.clear()
        self._planet_in_line = bool(state.options["planet_in_line"])
        hand = [Card.parse(text) for text in view["hand"]]
        best, best_value = rotations[0], -1.0
        for action in rotations:
            cell = action.row * geo.width + action.col
            after = geo.rotate(board, cell, geo.radius_of(board[cell]))
            value = self.outlook(after, hand)
            if value > best_value:
                best, best_value = action, value
        if len(self._lines) > MEMO_LIMIT:
            self._lines.clear()
            self._next.clear()
        return best

    def lines(self, board: Board) -> tuple[str, ...]:
        lines = self._lines.get(board)
        if lines is None:
            assert self._geo is not None
            lines = self._lines[board] = colour_lines(board, self._geo, self._planet_in_line)
        return lines

    def successors(self, board: Board) -> tuple[Board, ...]:
        after = self._next.get(board)
        if after is None:
            geo = self._geo
            assert geo is not None
            after = self._next[board] = tuple(geo.rotate(board, c, geo.radius_of(board[c])) for c in star_moves(board, geo))
        return after

    def outlook(self, board: Board, cards: Iterable[Card]) -> float:
        """Each card's best score on the nearest board showing it, times gamma per rotation away."""
        pending, total, weight = list(cards), 0.0, 1.0
        frontier, seen = [board], {board}
        for d in range(self.depth + 1):
            best = [0] * len(pending)
            for b in frontier:
                lines = self.lines(b)
                for k, card in enumerate(pending):
                    found = found_count(lines, card.colours)
                    if found:
                        best[k] = max(best[k], card.score(found))
            total += weight * sum(best)
            pending = [card for k, card in enumerate(pending) if not best[k]]
            if not pending or d == self.depth:
                break
            weight *= self.gamma
            frontier = self.ring(frontier, seen)
        return total

    def ring(self, frontier: list[Board], seen: set[Board]) -> list[Board]:
        """The boards one rotation beyond ``frontier`` not yet in ``seen`` (which gains them)."""
        reached = []
        for b in frontier:
            for nb in self.successors(b):
                if nb not in seen:
                    seen.add(nb)
                    reached.append(nb)
        return reached
