"""Terminal play: hot-seat humans and computer players around one state.

The loop is written against an ``ask`` function and a Rich console so tests
drive it with scripted input. Nothing a person types can raise a traceback:
bad input gets one line saying what was wrong, and the prompt again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from astrarium.agents import Agent, make_agent
from astrarium.core.errors import AstrariumError
from astrarium.core.game import Game, Puzzle, State
from astrarium.core.records import load_record, replay, save_record

Ask = Callable[[str], str]
HUMAN = "human"
SHOWN_ACTIONS = 40

HELP = (
    "Type a number from the list or an action's notation. Commands: "
    "[bold]list[/] (all legal actions), [bold]undo[/] (take back your last action), "
    "[bold]save FILE[/], [bold]load FILE[/], [bold]rules[/], [bold]help[/], [bold]quit[/]."
)


class QuitGame(Exception):
    """The person asked to leave the game."""


def parse_seats(specs: list[str], players: int) -> dict[int, str]:
    """``["0=human", "1=random"]`` -> ``{0: "human", 1: "random"}``; unnamed seats: seat 0 human, others random."""
    seats: dict[int, str] = {}
    for spec in specs:
        seat_text, eq, who = spec.partition("=")
        if not eq or not who.strip():
            raise ValueError(f"--seat {spec!r} should look like 0=human or 1=random")
        try:
            seat = int(seat_text)
        except ValueError:
            raise ValueError(f"--seat {spec!r}: {seat_text!r} is not a seat number") from None
        if not 0 <= seat < players:
            raise ValueError(f"--seat {spec!r}: seats are numbered 0 to {players - 1}")
        seats[seat] = who.strip()
    for seat in range(players):
        seats.setdefault(seat, HUMAN if seat == 0 else "random")
    return seats


def build_agents(seats: dict[int, str], seed: int) -> dict[int, Agent]:
    """Computer players for the seats that are not human (raises ValueError on a bad spec)."""
    return {seat: make_agent(spec, seed=seed * 1000 + seat) for seat, spec in seats.items() if spec != HUMAN}


@dataclass
class PlayLoop:
    """One game at the terminal."""

    state: State
    seats: dict[int, str]
    console: Console
    ask: Ask
    agents: dict[int, Agent] = field(default_factory=dict)
    movers: list[int] = field(default_factory=list)
    _last_human: int | None = None

    def __post_init__(self) -> None:
        if not self.agents:
            self.agents = build_agents(self.seats, self.state.seed)
        if not self.movers and self.state.move_number:
            self.movers = _movers_of(self.state)

    @property
    def humans(self) -> list[int]:
        return [seat for seat, who in self.seats.items() if who == HUMAN]

    def run(self) -> State:
        try:
            while not self.state.is_over:
                seat = self.state.current_player
                if seat is None:
                    break
                if seat in self.agents:
                    self._bot_turn(seat)
                else:
                    self._human_turn(seat)
        except QuitGame:
            self.console.print(f"Left the game at move {self.state.move_number}.")
            return self.state
        self._show_end()
        return self.state

    # -- turns ---------------------------------------------------------------
    def _bot_turn(self, seat: int) -> None:
        agent = self.agents[seat]
        action = agent.choose(self.state)
        self.state.apply(action)
        self.movers.append(seat)
        self.console.print(f"[dim]Seat {seat} ({escape(self.seats[seat])}) plays[/] [bold]{escape(str(action))}[/]")

    def _human_turn(self, seat: int) -> None:
        game = self.state.game
        if game.hidden_information and len(self.humans) > 1 and self._last_human not in (None, seat):
            self.console.clear()
            self._ask(f"Pass the terminal to seat {seat}, then press Enter ")
        self._last_human = seat
        self.console.rule(f"{escape(game.title)}: move {self.state.move_number + 1}, seat {seat}")
        self.console.print(self.state.render(seat))
        legal = self.state.legal_actions()
        self._show_actions(legal, limit=SHOWN_ACTIONS)
        while True:
            line = self._ask(f"seat {seat}> ").strip()
            if not line:
                continue
            try:
                if self._command(line, seat):
                    return
            except AstrariumError as exc:
                self.console.print(f"[red]{escape(str(exc))}[/]")
            except (ValueError, OSError) as exc:
                self.console.print(f"[red]{escape(str(exc))}[/]")

    def _command(self, line: str, seat: int) -> bool:
        """Handle one line; True when the turn is over (an action was played, or the position changed)."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in ("quit", "exit", "q"):
            raise QuitGame
        if word in ("help", "?"):
            self.console.print(HELP)
            notation = self.state.game.notation_help
            if notation:
                self.console.print(f"Notation: {escape(notation)}")
            return False
        if word in ("list", "moves", "actions"):
            self._show_actions(self.state.legal_actions(), limit=None)
            return False
        if word == "rules":
            self.console.print(escape(self.state.game.rules_text()))
            return False
        if word == "save":
            if not rest:
                raise ValueError("save needs a file name, e.g. save game.json")
            path = save_record(self.state, rest, seats={str(s): w for s, w in self.seats.items()})
            self.console.print(f"Saved to {escape(str(path))}.")
            return False
        if word == "load":
            if not rest:
                raise ValueError("load needs a file name, e.g. load game.json")
            self._load(rest)
            return True
        if word == "undo":
            self._undo()
            return True
        legal = self.state.legal_actions()
        if line.isdigit():
            index = int(line)
            if not 1 <= index <= len(legal):
                raise ValueError(f"{index} is not in the list: choose 1 to {len(legal)}")
            action: Any = legal[index - 1]
        else:
            action = line
        self.state.apply(action)
        self.movers.append(seat)
        return True

    def _undo(self) -> None:
        humans = set(self.humans)
        last = max((i for i, seat in enumerate(self.movers) if seat in humans), default=None)
        if last is None:
            raise ValueError("there is no human action to take back")
        record = self.state.to_record()
        self.state = replay(record, upto=last)
        self.movers = self.movers[:last]
        self.console.print(f"Took back to move {last}.")

    def _load(self, path: str) -> None:
        record = load_record(path)
        state = replay(record)
        if state.game.id != self.state.game.id or state.players != self.state.players:
            raise ValueError(
                f"{path} is a {state.players}-player {state.game.id} game; this is a {self.state.players}-player {self.state.game.id} game"
            )
        self.state = state
        self.movers = _movers_of(state)
        self.console.print(f"Loaded {escape(path)} at move {state.move_number}.")

    # -- output ------------------------------------------------------------------
    def _show_actions(self, legal: list[Any], limit: int | None) -> None:
        shown = legal if limit is None else legal[:limit]
        table = Table.grid(padding=(0, 2))
        columns = 3 if len(shown) > 12 else 1
        for _ in range(columns):
            table.add_column(justify="right", style="cyan")
            table.add_column()
        rows = (len(shown) + columns - 1) // columns
        for r in range(rows):
            cells: list[str] = []
            for c in range(columns):
                i = c * rows + r
                if i < len(shown):
                    cells += [str(i + 1), escape(str(shown[i]))]
                else:
                    cells += ["", ""]
            table.add_row(*cells)
        self.console.print(table)
        if limit is not None and len(legal) > limit:
            self.console.print(f"[dim]... and {len(legal) - limit} more: type 'list' to see all, or type a notation.[/]")

    def _show_end(self) -> None:
        state = self.state
        self.console.rule("Game over")
        self.console.print(state.render(None))
        outcome = state.outcome
        if outcome is not None:
            self.console.print(f"[bold]{escape(outcome.reason)}[/]")
            returns = state.returns()
            for seat in range(state.players):
                self.console.print(f"  seat {seat} ({escape(self.seats.get(seat, '?'))}): {returns[seat]:+g}")

    def _ask(self, prompt: str) -> str:
        try:
            return self.ask(prompt)
        except (EOFError, KeyboardInterrupt):
            raise QuitGame from None


def _movers_of(state: State) -> list[int]:
    """Which seat played each action of ``state`` (found by replaying its record)."""
    record = state.to_record()
    probe = replay(record, upto=0)
    movers: list[int] = []
    for notation in record["actions"]:
        seat = probe.current_player
        movers.append(-1 if seat is None else seat)
        probe.apply(notation)
    return movers


def step_through(state_record: dict, console: Console, ask: Ask, start: int = 0) -> None:
    """Show a record position by position: Enter for the next, b for back, a number to jump, q to quit."""
    total = len(state_record["actions"])
    index = max(0, min(start, total))
    while True:
        state = replay(state_record, upto=index)
        console.rule(f"{escape(state.game.title)}: position after move {index} of {total}")
        console.print(state.render(None))
        if index < total:
            console.print(f"next: [bold]{escape(state_record['actions'][index])}[/]")
        elif state.outcome is not None:
            console.print(f"[bold]{escape(state.outcome.reason)}[/]")
        try:
            line = ask("[Enter] next, b back, number jump, q quit> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return
        if line in ("q", "quit", "exit"):
            return
        if line in ("b", "back"):
            index = max(0, index - 1)
        elif line.isdigit():
            index = min(int(line), total)
        elif line == "":
            if index == total:
                return
            index += 1
        else:
            console.print("[red]Enter, b, a move number or q.[/]")


def play_puzzle(game: Game, puzzle: Puzzle, console: Console, ask: Ask) -> bool:
    """Play one puzzle; True when the player solved it."""
    state = game.new_game(1, 0, dict(puzzle.options))
    start = state.clone()
    console.rule(f"Puzzle {puzzle.number}: {escape(puzzle.name)}")
    console.print(f"Goal: {escape(puzzle.goal)}  (moves allowed: {puzzle.moves}; shortest known: {puzzle.shortest})")
    while True:
        console.print(state.render(0))
        if game.puzzle_solved(puzzle, state):
            console.print(f"[bold green]Solved in {state.move_number} moves![/]")
            return True
        if state.move_number >= puzzle.moves or state.is_over:
            console.print("[yellow]Out of moves. Type restart to try again, undo to take one back, or quit.[/]")
        legal = state.legal_actions()
        if state.move_number < puzzle.moves and not state.is_over:
            console.print("  ".join(f"[cyan]{i + 1}[/] {escape(str(a))}" for i, a in enumerate(legal)))
        try:
            line = ask(f"move {state.move_number + 1}/{puzzle.moves}> ").strip()
        except (EOFError, KeyboardInterrupt):
            return False
        lowered = line.lower()
        if lowered in ("quit", "q", "exit"):
            return False
        if lowered == "restart":
            state = start.clone()
            continue
        if lowered == "undo":
            if state.move_number:
                state = replay(state.to_record(), upto=state.move_number - 1)
            continue
        if state.move_number >= puzzle.moves or state.is_over:
            console.print("[red]No moves left: restart, undo or quit.[/]")
            continue
        try:
            if line.isdigit() and 1 <= int(line) <= len(legal):
                state.apply(legal[int(line) - 1])
            else:
                state.apply(line)
        except AstrariumError as exc:
            console.print(f"[red]{escape(str(exc))}[/]")


def default_ask(console: Console) -> Ask:
    def ask(prompt: str) -> str:
        return console.input(escape(prompt))

    return ask
