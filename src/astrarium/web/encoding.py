"""Encodings shared by every table: action notations, click tokens, picture pieces as JSON, a position's choices.

A busy table asks for the same texts on every move: the notations of legal
actions (mostly the same as in the position before), the click tokens of each,
the JSON of the picture's pieces (mostly the same string objects from one
picture to the next) and the JSON of a list of choices. Each is made once and
looked up after that. The caches hold only what their keys determine (an
action, a piece of text, a game's list of choices), so nothing passes from one
game to another.
"""

from __future__ import annotations

import functools
from json.encoder import encode_basestring_ascii
from typing import Any

from astrarium.core import Game
from astrarium.web.protocol import dumps


@functools.lru_cache(maxsize=1 << 16)
def _tokens(game: Game, notation: str) -> list[str]:
    """The picture's tokens of an action (the same for every position; a busy table asks for them on every move)."""
    return list(game.action_tokens(notation))


#: Notations of legal actions already written, by (type, action): frozen dataclasses that compare field by field, so an
#: equal action of the same type has the same notation. Only the game's own legal actions are looked up here.
_NOTATIONS: dict[tuple[type, Any], str] = {}
#: Picture pieces already encoded as JSON string content (without quotes), by piece.
_ESCAPED: dict[str, str] = {}
#: How many of each are kept before they are forgotten all at once (a server plays on with a cold cache for a moment).
MAX_NOTATIONS = 200_000
MAX_ESCAPED = 20_000
#: The ``legal`` and ``tokens`` members already encoded, by (game, drawn, notations).
_CHOICES: dict[tuple[str, bool, tuple[str, ...]], str] = {}
MAX_CHOICES = 2_048


def notations_of(actions: list[Any]) -> list[str]:
    """``[str(a) for a in actions]``, each notation written once for all positions and tables.

    Writing a notation checks the action's fields first; a position of Orbital
    Combat has some 70 legal allocations, most of them the same as in the
    position before.
    """
    known = _NOTATIONS
    notations = []
    for action in actions:
        key = (type(action), action)
        try:
            text = known.get(key)
        except TypeError:  # an action that cannot be hashed is simply written each time
            notations.append(str(action))
            continue
        if text is None:
            if len(known) >= MAX_NOTATIONS:
                known.clear()
            text = known[key] = str(action)
        notations.append(text)
    return notations


def picture_json(parts: list[str], pieces: bool) -> str:
    """The JSON string (quoted, ASCII) of ``"".join(parts)``, exactly as ``json.dumps`` writes it.

    JSON escapes character by character, so the encoding of a joined text is
    the join of its pieces' encodings. The pieces of a picture are mostly the
    same string objects from one picture to the next (the board, the legend,
    ship rows: the game's drawing caches), so each is encoded once and looked up
    after that (a string keeps its hash). ``pieces=False``: one whole picture,
    encoded and not kept.
    """
    if not pieces:
        return encode_basestring_ascii("".join(parts))
    known = _ESCAPED
    out = ['"']
    for part in parts:
        text = known.get(part)
        if text is None:
            if len(known) >= MAX_ESCAPED:
                known.clear()
            text = known[part] = encode_basestring_ascii(part)[1:-1]
        out.append(text)
    out.append('"')
    return "".join(out)


def tokens_of(game: Game, picture: bool, legal: list[str]) -> dict[str, list[str]]:
    """Each legal notation's click tokens (its words, for a game without a picture)."""
    return {n: (_tokens(game, n) if picture else n.split()) for n in legal}


def choices_json(game: Game, picture: bool, legal: list[str]) -> str:
    """The ``legal`` and ``tokens`` members of a position as JSON, encoded once for every position with the same choices.

    The allocations of Orbital Combat depend on a few facts about the ship to move
    (mass, facing, ring), so most positions offer a list of choices seen before.
    """
    if not legal:
        return '"legal":[],"tokens":{}'
    key = (game.id, picture, tuple(legal))
    found = _CHOICES.get(key)
    if found is None:
        if len(_CHOICES) >= MAX_CHOICES:
            _CHOICES.clear()
        found = _CHOICES[key] = dumps({"legal": legal, "tokens": tokens_of(game, picture, legal)})[1:-1]
    return found
