"""The game registry: every game registers once, by id, and its declared parts are checked then.

Games are found through the entry points of the group ``astrarium.games``
(:data:`ENTRY_POINT_GROUP`): astrarium's own five are declared in its
``pyproject.toml`` (``constellations = "astrarium.games.constellations:ConstellationsGame"``),
and a designer's package declares its game the same way. Each entry point
names a :class:`Game` subclass (or instance) whose ``id`` is the entry point's
name; :func:`register` checks its parts (``core.contract``).
"""

from __future__ import annotations

import importlib.metadata
from importlib.metadata import EntryPoint

from astrarium.core.contract import check_contract
from astrarium.core.errors import ContractError, UnknownGame, short
from astrarium.core.game import Game

#: The entry-point group a package declares its games in.
ENTRY_POINT_GROUP = "astrarium.games"

_GAMES: dict[str, Game] = {}
#: Entry points that could not be loaded or registered, by name, with the reason.
_BROKEN: dict[str, ContractError] = {}
_discovered = False


def register(game: Game | type[Game]) -> Game:
    """Register a game (an instance, or a class that is instantiated). Returns the instance.

    Usable as a class decorator. The game's parts are checked first: a missing
    or misnamed part, a hook of the wrong shape, levels without easy, medium
    and hard, ... raise :class:`ContractError` naming the game and the part.
    Registering the same id twice with a different class is an error.
    """
    instance = game() if isinstance(game, type) else game
    check_contract(instance)
    existing = _GAMES.get(instance.id)
    if existing is not None and type(existing) is not type(instance):
        raise ValueError(f"game id {instance.id!r} is already registered by {type(existing).__name__}")
    _GAMES[instance.id] = instance
    return instance


def unregister(game_id: str) -> None:
    _GAMES.pop(game_id, None)


def _load(point: EntryPoint) -> None:
    """Register the game an entry point names (ContractError naming the entry point when it cannot)."""
    where = f"entry point {point.name} = {point.value} ({ENTRY_POINT_GROUP})"
    try:
        loaded = point.load()
    except Exception as exc:  # a designer's package may fail in any way on import; its entry point is named
        raise ContractError(point.name, where, f"cannot be loaded: {type(exc).__name__}: {short(str(exc))}") from exc
    if not (isinstance(loaded, Game) or isinstance(loaded, type) and issubclass(loaded, Game)):
        raise ContractError(point.name, where, f"names {type(loaded).__name__} {short(repr(loaded), 60)}, not a Game")
    if loaded.id != point.name:
        raise ContractError(point.name, where, f"names the game {short(str(loaded.id), 40)!r}; the entry point's name must be its id")
    register(loaded)


def _discover() -> None:
    """Register the game of every entry point of :data:`ENTRY_POINT_GROUP`; remember those that fail."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if point.name not in _GAMES and point.name not in _BROKEN:  # one loaded alone already (get_game) stays as it is
            _load_into(point)


def _load_into(point: EntryPoint) -> None:
    """Register the game of one entry point, or remember why it cannot be."""
    try:
        _load(point)
    except ContractError as exc:
        _BROKEN[point.name] = exc


def discovery_errors() -> list[ContractError]:
    """Why each installed entry point that names no usable game was refused (``astrarium games`` shows them)."""
    _discover()
    return [_BROKEN[name] for name in sorted(_BROKEN)]


def list_games() -> list[str]:
    """The ids of the registered games, in a stable order."""
    _discover()
    return sorted(_GAMES)


def get_game(game_id: str) -> Game:
    """The game registered as ``game_id`` (UnknownGame naming the known ids; ContractError when its entry point is broken).

    A game not yet registered is loaded from its own entry point alone, so a
    command (or a worker process) that plays one game imports only that one.
    """
    if game_id in _GAMES:
        return _GAMES[game_id]
    if not _discovered and isinstance(game_id, str):
        for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name=game_id):
            if point.name not in _BROKEN:
                _load_into(point)
        if game_id in _GAMES:
            return _GAMES[game_id]
    _discover()
    try:
        return _GAMES[game_id]
    except KeyError:
        if game_id in _BROKEN:
            raise _BROKEN[game_id] from None
        known = ", ".join(sorted(_GAMES)) or "none yet"
        raise UnknownGame(f"no game called {short(str(game_id), 40)!r}; known games: {known}") from None
