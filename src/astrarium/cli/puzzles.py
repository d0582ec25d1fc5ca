"""Solo puzzles at the terminal: the prompt, its commands (hint, help, undo, restart), the list and the puzzle of the day."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import partial
from typing import Any

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from astrarium.cli.common import one_line, parse_number, show_long
from astrarium.cli.suggest import refusal
from astrarium.core.errors import IllegalAction, short
from astrarium.core.game import Game, Puzzle, State
from astrarium.core.records import replay

Ask = Callable[[str], str]

PUZZLE_HELP = (
    "Type a number from the list or an action's notation. Commands: [bold]hint[/] (a next move that still solves it), "
    "[bold]undo[/] (take back a move), [bold]restart[/], [bold]help[/], [bold]quit[/]."
)
#: Positions the hint's search looks at before it gives up (a few seconds at most).
HINT_NODES = 50_000


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def solving_line(game: Game, puzzle: Puzzle, state: State, budget: int, nodes: list[int]) -> list[Any] | None:
    """The shortest actions from ``state`` that solve ``puzzle`` within ``budget`` moves, or None (``nodes``: positions left to look at)."""
    for depth in range(1, budget + 1):
        found = _search(game, puzzle, state, depth, nodes)
        if found is not None or nodes[0] <= 0:
            return found
    return None


def _search(game: Game, puzzle: Puzzle, state: State, depth: int, nodes: list[int]) -> list[Any] | None:
    if depth == 0 or state.is_over or nodes[0] <= 0:
        return None
    for action in state.legal_actions():
        nodes[0] -= 1
        child = state.clone()
        child.apply(action)
        if game.puzzle_solved(puzzle, child):
            return [action]
        rest = _search(game, puzzle, child, depth - 1, nodes)
        if rest is not None:
            return [action, *rest]
    return None


def puzzle_hint(game: Game, puzzle: Puzzle, state: State) -> str:
    """A next move that still solves the puzzle within the moves left, or what to do when none does."""
    left = puzzle.moves - state.move_number
    line = solving_line(game, puzzle, state, left, [HINT_NODES]) if left > 0 else None
    if line:
        return f"Hint: try {line[0]} ({_moves(len(line))} from here solve it)."
    if left > 0 and state.move_number == 0:
        return "Hint: no solution was found in time; look for the colours of the goal on the board."
    return "Hint: no solution is left from here; type undo to take a move back, or restart."


@dataclass
class PuzzleTable:
    """One puzzle at the terminal; ``easier`` is a puzzle offered instead (the prompt's ``easier``)."""

    game: Game
    puzzle: Puzzle
    console: Console
    ask: Ask
    easier: Puzzle | None = None
    state: State = field(init=False)
    start: State = field(init=False)
    switch: Puzzle | None = None
    #: Whether the position changed since it was drawn (a move, undo or restart).
    redraw: bool = True

    def __post_init__(self) -> None:
        self.state = self.game.new_game(1, 0, dict(self.puzzle.options))
        self.start = self.state.clone()

    @property
    def out_of_moves(self) -> bool:
        return self.state.move_number >= self.puzzle.moves or self.state.is_over

    def commands(self) -> dict[str, Callable[[], bool | None]]:
        """The words the prompt answers besides moves: each returns True (solved), False (left) or None (go on)."""
        table: dict[str, Callable[[], bool | None]] = {
            "quit": lambda: False,
            "q": lambda: False,
            "exit": lambda: False,
            "restart": self._restart,
            "undo": self._undo,
            "hint": self._hint,
            "help": self._help,
            "?": self._help,
        }
        if self.easier is not None:
            table["easier"] = self._easier
        return table

    def _restart(self) -> None:
        self.state = self.start.clone()
        self.redraw = True

    def _undo(self) -> None:
        if self.state.move_number:
            self.state = replay(self.state.to_record(), upto=self.state.move_number - 1)
        self.redraw = True

    def _hint(self) -> None:
        """The hint under the prompt (the board stays where it is, above it)."""
        self.console.print(f"[green]{escape(puzzle_hint(self.game, self.puzzle, self.state))}[/]")

    def _help(self) -> None:
        self.console.print(PUZZLE_HELP + (" [bold]easier[/] (this week's easiest puzzle)." if self.easier else ""))
        notation = self.game.notation_help
        if notation:
            self.console.print(f"Notation: {escape(notation)}")

    def _easier(self) -> bool | None:
        self.switch = self.easier
        return False

    def _move(self, line: str) -> bool | None:
        """Play a move typed as a number or a notation (ValueError says what was wrong; nothing changes)."""
        if self.out_of_moves:
            raise ValueError("No moves left: restart, undo or quit.")
        legal = self.state.legal_actions()
        if line.isdigit():  # any digits, so that '²' or 5,000 digits get this message, not int()'s
            index = parse_number(line)
            if index is None or not 1 <= index <= len(legal):
                raise ValueError(f"{short(line, 20)} is not in the list: choose 1 to {len(legal)}")
            self.state.apply(legal[index - 1])
            self.redraw = True
            return None
        try:
            self.state.apply(line)
        except IllegalAction as exc:
            words = [*self.commands(), *(str(a) for a in legal)]
            raise IllegalAction(refusal(str(exc), line, words)) from None
        self.redraw = True
        return None

    def show(self) -> str:
        """The board, the choices and the news; returns the choices (markup)."""
        width, height = self.console.size
        legal = self.state.legal_actions()
        choices = "  ".join(f"[cyan]{i + 1}[/] {escape(str(a))}" for i, a in enumerate(legal))
        # Under the board: the choices (as many lines as they wrap to), a line of news and the prompt.
        wrapped = (Text.from_markup(choices).cell_len + width - 1) // max(width, 1)
        self.console.print(self.state.render_fit(0, width=width, height=height - 2 - wrapped))
        return choices

    def run(self) -> bool:
        self.console.rule(f"Puzzle {self.puzzle.number}: {escape(self.puzzle.name)}")
        for line in self.puzzle.header():
            self.console.print(escape(line))
        commands = self.commands()
        while True:
            if self.redraw:
                self.redraw = False
                choices = self.show()
                if self.game.puzzle_solved(self.puzzle, self.state):
                    self.console.print(f"[bold green]Solved in {_moves(self.state.move_number)}![/]")
                    return True
                if self.out_of_moves:
                    self.console.print("[yellow]Out of moves. Type restart to try again, undo to take one back, or quit.[/]")
                else:
                    self.console.print(choices)
            try:
                line = self.ask(f"move {self.state.move_number + 1}/{self.puzzle.moves} (help, hint)> ").strip()
            except (EOFError, KeyboardInterrupt):
                return False
            command = commands.get(line.lower(), partial(self._move, line))
            try:
                done = command()
            except ValueError as exc:  # IllegalAction and the list's own error
                self.console.print(f"[red]{escape(one_line(str(exc)))}[/]", soft_wrap=True)
                continue
            if done is not None:
                return done


def play_puzzle(game: Game, puzzle: Puzzle, console: Console, ask: Ask, easier: Puzzle | None = None) -> bool:
    """Play one puzzle; True when the player solved it (``easier``: offered with the prompt's ``easier``)."""
    table = PuzzleTable(game, puzzle, console, ask, easier)
    solved = table.run()
    if table.switch is not None:
        return play_puzzle(game, table.switch, console, ask)
    return solved


def week_easiest(game: Game, day: date) -> Puzzle:
    """The easiest of the puzzles of the days of ``day``'s week (the game lists its puzzles easiest first)."""
    order = {p.number: i for i, p in enumerate(game.puzzles())}
    monday = day - timedelta(days=day.weekday())
    week = [game.puzzle_of_the_day(monday + timedelta(days=d)) for d in range(7)]
    return min(week, key=lambda p: order.get(p.number, 0))


def today_note(game: Game, today: Puzzle, day: date) -> tuple[str, Puzzle | None]:
    """What today's puzzle is (its number, name and level) and, when the week has an easier one, how to get it."""
    level = f", difficulty {today.difficulty}" if today.difficulty else ""
    note = f"Today's puzzle ({day:%A}): {today.number} {today.name}{level}."
    easiest = week_easiest(game, day)
    order = [p.number for p in game.puzzles()]
    if order.index(easiest.number) >= order.index(today.number):
        return note, None
    shown = f", {easiest.difficulty}" if easiest.difficulty else ""
    note += (
        f" New to the puzzles? This week's easiest is {easiest.number} {easiest.name}{shown}: type easier at the prompt, "
        f"or run: astrarium puzzle {game.id} {easiest.number}"
    )
    return note, easiest


def show_puzzle_list(console: Console, game: Game) -> None:
    """The puzzles, one line each (the goal is shown when a puzzle is played), paged when longer than the screen."""
    puzzles = game.puzzles()
    packed = any(p.extra.get("pack") for p in puzzles)
    table = Table(title=f"{game.title}: {len(puzzles)} puzzles, easiest first", pad_edge=False, box=None)
    for col in ("#", "name", *(["pack"] if packed else []), "difficulty", "moves"):
        table.add_column(col, no_wrap=True, overflow="ellipsis")
    for p in puzzles:
        pack = [escape(str(p.extra.get("pack") or ""))] if packed else []
        table.add_row(str(p.number), escape(p.name), *pack, escape(p.difficulty), str(p.moves))
    closing = Text(f"Play one with: astrarium puzzle {game.id} N, or today's with: astrarium puzzle {game.id} today")
    show_long(console, Group(table, closing))
