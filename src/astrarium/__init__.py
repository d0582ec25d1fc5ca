"""astrarium: play, test and balance tabletop space games.

>>> import astrarium
>>> astrarium.list_games()  # doctest: +SKIP
['celestials', 'connected-worlds', 'constellations', 'orbital-combat', 'streamlines']
"""

from astrarium.core import (
    DataError,
    Game,
    IllegalAction,
    Option,
    OptionError,
    Outcome,
    RecordError,
    State,
    UnknownGame,
    get_game,
    list_games,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "DataError",
    "Game",
    "IllegalAction",
    "Option",
    "OptionError",
    "Outcome",
    "RecordError",
    "State",
    "UnknownGame",
    "__version__",
    "get_game",
    "list_games",
    "replay",
]
