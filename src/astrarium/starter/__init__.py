"""``astrarium new-game``: a designer's own game, written out as a package of its own that installs beside astrarium.

The starter is a small complete game kept here as an importable, checked
package (:mod:`astrarium.starter.template`: Starter Game, piles of stars) and
the files of a project around it (``project/``: ``pyproject.toml``, a README
and its tests). :func:`write_starter` copies both under a new name: in the
game's files the template's package, id, title and class name are replaced by
the new ones; the project's ``*.in`` files are filled with
:class:`string.Template`. The project declares its game as an entry point of
the group ``astrarium.games``, so ``pip install -e DIR`` makes it one of the
games every front end offers.
"""

from __future__ import annotations

import keyword
import re
import sys
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from string import Template

import astrarium
from astrarium.core.errors import AstrariumError, short

#: A game's id: lower-case words of letters and digits joined by hyphens, starting with a letter.
GAME_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: The longest id accepted.
MAX_ID_CHARS = 40
#: The template's names, replaced in every file of the game by the new game's.
TEMPLATE_PACKAGE, TEMPLATE_ID, TEMPLATE_TITLE, TEMPLATE_CLASS = "astrarium.starter.template", "starter-game", "Starter Game", "StarterGame"


class StarterError(AstrariumError):
    """A starter cannot be written: a bad name or an unusable folder (the message says which)."""


@dataclass(frozen=True, slots=True)
class Names:
    """How the new game is named: its id (``comet-race``), package (``comet_race``), title and class name."""

    game_id: str
    package: str
    title: str
    class_name: str

    @classmethod
    def of(cls, game_id: str) -> Names:
        """The names of the game ``game_id``, or StarterError saying why it cannot be a game's id."""
        shown = short(repr(game_id), 60)
        if len(game_id) > MAX_ID_CHARS or not GAME_ID.fullmatch(game_id):
            raise StarterError(f"{shown} is not a game id: use lower-case letters and digits, words joined by hyphens (comet-race)")
        package = game_id.replace("-", "_")
        if keyword.iskeyword(package) or package in sys.stdlib_module_names or package.split("_")[0] == "astrarium":
            raise StarterError(f"{shown} would name its package {package!r}, which Python or astrarium already uses: choose another")
        words = game_id.split("-")
        return cls(game_id, package, " ".join(w.capitalize() for w in words), "".join(w.capitalize() for w in words) + "Game")


def _game_text(text: str, names: Names) -> str:
    """A file of the template game, renamed."""
    for old, new in (
        (TEMPLATE_PACKAGE, names.package),
        (TEMPLATE_CLASS, names.class_name),
        (TEMPLATE_TITLE, names.title),
        (TEMPLATE_ID, names.game_id),
    ):
        text = text.replace(old, new)
    return text


def _files(root: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    """Every file under ``root`` (cached bytecode left out), as (relative path, file), sorted."""
    found: list[tuple[str, Traversable]] = []
    for item in root.iterdir():
        if item.name == "__pycache__" or item.name.endswith(".pyc"):
            continue
        path = f"{prefix}{item.name}"
        found += _files(item, path + "/") if item.is_dir() else [(path, item)]
    return sorted(found, key=lambda pair: pair[0])


def check_folder(out: Path) -> None:
    """Refuse a folder that exists and is not empty, or a path that is a file (StarterError)."""
    shown = short(str(out), 200)
    if out.exists() and not out.is_dir():
        raise StarterError(f"{shown} exists and is not a folder: name a new folder")
    if out.is_dir() and any(out.iterdir()):
        raise StarterError(f"{shown} is not empty: name a new folder (nothing was written)")


def write_starter(game_id: str, out: str | Path) -> list[Path]:
    """Write the starter game ``game_id`` as a project in the folder ``out`` (new or empty); returns the files written.

    Raises StarterError before writing anything when the id is not a valid
    game id, names a game already installed, or ``out`` is a non-empty folder.
    """
    names = Names.of(game_id)
    if game_id in astrarium.list_games():
        raise StarterError(f"a game called {game_id!r} is already installed: choose another id")
    target = Path(out)
    check_folder(target)
    here = resources.files(__name__)
    fill = {
        "game_id": names.game_id,
        "package": names.package,
        "title": names.title,
        "class_name": names.class_name,
        "astrarium_version": astrarium.__version__,
    }
    planned: list[tuple[Path, str]] = []
    for relative, item in _files(here.joinpath("project")):
        text = item.read_text(encoding="utf-8")
        if relative.endswith(".in"):
            planned.append((target / relative.removesuffix(".in"), Template(text).substitute(fill)))
        else:
            planned.append((target / relative, _game_text(text, names)))
    for relative, item in _files(here.joinpath("template")):
        planned.append((target / "src" / names.package / relative, _game_text(item.read_text(encoding="utf-8"), names)))
    try:
        for path, text in planned:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise StarterError(f"cannot write {short(str(target), 200)}: {exc.strerror or exc}") from None
    return [path for path, _ in planned]
