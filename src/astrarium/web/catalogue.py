"""The games a browser may start, and the options it may set.

Some options name a file (a designer's deck, map or scenario; ``Option.names_file``). From the command
line that file is the designer's own; from a browser it would be a file on the
*server's* disk, read by the server for a stranger. Those options are never
offered and never accepted from the web: a browser gets only the shipped
decks and maps, and inline text where an option takes text. Text that a game
would take for a file name (``core.data.names_file``, the games' own rule) is
refused too, and the hub builds every game from a browser's options inside
``core.data.no_file_reads``, so no option can make the server open a file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from astrarium.core import Game, OptionError, get_game, list_games
from astrarium.core.data import names_file
from astrarium.core.errors import short


def file_options(game: Game) -> frozenset[str]:
    """The names of ``game``'s options that name a file on disk (``Option.names_file``): never set from a browser."""
    return frozenset(o.name for o in game.options if o.names_file)


def web_options(game: Game) -> list[Any]:
    """The options a browser may set for ``game``: all but those that name files."""
    return [o for o in game.options if not o.names_file]


def check_web_options(game: Game, options: Mapping[str, Any]) -> None:
    """Refuse file-naming options from a browser, before the game sees them (OptionError naming the option)."""
    banned = file_options(game)
    for name, value in options.items():
        if name in banned:
            raise OptionError(short(str(name), 40), "names a file on the server; files cannot be chosen from a browser")
        if isinstance(value, str) and names_file(value):
            raise OptionError(short(str(name), 40), "looks like a file path; files cannot be chosen from a browser (give the text itself)")


def has_picture(game: Game) -> bool:
    """Whether the game draws its positions (it declares a picture, ``parts.picture``)."""
    return game.parts.picture is not None


def _json_value(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def describe_game(game: Game) -> dict[str, Any]:
    """What the lobby shows of a game: its title, player counts, secrets in words, and options with their descriptions."""
    options = []
    for o in web_options(game):
        options.append(
            {
                "name": o.name,
                "kind": o.kind.__name__,
                "default": _json_value(o.default),
                "help": o.help,
                "description": o.describe(),
                "choices": None if o.choices is None else _json_value(list(o.choices)),
                "minimum": o.minimum,
                "maximum": o.maximum,
                "nullable": o.nullable,
            }
        )
    return {
        "id": game.id,
        "title": game.title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "hidden": list(game.hidden),
        "cooperative": game.cooperative,
        "notation_help": game.notation_help,
        "options": options,
    }


def catalogue() -> list[dict[str, Any]]:
    """Every registered game, described for the lobby."""
    return [describe_game(get_game(game_id)) for game_id in list_games()]
