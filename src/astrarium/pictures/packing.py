"""Small replays: a game's pictures stored once as pieces, each picture as its difference from the one before.

A picture (SVG text) is cut after every ``>`` into pieces; every distinct
piece is kept once in a table, and each picture becomes a list of table
indices. The first picture's list is stored whole; every later one as the
operations that turn the previous list into it: an integer is a table index
to append, a pair ``[start, length]`` copies that run of the previous list.
Successive positions differ in a few pieces, so a move costs a few numbers.

The page then holds this (with the moves in words) as JSON compressed with
gzip and written in base64, and unpacks it with the browser's
``DecompressionStream`` (``static/replay.js``): no network, one file.
:func:`unpack_pictures` is the same decoding in Python, for tests.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Sequence
from typing import Any

#: What a picture is cut after.
CUT = ">"

#: One operation of a picture's difference: a table index, or ``[start, length]`` of the previous picture.
Op = int | list[int]


class PieceTable:
    """Distinct pieces in the order first seen, each with its index."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self._index: dict[str, int] = {}

    def indices(self, picture: str) -> list[int]:
        """The picture as table indices (new pieces added to the table)."""
        return [self._add(piece) for piece in picture.split(CUT)]

    def _add(self, piece: str) -> int:
        found = self._index.get(piece)
        if found is None:
            found = self._index[piece] = len(self.pieces)
            self.pieces.append(piece)
        return found


#: How many places of a piece in the previous picture are tried as the start of a copied run.
TRIES = 16


def _positions(items: Sequence[int]) -> dict[int, list[int]]:
    """Where each index occurs in a picture's list, first places first."""
    found: dict[int, list[int]] = {}
    for place, item in enumerate(items):
        found.setdefault(item, []).append(place)
    return found


def _longest_run(before: Sequence[int], after: Sequence[int], at: int, starts: Sequence[int]) -> tuple[int, int]:
    """Of runs of ``before`` beginning at one of ``starts``, the longest that ``after`` repeats from ``at``: (start, length)."""
    best, best_length = -1, 0
    for start in starts[:TRIES]:
        length = 0
        while at + length < len(after) and start + length < len(before) and before[start + length] == after[at + length]:
            length += 1
        if length > best_length:
            best, best_length = start, length
    return best, best_length


def diff_indices(before: Sequence[int], after: Sequence[int]) -> list[Op]:
    """The operations that build ``after`` from ``before``: greedily the longest copied runs, else new indices."""
    places = _positions(before)
    ops: list[Op] = []
    at = 0
    while at < len(after):
        start, length = _longest_run(before, after, at, places.get(after[at], ()))
        if length >= 2:
            ops.append([start, length])
            at += length
        else:
            ops.append(after[at])
            at += 1
    return ops


def apply_ops(before: Sequence[int], ops: Sequence[Op]) -> list[int]:
    """The list the operations build from ``before`` (the page's decoding, in Python)."""
    after: list[int] = []
    for op in ops:
        if isinstance(op, int):
            after.append(op)
        else:
            after.extend(before[op[0] : op[0] + op[1]])
    return after


def pack_pictures(pictures: Sequence[str]) -> dict[str, Any]:
    """The pictures as ``{"pieces": [...], "frames": [ops, ...]}``: the first whole, then differences."""
    table = PieceTable()
    frames: list[list[Op]] = []
    previous: list[int] = []
    for picture in pictures:
        current = table.indices(picture)
        frames.append(diff_indices(previous, current))
        previous = current
    return {"pieces": table.pieces, "frames": frames}


def unpack_pictures(packed: dict[str, Any]) -> list[str]:
    """The pictures back from :func:`pack_pictures`."""
    pieces = packed["pieces"]
    pictures: list[str] = []
    previous: list[int] = []
    for ops in packed["frames"]:
        previous = apply_ops(previous, ops)
        pictures.append(CUT.join(pieces[i] for i in previous))
    return pictures


def gzip_base64(data: Any) -> str:
    """``data`` as compact JSON, gzip-compressed (no time stamp, so the same data gives the same text), in base64."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.b64encode(gzip.compress(text, compresslevel=9, mtime=0)).decode("ascii")


def ungzip_base64(text: str) -> Any:
    """The data back from :func:`gzip_base64`."""
    return json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))
