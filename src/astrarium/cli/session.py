"""Terminal play: hot-seat humans and computer players around one state.

The loop is written against an ``ask`` function and a Rich console so tests
drive it with scripted input. Nothing a person types can raise a traceback:
bad input gets one line saying what was wrong, and the prompt again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from astrarium.agents import Agent, make_agent
from astrarium.cli.common import TerminalAsk, one_line, parse_number
from astrarium.core.data import check_output_file
from astrarium.core.errors import RecordError, short
from astrarium.core.game import Game, Puzzle, State
from astrarium.core.records import load_record, replay, save_record

Ask = Callable[[str], str]
HUMAN = "human"
SHOWN_ACTIONS = 40

HELP = (
    "Type a number from the list or an action's notation. Commands: "
    "[bold]list[/] (all legal actions), [bold]undo[/] (take back your last action), "
    "[bold]save FILE[/] (the whole game, seed included: it rebuilds every hand), "
    "[bold]share FILE[/] (or save FILE public: no seed, only what a spectator saw; safe to give away mid-game), "
    "[bold]load FILE[/], [bold]rules[/], [bold]help[/], [bold]quit[/]."
)


class QuitGame(Exception):
    """The person asked to leave the game."""


def _seat_kind(who: str, where: str) -> str:
    """A seat's player spec, checked: ``human`` (any case, no options) or a computer player's spec."""
    who = who.strip()
    kind = who.partition(":")[0].strip().lower()
    if kind == HUMAN:
        if ":" in who:
            raise ValueError(f"{where}: a human player takes no options")
        return HUMAN
    if not who:
        raise ValueError(f"{where}: name a player, such as human or random")
    make_agent(who)  # a bad spec is refused now, naming the option
    return who


def parse_seats(specs: list[str], players: int, saved: Mapping[int, str] | None = None) -> dict[int, str]:
    """``["0=human", "1=random"]`` -> ``{0: "human", 1: "random"}``.

    Seats not named keep ``saved`` (who sat there in a loaded record), else
    seat 0 is human and the others random.
    """
    seats: dict[int, str] = {}
    for spec in specs:
        seat_text, eq, who = spec.partition("=")
        where = f"--seat {short(spec, 60)!r}"
        if not eq or not who.strip():
            raise ValueError(f"{where} should look like 0=human or 1=random")
        seat = parse_number(seat_text)
        if seat is None:
            raise ValueError(f"{where}: {short(seat_text, 20)!r} is not a seat number")
        if not 0 <= seat < players:
            raise ValueError(f"{where}: seats are numbered 0 to {players - 1}")
        if seat in seats:
            raise ValueError(f"{where}: seat {seat} is named twice")
        seats[seat] = _seat_kind(who, where)
    for seat in range(players):
        if seat not in seats:
            seats[seat] = (saved or {}).get(seat, HUMAN if seat == 0 else "random")
    return dict(sorted(seats.items()))


def seats_of_record(record: Mapping[str, Any], players: int, label: str) -> dict[int, str]:
    """Who sat where in a saved game (the CLI's own ``seats`` field), checked as strictly as ``--seat``.

    The field is optional (records made elsewhere lack it); when present it is
    an object of seat numbers (text) and player specs, e.g. ``{"0": "human"}``.
    """
    raw = record.get("seats")
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        example = '{"0": "human", "1": "random"}'
        raise RecordError(
            f"{label}: record field 'seats' must be an object of seat numbers and players, like {example}, not {short(repr(raw), 40)}"
        )
    seats: dict[int, str] = {}
    for key, who in raw.items():
        seat = parse_number(key) if isinstance(key, str) else None
        if seat is None or seat >= players:
            raise RecordError(f"{label}: record field 'seats': {short(repr(key), 20)} is not a seat number from 0 to {players - 1}")
        if not isinstance(who, str):
            shown = short(repr(who), 40)
            raise RecordError(f"{label}: record field 'seats', seat {seat}: a player such as 'human' or 'random', not {shown}")
        try:
            seats[seat] = _seat_kind(who, f"record field 'seats', seat {seat}")
        except ValueError as exc:
            raise RecordError(f"{label}: {exc}") from None
    return seats


def build_agents(seats: dict[int, str], seed: int, game: str | None = None) -> dict[int, Agent]:
    """Computer players for the seats that are not human, to play ``game`` (raises ValueError on a bad spec)."""
    return {seat: make_agent(spec, seed=seed * 1000 + seat, game=game) for seat, spec in seats.items() if spec != HUMAN}


def seed_line(state: State) -> str:
    """How to deal this game again (shown on screen; the record keeps the seed too)."""
    return f"Seed {state.seed}: 'astrarium play {state.game.id} --seed {state.seed}' deals this game again."


def seed_is_secret(game: Game) -> bool:
    """Whether the seed tells something a player should not know yet (other hands, coming draws)."""
    return game.hidden_information or game.chance


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
            self.agents = build_agents(self.seats, self.state.seed, self.state.game.id)
        if not self.movers and self.state.move_number:
            self.movers = _movers_of(self.state)

    @property
    def humans(self) -> list[int]:
        return [seat for seat, who in self.seats.items() if who == HUMAN]

    def run(self) -> State:
        # The seed is shown at the start only where it gives nothing away; otherwise at the end.
        if not seed_is_secret(self.state.game) and not self.state.is_over:
            self.console.print(escape(seed_line(self.state)), soft_wrap=True)
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
            self.console.print(f"Left the game at move {self.state.move_number}. {escape(seed_line(self.state))}", soft_wrap=True)
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
            except ValueError as exc:  # IllegalAction, RecordError and the commands' own errors
                self.console.print(f"[red]{escape(one_line(str(exc)))}[/]", soft_wrap=True)

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
        if word in ("save", "share"):
            self._save(word, rest)
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
        action: Any = line
        if line.isdigit():  # any digits, so that '²' or 5,000 digits get this message, not int()'s
            index = parse_number(line)
            if index is None or not 1 <= index <= len(legal):
                raise ValueError(f"{short(line, 20)} is not in the list: choose 1 to {len(legal)}")
            action = legal[index - 1]
        self.state.apply(action)
        self.movers.append(seat)
        return True

    def _save(self, word: str, rest: str) -> None:
        """``save FILE`` (the whole game, seed included), ``share FILE`` or ``save FILE public`` (no seed)."""
        path, public = rest, word == "share"
        head, _, last = rest.rpartition(" ")
        if word == "save" and head.strip() and last.lower() == "public":
            path, public = head.strip(), True
        if not path:
            raise ValueError(f"{word} needs a file name, e.g. {word} game.json")
        target = check_output_file(path)
        saved = save_record(self.state, target, public=public, seats={str(s): w for s, w in self.seats.items()})
        shown = escape(short(str(saved)))
        if public:
            message = f"Shared to {shown}: no seed, only what a spectator saw of each position; safe to give away."
        elif seed_is_secret(self.state.game) and not self.state.is_over:
            message = f"Saved to {shown}. It holds the seed, which rebuilds every hand and draw; to give the game away, share it."
        else:
            message = f"Saved to {shown}."
        self.console.print(message, soft_wrap=True)

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
        shown = short(path)
        try:
            state = replay(record)
        except RecordError as exc:
            raise RecordError(f"{shown}: {exc}") from None
        if state.game.id != self.state.game.id or state.players != self.state.players:
            raise ValueError(
                f"{shown} is a {state.players}-player {state.game.id} game; this is a {self.state.players}-player {self.state.game.id} game"
            )
        self.state = state
        self.movers = _movers_of(state)
        self.console.print(f"Loaded {escape(shown)} at move {state.move_number}.", soft_wrap=True)

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
        self.console.print(escape(seed_line(state)), soft_wrap=True)

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
        number = parse_number(line)
        if line in ("b", "back"):
            index = max(0, index - 1)
        elif number is not None:
            index = min(number, total)
        elif line == "":
            if index == total:
                return
            index += 1
        else:
            console.print(f"[red]Enter, b, a move number from 0 to {total} or q.[/]")


def show_public_record(record: Mapping[str, Any], game: Game, console: Console, label: str) -> None:
    """List a public record's moves: it has no seed, so its positions can be seen but not rebuilt here."""
    actions: list[str] = record["actions"]
    console.print(
        f"{escape(label)} is a public record of {escape(game.title)} ({record['players']} players, {len(actions)} moves). "
        "It has no seed, so its positions can be seen (each position's spectator view is in the file) but not rebuilt: "
        "here are its moves.",
        soft_wrap=True,
    )
    for number, notation in enumerate(actions, start=1):
        console.print(f"{number:>4}. {escape(one_line(notation, 80))}", soft_wrap=True)
    result = record.get("result")
    reason = result.get("reason") if isinstance(result, Mapping) else None
    if isinstance(reason, str):
        console.print(f"[bold]{escape(one_line(reason, 200))}[/]")
    elif not actions:
        console.print("No moves yet.")


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
            if line.isdigit():  # any digits, so that '²' or 5,000 digits get this message, not int()'s
                index = parse_number(line)
                if index is None or not 1 <= index <= len(legal):
                    raise ValueError(f"{short(line, 20)} is not in the list: choose 1 to {len(legal)}")
                state.apply(legal[index - 1])
            else:
                state.apply(line)
        except ValueError as exc:  # IllegalAction and the list's own error
            console.print(f"[red]{escape(one_line(str(exc)))}[/]", soft_wrap=True)


def default_ask(console: Console) -> TerminalAsk:
    """Read lines from the person at the terminal (and note when the input ends)."""
    return TerminalAsk(console)
