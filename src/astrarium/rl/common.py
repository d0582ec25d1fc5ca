"""What the adapters share: the game with its learning part checked, and the text board without markup."""

from __future__ import annotations

from astrarium.core import Game, State, get_game
from astrarium.core.learning import learning_part


def learning_game(game_id: str) -> Game:
    """The registered game ``game_id``; a ContractError naming it when it declares no ``learning`` part."""
    game = get_game(game_id)
    learning_part(game)
    return game


def board_text(state: State, seat: int | None) -> str:
    """The position as plain text from ``seat``'s side (the full-size text board, its Rich markup taken off)."""
    from rich.text import Text

    return Text.from_markup(state.render(seat)).plain
