"""The astrarium core: the game API, the registry, seeded randomness, records, errors."""

from astrarium.core.errors import (
    AstrariumError,
    DataError,
    IllegalAction,
    OptionError,
    RecordError,
    UnknownGame,
)
from astrarium.core.game import RECORD_FORMAT, RECORD_VERSION, Action, Game, Puzzle, State
from astrarium.core.options import Option, resolve_options
from astrarium.core.outcome import Outcome
from astrarium.core.records import load_record, replay, save_record
from astrarium.core.registry import get_game, list_games, register
from astrarium.core.rng import Rng

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "Action",
    "AstrariumError",
    "DataError",
    "Game",
    "IllegalAction",
    "Option",
    "OptionError",
    "Outcome",
    "Puzzle",
    "RecordError",
    "Rng",
    "State",
    "UnknownGame",
    "get_game",
    "list_games",
    "load_record",
    "register",
    "replay",
    "resolve_options",
    "save_record",
]
