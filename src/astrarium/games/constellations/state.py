"""A position of Constellations and the rules of a turn.

A turn is one rotation around a star (or a pass when no star can move
anything), then any number of card plays whose constellation is on the board,
then the hand is refilled. The turn ends by itself as soon as no card left in
the hand is found on the board.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import Any

from astrarium.core import Outcome, Rng, State
from astrarium.games.constellations import actions as act
from astrarium.games.constellations.actions import END, PASS, Pass, Play, Rotate, Swap
from astrarium.games.constellations.board import (
    COMPILED,
    EMPTY,
    Geometry,
    format_board,
    found_count,
    geometry,
    is_found,
    joined_colour_lines,
    packed_found,
    packed_lines,
    parse_board,
    split_lines,
    star_cells,
    star_moves,
)
from astrarium.games.constellations.cards import Card, load_deck_file, shipped_deck


class Phase(StrEnum):
    """Where the turn stands: the rotation still to make, or card plays after it."""

    ROTATE = "rotate"
    PLAY = "play"


ROTATE, PLAY = Phase.ROTATE, Phase.PLAY
#: Random-board option name -> object letter, in placement order.
OBJECT_COUNTS = (
    ("planets", "P"),
    ("gas_giants", "G"),
    ("yellow_dwarfs", "Y"),
    ("red_giants", "R"),
    ("neutron_stars", "N"),
    ("black_holes", "B"),
    ("comets", "C"),
)
#: The most rounds a game may last (option max_rounds, and the rotations of a puzzle).
MAX_ROUNDS = 100


@lru_cache(maxsize=64)
def rotate_actions(height: int, width: int) -> tuple[Rotate, ...]:
    """The rotate action of every cell of a board size, made once (the legal list shares them)."""
    return tuple(Rotate(*divmod(cell, width)) for cell in range(height * width))


def make_deck(options: Any, rng: Rng) -> list[Card]:
    """The deck in draw order: the ``deck`` option as given, else a shuffled designer's file or the shipped deck."""
    if options.get("deck") is not None:
        return [Card.parse(text) for text in options["deck"]]
    cards = list(load_deck_file(options["deck_file"]) if options.get("deck_file") else shipped_deck())
    rng.shuffle(cards)
    return cards


def random_board(options: Any, rng: Rng) -> tuple[str, ...]:
    cells = [letter for name, letter in OBJECT_COUNTS for _ in range(options[name])]
    cells += [EMPTY] * (options["width"] * options["height"] - len(cells))
    rng.shuffle(cells)
    return tuple(cells)


class ConstellationsState(State):
    board: tuple[str, ...]
    geo: Geometry
    height: int
    width: int
    turn: int
    phase: Phase
    round: int
    hands: list[list[Card]]
    deck: list[Card]  # reversed: the next card drawn is deck[-1]
    scores: list[int]
    played: list[list[Any]]  # public log: [seat, card, found, points]
    swapped: list[list[Any]]  # public log of the variant's swaps: [seat, card]
    ran_out: bool
    _lines: tuple[str, ...] | None
    _joined: str | None  # the lines joined for is_found, cached with them
    _packed: list[int] | None  # the lines packed as integers (board.packed_lines), cached with them; compiled build only
    _rotates: tuple[Rotate, ...]

    # -- setup -----------------------------------------------------------------
    def _setup(self) -> None:
        o = self.options
        if o["board"] is not None:
            self.height, self.width, self.board = parse_board(o["board"])
        else:
            self.height, self.width = o["height"], o["width"]
            self.board = random_board(o, self.rng)
        self.geo = geometry(self.height, self.width)
        self._rotates = rotate_actions(self.height, self.width)
        deck = make_deck(o, self.rng)
        deck.reverse()
        self.deck = deck
        self.hands = [[] for _ in range(self.players)]
        for hand in self.hands:
            for _ in range(o["hand_size"]):
                if self.deck:
                    hand.append(self.deck.pop())
        self.scores = [0] * self.players
        self.played = []
        self.swapped = []
        self.turn = 0
        self.phase = ROTATE
        self.round = 1
        self.ran_out = False
        self._lines = None
        self._joined = None
        if COMPILED:  # only the compiled build reads the packed lines; an interpreted state's copies keep one entry fewer
            self._packed = None

    # -- queries -------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self._outcome is not None else self.turn

    def lines(self) -> tuple[str, ...]:
        """The colour sequence of every line out of every planet (cached until the board changes)."""
        lines = self._lines
        if lines is None:
            lines = self._lines = split_lines(self.joined())
        return lines

    def joined(self) -> str:
        """The lines joined into one string, as :func:`is_found` reads them (cached until the board changes)."""
        joined = self._joined
        if joined is None:
            joined = self._joined = joined_colour_lines(self.board, self.geo, self.options["planet_in_line"])
        return joined

    def packed(self) -> list[int]:
        """The lines packed as integers, as :func:`packed_found` reads them (cached until the board changes)."""
        packed = self._packed
        if packed is None:
            packed = self._packed = packed_lines(self.board, self.geo, self.options["planet_in_line"])
        return packed

    def found(self, card: Card | str) -> int:
        """How many lines show the card's constellation now (``card`` may be a Card or colours)."""
        return found_count(self.lines(), card.colours if isinstance(card, Card) else card)

    def board_text(self) -> str:
        return format_board(self.board, self.width)

    def radius(self, cell: int) -> int:
        return self.geo.radius_of(self.board[cell])

    def _playable(self, hand: list[Card]) -> list[Card]:
        """The distinct cards of ``hand`` found on the board, sorted."""
        if COMPILED:
            packed = self.packed()
            playable = [c for c in hand if packed_found(packed, c.colours, False)]
        else:
            joined = self.joined()
            playable = [c for c in hand if is_found(joined, c.colours)]
        return sorted(set(playable)) if len(playable) > 1 else playable

    def _any_playable(self, hand: list[Card]) -> bool:
        """Whether some card of ``hand`` is found on the board (the turn goes on): a yes or no, no list."""
        if COMPILED:
            packed = self.packed()
            for card in hand:  # noqa: SIM110 (as below)
                if packed_found(packed, card.colours, False):
                    return True
            return False
        joined = self.joined()
        for card in hand:  # noqa: SIM110 (a plain loop: any() over a generator costs more on this hot path)
            if is_found(joined, card.colours):
                return True
        return False

    # -- legal actions -----------------------------------------------------------
    def _legal_actions(self) -> list[Any]:
        if self.phase == ROTATE:
            cells = star_cells(self.board, self.geo) if COMPILED else star_moves(self.board, self.geo)
            rotates = self._rotates
            moves: list[Any] = [rotates[i] for i in cells] if cells else [PASS]
            if self.options["swap"]:
                moves += [Swap(c) for c in sorted(set(self.hands[self.turn]))]
            return moves
        plays: list[Any] = [Play(c) for c in self._playable(self.hands[self.turn])]
        plays.append(END)
        return plays

    def parse_action(self, text: str) -> Any:
        return act.parse_action(text)

    # -- moving on -----------------------------------------------------------------
    def _apply(self, action: Any) -> None:
        if type(action) is Rotate:
            geo = self.geo
            board = self.board
            cell = action.row * self.width + action.col
            self.board = geo.rotate(board, cell, geo.radius[board[cell]])
            self._lines = None
            self._joined = None
            if COMPILED:
                self._packed = None
            self._after_rotation()
        elif type(action) is Play:
            hand = self.hands[self.turn]
            card = action.card
            found = packed_found(self.packed(), card.colours) if COMPILED else self.found(card)
            points = card.score(found)
            self.scores[self.turn] += points
            hand.remove(card)
            self.played.append([self.turn, str(card), found, points])
            if not self._any_playable(hand):
                self._end_turn()
        elif type(action) is Pass:
            self._after_rotation()
        elif type(action) is Swap:
            self.hands[self.turn].remove(action.card)
            self.swapped.append([self.turn, str(action.card)])
            self._end_turn()
        else:
            self._end_turn()

    def _after_rotation(self) -> None:
        if self._any_playable(self.hands[self.turn]):
            self.phase = PLAY
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        hand = self.hands[self.turn]
        deck = self.deck
        while len(hand) < self.options["hand_size"]:
            if not deck:
                self.ran_out = True
                break
            hand.append(deck.pop())
        self.phase = ROTATE
        if not deck and not any(self.hands):
            self._finish("every constellation card has been played")
            return
        if self.turn == self.players - 1:
            if self.ran_out:
                self._finish(f"the deck ran out in round {self.round}")
                return
            if self.round >= self.options["max_rounds"]:
                self._finish("1 round was played" if self.round == 1 else f"{self.round} rounds were played")
                return
            self.round += 1
        self.turn = (self.turn + 1) % self.players

    def _finish(self, reason: str) -> None:
        scores = tuple(float(s) for s in self.scores)
        if self.players == 1:
            target = self.options["solo_target"]
            won = self.scores[0] >= target
            card = self._only_card()
            if card is not None:
                # A one-card challenge (a puzzle): the card is what counts, not its points.
                reason = f"{card} was made and played: solved" if won else f"{reason} without playing {card}"
            else:
                verdict = "reached" if won else "missed"
                reason = f"{reason}; {self.scores[0]} points {verdict} the solo target of {target}"
            self._outcome = Outcome((0,) if won else (), reason, scores)
            return
        best = max(self.scores)
        winners = tuple(s for s in range(self.players) if self.scores[s] == best)
        self._outcome = Outcome(winners, f"{reason}; top score {best}", scores)

    def _only_card(self) -> str | None:
        """The card of a one-card solo game that is won exactly when that card is played (a puzzle), else None.

        Such a game is a challenge to make one constellation, so its end speaks of
        the card; a score attack (any other solo game) speaks of points.
        """
        deck = self.options["deck"]
        if deck is None or len(deck) != 1:
            return None
        card = Card.parse(deck[0])
        return str(card) if self.options["solo_target"] <= card.points else None

    # -- copies and hidden information ---------------------------------------------
    def _copy_fields(self, new: State) -> None:
        assert isinstance(new, ConstellationsState)
        new.hands = [h.copy() for h in self.hands]
        new.deck = self.deck.copy()
        new.scores = self.scores.copy()
        new.played = self.played.copy()
        new.swapped = self.swapped.copy()

    def determinize(self, seat: int | None, rng: Rng) -> State:
        """A copy where the deck order and every hand but ``seat``'s are re-dealt from the unseen cards."""
        new = self.clone()
        assert isinstance(new, ConstellationsState)
        pool = list(new.deck)
        for s, hand in enumerate(new.hands):
            if s != seat:
                pool += hand
        rng.shuffle(pool)
        for s, hand in enumerate(new.hands):
            if s != seat:
                n = len(hand)
                new.hands[s] = pool[:n]
                del pool[:n]
        new.deck = pool
        new.rng = rng.spawn()
        return new

    # -- views -----------------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {
            "board": self.board_text(),
            "height": self.height,
            "width": self.width,
            "round": self.round,
            "max_rounds": self.options["max_rounds"],
            "turn": self.turn,
            "phase": self.phase.value,
            "scores": list(self.scores),
            "hand": None if seat is None else [str(c) for c in self.hands[seat]],
            "hand_sizes": [len(h) for h in self.hands],
            "deck": len(self.deck),
            "played": [list(p) for p in self.played],
            "swapped": [list(p) for p in self.swapped],
        }

    def full_view(self) -> dict[str, Any]:
        data = self.view(None)
        data["hands"] = [[str(c) for c in h] for h in self.hands]
        data["deck_order"] = [str(c) for c in reversed(self.deck)]
        return data
