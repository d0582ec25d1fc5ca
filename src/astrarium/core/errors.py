"""The errors astrarium raises. All are ``ValueError`` subclasses that name the input."""

from __future__ import annotations


def short(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters for an error message (a stranger's input is never echoed whole)."""
    text = text.replace("\x00", "\\0")
    return text if len(text) <= limit else text[: limit - 1] + "…"


class AstrariumError(ValueError):
    """Base class of every error astrarium raises on bad input."""


class IllegalAction(AstrariumError):
    """An action that cannot be played in this position, or text that is no action.

    The message is written for a player: it says what was asked and which rule
    forbids it. The state that raised it is exactly as it was before the call.
    """


class OptionError(AstrariumError):
    """A game option that does not exist or has a bad value; the message names it."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(f"option {option!r}: {message}")


class UnknownGame(AstrariumError):
    """A game id that is not registered."""


class RecordError(AstrariumError):
    """A game record that cannot be replayed; the message names the move when one is at fault."""


class DataError(AstrariumError):
    """A rules data file (cards, maps, scenarios, puzzles) with a bad entry.

    The message names the file and the entry, so a designer editing data can find it.
    """

    def __init__(self, file: str, entry: str, message: str) -> None:
        self.file = file
        self.entry = entry
        super().__init__(f"{file}: {entry}: {message}")


class ContractError(AstrariumError):
    """A game whose declared parts break the contract (``core.contract``), found when it registers.

    The message names the game and the part (``game 'orbital-combat': levels: ...``),
    so a designer sees at once what to declare or fix.
    """

    def __init__(self, game: str, part: str, message: str) -> None:
        self.game = game
        self.part = part
        super().__init__(f"game {short(game, 40)!r}: {part}: {message}")
