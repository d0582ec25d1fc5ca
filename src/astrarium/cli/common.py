"""What every command shares: the consoles, one-line errors, reading numbers typed at a prompt, ``--option`` pairs, fresh seeds.

Everything a command prints about bad input goes through :func:`fail` or
:func:`one_line`: a stranger's text is cut (:func:`astrarium.core.errors.short`),
control characters are shown as escapes rather than sent to the terminal, and
the message is never wrapped onto a second line.
"""

from __future__ import annotations

import os
import re
import secrets
import sys
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console, RenderableType
from rich.markup import escape

from astrarium.core.errors import short
from astrarium.core.game import Game

#: Standard output (positions, tables) and standard error (error lines, warnings).
console = Console(highlight=False)
errors = Console(stderr=True, highlight=False, soft_wrap=True)  # one line an error, for logs and scripts

#: The longest error message printed, in characters.
MAX_MESSAGE_CHARS = 400
#: The largest number read at a prompt, in digits (list positions, move numbers, seats, seeds).
MAX_NUMBER_DIGITS = 18
#: Seeds chosen when none is given are below this (the range the menu offers).
SEED_RANGE = 2**31


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` as one printable line of at most ``limit`` characters (markup not yet escaped)."""
    flat = " ".join(text.split("\n"))
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in flat[: limit * 2])
    return short(shown, limit)


def fail(message: str) -> typer.Exit:
    """Print a one-line error on standard error and return the exit to raise (status 2)."""
    errors.print(f"[red]error:[/] {escape(one_line(message))}")
    return typer.Exit(2)


def warn(message: str) -> None:
    """Print a one-line warning on standard error; the command goes on."""
    errors.print(f"[yellow]warning:[/] {escape(one_line(message))}")


def parse_number(text: str) -> int | None:
    """The whole number ``text`` spells in plain digits 0-9, or None.

    ``str.isdigit`` also accepts characters ``int`` refuses (``²``) and
    ``int`` refuses more than 4,300 digits, so a prompt that trusted either
    would crash on such input; numbers here are ASCII and short.
    """
    text = text.strip()
    if not text or len(text) > MAX_NUMBER_DIGITS or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def can_page(console: Console) -> bool:
    """Whether a pager can take over the screen: the console writes to this process's terminal and the person types at it."""
    return console.file is sys.stdout and sys.stdin.isatty() and sys.stdout.isatty()


def show_long(console: Console, renderable: RenderableType) -> bool:
    """Print ``renderable``, through the pager (``less``, or ``$PAGER``) when it is taller than the terminal.

    A script, a pipe or a test gets the text printed as it is. Colours reach
    the pager only when it shows them (``LESS`` holding ``-R``); otherwise it
    gets the same layout without them rather than raw escape codes. Returns
    whether the pager showed it (and has been closed by the person).
    """
    if can_page(console):
        height = len(console.render_lines(renderable, console.options, pad=False))
        if height > console.height - 2:
            styles = re.search(r"(^|\s)-\w*[rR]", os.environ.get("LESS", "")) is not None
            with console.pager(styles=styles):
                console.print(renderable)
            return True
    console.print(renderable)
    return False


def parse_option_pairs(game: Game, pairs: list[str]) -> dict[str, Any]:
    """``--option name=value`` pairs as the game's option values (OptionError or ValueError naming the option)."""
    raw: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise ValueError(f"--option {short(pair, 60)!r} should look like name=value")
        if name.strip() in raw:
            raise ValueError(f"--option {short(name.strip(), 40)!r} is given twice")
        raw[name.strip()] = value
    return game.parse_options(raw)


def fresh_seed() -> int:
    """A new random seed for a game started without one (so two default games deal differently)."""
    return secrets.randbelow(SEED_RANGE)


@dataclass
class TerminalAsk:
    """Reads a line at a prompt, and remembers when the input ended (the command then exits with status 1)."""

    console: Console
    ended: bool = False

    def __call__(self, prompt: str) -> str:
        try:
            return self.console.input(escape(prompt))
        except EOFError:
            self.ended = True
            raise

    def exit_if_ended(self) -> None:
        """Exit with status 1 when the input ran out before the person finished (a script or a closed pipe)."""
        if self.ended:
            raise typer.Exit(1)
