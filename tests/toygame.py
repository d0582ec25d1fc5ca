"""A tiny card game that lives only in the tests, to exercise the core API.

Players hold hidden hands dealt from a shuffled deck and take turns playing a
card onto a shared pile; whoever pushes the pile over the target loses and the
others share the win. When every hand is empty the game is a draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from astrarium.core import Game, IllegalAction, Option, Outcome, Rng, State
from astrarium.core.contract import Parts


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


class PileState(State):
    hands: list[list[int]]
    deck: list[int]
    total: int
    turn: int

    def _setup(self) -> None:
        o = self.options
        self.deck = [v for v in range(1, o["max_card"] + 1) for _ in range(o["copies"])]
        self.rng.shuffle(self.deck)
        self.hands = [sorted(self.deck.pop() for _ in range(o["hand_size"])) for _ in range(self.players)]
        self.total = 0
        self.turn = 0

    @property
    def current_player(self) -> int | None:
        return None if self._outcome is not None else self.turn

    def _legal_actions(self) -> list[Any]:
        return [Play(c) for c in sorted(set(self.hands[self.turn]))]

    def parse_action(self, text: str) -> Any:
        word, _, number = text.strip().lower().partition(" ")
        number = number.strip()
        if word != "play" or not (number.isascii() and number.isdigit() and len(number) <= 3):
            raise IllegalAction(f"{text!r} is not an action: write 'play N'")
        return Play(int(number))

    def explain_illegal(self, action: Any) -> str:
        return f"{action}: seat {self.turn} holds no {action.card}"

    def _apply(self, action: Play) -> None:
        hand = self.hands[self.turn]
        hand.remove(action.card)
        self.total += action.card
        if self.deck:
            hand.append(self.deck.pop())
            hand.sort()
        if self.total > self.options["target"]:
            others = tuple(s for s in range(self.players) if s != self.turn)
            self._outcome = Outcome(others, f"seat {self.turn} pushed the pile to {self.total}")
            return
        if not any(self.hands):
            self._outcome = Outcome(tuple(range(self.players)), "the cards ran out: a draw")
            return
        self.turn = (self.turn + 1) % self.players
        while not self.hands[self.turn]:
            self.turn = (self.turn + 1) % self.players

    def _copy_fields(self, new: State) -> None:
        new.hands = [h.copy() for h in self.hands]  # type: ignore[attr-defined]
        new.deck = self.deck.copy()  # type: ignore[attr-defined]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {
            "total": self.total,
            "turn": self.turn,
            "deck": len(self.deck),
            "hands": [h if s == seat else len(h) for s, h in enumerate(self.hands)],
        }

    def full_view(self) -> dict[str, Any]:
        return {"total": self.total, "turn": self.turn, "deck": self.deck, "hands": self.hands}

    def determinize(self, seat: int | None, rng: Rng) -> State:
        new = self.clone()
        assert isinstance(new, PileState)
        pool = list(new.deck)
        for s, hand in enumerate(new.hands):
            if s != seat:
                pool += hand
        rng.shuffle(pool)
        for s, hand in enumerate(new.hands):
            if s != seat:
                n = len(hand)
                new.hands[s] = sorted(pool[:n])
                del pool[:n]
        new.deck = pool
        new.rng = rng.spawn()
        return new

    def render(self, seat: int | None = None) -> str:
        hand = " ".join(map(str, self.hands[seat])) if seat is not None else "-"
        return f"pile [bold]{self.total}[/] of {self.options['target']}; your hand: {hand}"


class PileGame(Game):
    id = "toy-pile"
    title = "Toy Pile"
    min_players = 2
    max_players = 3
    hidden_information = True
    hidden = ("other players' hands", "deck order")
    chance = True
    notation_help = "play N"
    options = (
        Option("target", 21, "the pile total that must not be passed", int, minimum=5, maximum=60),
        Option("max_card", 6, "highest card value", int, minimum=2, maximum=9),
        Option("copies", 2, "copies of each value", int, minimum=1, maximum=4),
        Option("hand_size", 2, "cards in hand", int, minimum=1, maximum=3),
    )
    state_class = PileState
    # No picture, words, text board or help: the core's plain answers (the notation as words, ``render``) stand in.
    parts = Parts.rules_only(hidden_or_chance=True)

    def max_moves(self, players: int, options: Any) -> int:
        return options["max_card"] * options["copies"]

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        from astrarium.core import OptionError

        if options["max_card"] * options["copies"] < players * options["hand_size"]:
            raise OptionError("hand_size", "the deck is too small to deal every hand")

    def rules_text(self) -> str:
        return "# Toy Pile\nPlay cards onto the pile; do not pass the target.\n"
