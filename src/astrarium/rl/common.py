"""What the adapters share: the game with its learning part checked, the episode limit, the text board, the picture as pixels."""

from __future__ import annotations

from typing import Any

from astrarium.core import Game, State, get_game
from astrarium.core.learning import encoder_for, learning_part


def learning_game(game_id: str) -> Game:
    """The registered game ``game_id``; a ContractError naming it when it declares no ``learning`` part."""
    game = get_game(game_id)
    learning_part(game)
    return game


def episode_limit(game: Game, players: int, options: Any) -> int:
    """The actions an episode may last before it is truncated: the encoder's ``episode_limit`` where it declares one
    (a game whose true bound is far beyond any game played; docs/learning.md, "The bound on a game's length"), else
    ``Game.max_moves``, which no game passes."""
    bound = game.max_moves(players, options)
    limit = getattr(encoder_for(game, players, options), "episode_limit", None)
    return bound if limit is None else min(bound, int(limit))


def observation_box(game: Game, players: int, options: Any) -> Any:
    """The Box of a seat's observation: the encoder's ``observation_bounds`` (low, high), or unbounded without them."""
    import numpy as np
    from gymnasium import spaces

    shape = game.observation_shape(players, options)
    bounds = getattr(encoder_for(game, players, options), "observation_bounds", None)
    low, high = bounds if bounds is not None else (np.full(shape, -np.inf, np.float32), np.full(shape, np.inf, np.float32))
    return spaces.Box(low=np.asarray(low, np.float32).reshape(shape), high=np.asarray(high, np.float32).reshape(shape), dtype=np.float32)


def board_text(state: State, seat: int | None) -> str:
    """The position as plain text from ``seat``'s side (the full-size text board, its Rich markup taken off)."""
    from rich.text import Text

    return Text.from_markup(state.render(seat)).plain


#: What ``render()`` can give: the text board (``ansi``) or the picture as an RGB array (``rgb_array``).
RENDER_MODES = ("ansi", "rgb_array")


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if the adapters draw it; a ValueError naming the modes otherwise."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r}: the environment renders {list(RENDER_MODES)} (or None)")
    return render_mode


def render(state: State | None, seat: int | None, render_mode: str | None) -> Any:
    """What ``render()`` returns: the text board, the picture's pixels, or None (no render mode, or no game yet)."""
    if render_mode is None or state is None:
        return None
    if render_mode == "ansi":
        return board_text(state, seat)
    return picture_pixels(state, seat)


def picture_pixels(state: State, seat: int | None, scale: float = 1.0) -> Any:
    """The game's SVG picture of the position from ``seat``'s side, rasterised: a ``(height, width, 3)`` uint8 array.

    vl-convert draws the SVG (its ``svg_to_png``, with fonts of its own) and Pillow reads the PNG back.
    """
    import io

    import numpy as np
    import vl_convert
    from PIL import Image

    png = vl_convert.svg_to_png(state.render_svg(seat), scale=scale)
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)
