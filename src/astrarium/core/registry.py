"""The game registry: every game registers itself once, by id."""

from __future__ import annotations

import importlib
import pkgutil

from astrarium.core.errors import UnknownGame, short
from astrarium.core.game import Game

_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game | type[Game]) -> Game:
    """Register a game (an instance, or a class that is instantiated). Returns the instance.

    Usable as a class decorator; registering the same id twice with a different
    class is an error.
    """
    instance = game() if isinstance(game, type) else game
    existing = _GAMES.get(instance.id)
    if existing is not None and type(existing) is not type(instance):
        raise ValueError(f"game id {instance.id!r} is already registered by {type(existing).__name__}")
    _GAMES[instance.id] = instance
    return instance


def unregister(game_id: str) -> None:
    _GAMES.pop(game_id, None)


def _discover() -> None:
    """Import every sub-package of ``astrarium.games``; each registers its game on import."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    import astrarium.games as games_pkg

    for module in pkgutil.iter_modules(games_pkg.__path__):
        if module.ispkg:
            importlib.import_module(f"{games_pkg.__name__}.{module.name}")


def list_games() -> list[str]:
    """The ids of the registered games, in a stable order."""
    _discover()
    return sorted(_GAMES)


def get_game(game_id: str) -> Game:
    """The game registered as ``game_id`` (raises UnknownGame naming the known ids)."""
    _discover()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none yet"
        raise UnknownGame(f"no game called {short(str(game_id), 40)!r}; known games: {known}") from None
