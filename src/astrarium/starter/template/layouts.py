"""The layouts a game starts from, read from ``layouts.toml`` beside this module.

Each layout names its piles (stars in each, in order) and the most stars one
turn may take. The file is checked against :class:`Layout` when the game is
imported, so a mistake in it is an error naming the file and the layout
(``layouts.toml: layout 'wide' piles: ...``), never a game that breaks later.
"""

from __future__ import annotations

import string
from functools import lru_cache
from typing import Annotated

from pydantic import Field

from astrarium.core.data import DataModel, read_data, validate
from astrarium.core.errors import DataError

#: The most piles a layout may have: one letter each.
MAX_PILES = 8
#: The letters the piles are named by, in order.
PILE_NAMES = string.ascii_lowercase[:MAX_PILES]


class Layout(DataModel):
    """One ``[layouts.NAME]`` table: the stars in each pile and the most one turn may take."""

    piles: Annotated[list[Annotated[int, Field(ge=1, le=30)]], Field(min_length=1, max_length=MAX_PILES)]
    max_take: Annotated[int, Field(ge=1, le=9)]


class LayoutFile(DataModel):
    """The whole file: at least one layout, by name."""

    layouts: Annotated[dict[str, Layout], Field(min_length=1)]


@lru_cache(maxsize=1)
def load_layouts() -> dict[str, Layout]:
    """Every layout of ``layouts.toml``, by name (DataError naming the file and the layout when one is wrong)."""
    label, data = read_data(__package__ or __name__, "layouts.toml")
    layouts = validate(LayoutFile, data, file=label).layouts
    for name in layouts:
        if not name.isidentifier():
            raise DataError(label, f"layout {name!r}", "a layout's name is one word of letters, digits and _")
    return layouts
