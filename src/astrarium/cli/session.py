"""Terminal play: hot-seat humans and computer players around one state.

The loop is written against an ``ask`` function and a Rich console so tests
drive it with scripted input. Nothing a person types can raise a traceback:
bad input gets one line saying what was wrong, and the prompt again.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from astrarium.agents import Agent, make_agent
from astrarium.agents.hint import suggest
from astrarium.agents.levels import is_level, table_spec
from astrarium.cli.again import seed_line
from astrarium.cli.common import TerminalAsk, can_page, one_line, parse_number, show_long
from astrarium.cli.rules_view import rules_markdown
from astrarium.cli.suggest import refusal
from astrarium.core.data import check_output_file
from astrarium.core.errors import IllegalAction, RecordError, short
from astrarium.core.game import Game, State
from astrarium.core.records import load_record, replay, save_record

Ask = Callable[[str], str]
HUMAN = "human"
SHOWN_ACTIONS = 40

#: The start of the prompt's help; the commands follow it, from :data:`PROMPT_COMMANDS`.
HELP_HEAD = "Type a number from the list or an action's notation. Commands: "
#: How often the thinking line's clock is brought up to date, in seconds.
THINKING_TICK = 0.1
#: The words of a move shown in the recap, history and log lines: at most this many lines of at most this many characters.
WORDS_LINES = 12
WORDS_CHARS = 200


#: The line under a page of rules that fitted the screen.
BACK_TO_BOARD = "Press Enter to go back to the board "


class QuitGame(Exception):
    """The person asked to leave the game."""


def _seat_kind(who: str, where: str, game: str | None = None) -> str:
    """A seat's player spec, checked: ``human`` (any case, no options) or a computer player's spec."""
    who = who.strip()
    kind = who.partition(":")[0].strip().lower()
    if kind == HUMAN:
        if ":" in who:
            raise ValueError(f"{where}: a human player takes no options")
        return HUMAN
    if not who:
        raise ValueError(f"{where}: name a player, such as human, easy, medium or hard")
    if is_level(who):
        return who.lower()
    make_agent(table_spec(who), game=game)  # a bad spec is refused now, naming the option (or the players there are)
    return who


def parse_seats(specs: list[str], players: int, saved: Mapping[int, str] | None = None, game: str | None = None) -> dict[int, str]:
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
        seats[seat] = _seat_kind(who, where, game)
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
    """Computer players for the seats that are not human, to play ``game`` (raises ValueError on a bad spec).

    A person waits for these players, so a level (``hard``) becomes its
    player and a search without a budget thinks about a second a move
    (:func:`astrarium.agents.levels.table_spec`); the arena builds its own.
    """
    secrets = False
    if game is not None:
        import astrarium

        found = astrarium.get_game(game)
        secrets = found.hidden_information or found.chance
    return {
        seat: make_agent(table_spec(spec, secrets, game), seed=seed * 1000 + seat, game=game)
        for seat, spec in seats.items()
        if spec != HUMAN
    }


@dataclass(frozen=True)
class Told:
    """One move told in words: its number (1 for the first), the seat that played it, and its lines per viewer."""

    number: int
    mover: int
    notation: str
    lines: dict[int | None, list[str]]


def tell(game: Game, before: Mapping[str, Any], notation: str, after: Mapping[str, Any]) -> list[str]:
    """The move in words from one seat's two picture views, cut to fit a terminal line (never empty)."""
    lines = [one_line(line, WORDS_CHARS) for line in game.describe(before, notation, after)[:WORDS_LINES]]
    return lines or [one_line(notation, WORDS_CHARS)]


def tell_moves(state: State, viewers: Iterable[int | None], movers: list[int]) -> list[Told]:
    """Every move of ``state`` told from each viewer's side (rebuilt from its record: after a load or an undo)."""
    record = state.to_record()
    probe = replay(record, upto=0)
    viewers = list(viewers)
    told: list[Told] = []
    for index, notation in enumerate(record["actions"]):
        before = {v: probe.picture_view(v) for v in viewers}
        probe.apply(notation)
        lines = {v: tell(state.game, before[v], notation, probe.picture_view(v)) for v in viewers}
        mover = movers[index] if index < len(movers) else -1
        told.append(Told(index + 1, mover, notation, lines))
    return told


def seed_is_secret(game: Game) -> bool:
    """Whether the seed tells something a player should not know yet (other hands, coming draws)."""
    return game.hidden_information or game.chance


@dataclass(frozen=True)
class Typed:
    """A command typed at the prompt: the seat whose prompt it is, the command's word (lower case) and the rest of the line."""

    seat: int
    word: str
    rest: str


@dataclass(frozen=True)
class Command:
    """One command of the play prompt: the words that call it, how ``help`` shows it, and what it does.

    ``names[0]`` is the command's name (the prompt completes it); the others
    are other words for it. ``help`` shows ``usage`` in bold, then ``text``
    in brackets (a command whose name says it all has none). ``run`` is the
    :class:`PlayLoop` method that answers it (ValueError says what was
    wrong); ``ends_turn`` is whether the position changed, so the turn starts
    again from it.
    """

    names: tuple[str, ...]
    usage: str
    text: str
    run: Callable[[PlayLoop, Typed], None]
    ends_turn: bool = False

    @property
    def name(self) -> str:
        return self.names[0]

    def help_entry(self) -> str:
        """The command as ``help`` lists it (markup)."""
        return f"[bold]{self.usage}[/]" + (f" ({self.text})" if self.text else "")


@dataclass
class PlayLoop:
    """One game at the terminal.

    Every move is told in words as it is played (:class:`Told`), from the side
    of each human at the table (from a spectator's when none is): the recap a
    person reads at the start of a turn, ``history`` and the log of a game
    between computers all come from these lines, numbered as the header
    numbers moves (move 1 is the first action).
    """

    state: State
    seats: dict[int, str]
    console: Console
    ask: Ask
    agents: dict[int, Agent] = field(default_factory=dict)
    movers: list[int] = field(default_factory=list)
    _last_human: int | None = None
    #: The moves so far in words, and how many of them each human had seen at their last prompt.
    told: list[Told] = field(default_factory=list)
    _seen: dict[int, int] = field(default_factory=dict)
    #: Indexes of the moves played for a human because they were the only choice (undo passes over them).
    forced: set[int] = field(default_factory=set)
    _started: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if not self.agents:
            self.agents = build_agents(self.seats, self.state.seed, self.state.game.id)
        if not self.movers and self.state.move_number:
            self.movers = _movers_of(self.state)
        self._retell()
        self._seen = {seat: len(self.told) for seat in self.humans}

    @property
    def humans(self) -> list[int]:
        return [seat for seat, who in self.seats.items() if who == HUMAN]

    @property
    def viewers(self) -> list[int | None]:
        """Whose side moves are told from: each human's, or a spectator's at a table of computers."""
        humans: list[int | None] = list(self.humans)
        return humans or [None]

    def run(self) -> State:
        # The seed is shown at the start only where it gives nothing away; otherwise at the end.
        if not seed_is_secret(self.state.game) and not self.state.is_over:
            self.console.print(escape(seed_line(self.state, self.seats)), soft_wrap=True)
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
            played = self._moves(self.state.move_number)
            self.console.print(f"Left the game after {played}. {escape(seed_line(self.state, self.seats))}", soft_wrap=True)
            return self.state
        self._show_end()
        return self.state

    # -- moves -----------------------------------------------------------------
    def _play(self, action: Any, seat: int) -> None:
        """Apply ``action`` for ``seat`` and tell it in words from every viewer's side (IllegalAction changes nothing)."""
        before = {v: self.state.picture_view(v) for v in self.viewers}
        self.state.apply(action)
        notation = self.state.history[-1]
        lines = {v: tell(self.state.game, before[v], notation, self.state.picture_view(v)) for v in self.viewers}
        self.movers.append(seat)
        self.told.append(Told(self.state.move_number, seat, notation, lines))

    def _retell(self) -> None:
        """Tell every move of the position again (after a load or an undo replaced the state)."""
        self.told = tell_moves(self.state, self.viewers, self.movers)

    @staticmethod
    def _moves(count: int) -> str:
        return f"{count} move" if count == 1 else f"{count} moves"

    # -- turns ---------------------------------------------------------------
    def _bot_turn(self, seat: int) -> None:
        try:
            action = self._think(seat)
        except KeyboardInterrupt:  # Ctrl-C while it thinks: the same question as at the prompt, and the game kept
            self._stop_thinking(seat)
            return
        self._play(action, seat)
        if not self.humans:  # a game between computers: its log, move by move
            told = self.told[-1]
            self.console.print(f"[dim]Seat {seat} ({escape(self.seats[seat])}) plays move {told.number}:[/]")
            self._print_lines(told.lines[None], indent="  ")

    def _stop_thinking(self, seat: int) -> None:
        """The search interrupted by Ctrl-C is dropped; the person is asked whether to leave (and to save), else it thinks again.

        The dropped search goes on in its thread until its budget runs out, on a
        copy of the position and with its own player, so the seat gets a fresh
        player built from the same spec.
        """
        self.console.print(f"Stopped seat {seat}'s thinking.")
        self.agents[seat] = build_agents({seat: self.seats[seat]}, self.state.seed, self.state.game.id)[seat]
        self._leave(None, ended=False)
        self.console.print(f"Back to the game: seat {seat} thinks again.")

    def _think(self, seat: int) -> Any:
        """The computer seat's choice, with a line saying it is thinking (and for how long) while it searches.

        The search runs on a worker thread, on a copy of the position, so the
        line's clock keeps time and Ctrl-C reaches the person at once (the
        thread is a daemon: leaving does not wait for it).
        """
        agent = self.agents[seat]
        position = self.state.clone()
        label = f"Seat {seat} ({self.seats[seat]}) is thinking…"
        result: list[Any] = []
        failure: list[BaseException] = []

        def work() -> None:
            try:
                result.append(agent.choose(position))
            except BaseException as exc:  # handed to the main thread, which raises it
                failure.append(exc)

        worker = threading.Thread(target=work, name=f"seat-{seat}-thinking", daemon=True)
        started = time.monotonic()
        with self.console.status(escape(f"{label} 0.0 s  (Ctrl-C stops it)")) as status:
            worker.start()
            while worker.is_alive():
                worker.join(THINKING_TICK)
                status.update(escape(f"{label} {time.monotonic() - started:.1f} s  (Ctrl-C stops it)"))
        if failure:
            raise failure[0]
        return result[0]

    def _human_turn(self, seat: int) -> None:
        game = self.state.game
        legal = self.state.legal_actions()
        if len(legal) == 1:  # a forced choice: played, and said so
            self._play(legal[0], seat)
            self.forced.add(len(self.movers) - 1)
            told = self.told[-1]
            only = escape(told.notation)
            self.console.print(f"[dim]Move {told.number}: seat {seat} has one choice, {only}, played for you.[/]")
            return
        if game.hidden_information and len(self.humans) > 1 and self._last_human not in (None, seat):
            self.console.clear()
            self._ask(f"Pass the terminal to seat {seat}, then press Enter ")
        self._last_human = seat
        above = self._recap(seat, room=self._recap_room(seat, legal))
        self._show_position(seat, legal, above)
        while True:
            self._offer(legal)
            line = self._ask(f"seat {seat}> ").strip()
            if not line:
                continue
            try:
                if self._command(line, seat):
                    return
            except ValueError as exc:  # IllegalAction, RecordError and the commands' own errors
                self.console.print(f"[red]{escape(one_line(str(exc)))}[/]", soft_wrap=True)

    def _show_position(self, seat: int, legal: list[Any], above: int = 0) -> None:
        title = f"{escape(self.state.game.title)}: move {self.state.move_number + 1}, seat {seat}"
        show_position(self.console, self.state, seat, legal, title, above)

    def _recap(self, seat: int, said_later: str = "", room: int | None = None) -> int:
        """Everything played since ``seat``'s last prompt, in words from its side (its own last move's effects too).

        A line holding ``said_later`` (the result, which the end screen's
        picture shows next) is left out, so that no line is printed twice.
        With ``room`` (screen lines), the recap keeps its last lines that fit
        and says how many earlier ones ``history`` shows. Returns the screen
        lines it took.
        """
        start = self._seen.get(seat, 0)
        self._seen[seat] = len(self.told)
        moves = self.told[start:]
        if not moves:
            return 0
        span = f" (moves {moves[0].number} to {moves[-1].number})" if len(moves) > 1 else ""
        self.console.rule(f"Since your last turn{span}")
        lines = [line for told in moves for line in self._told_lines(told, seat, said_later)]
        width = self.console.size.width
        kept, folded = fit_last(lines, width, None if room is None else room - 1)
        if folded:
            self.console.print(f"[dim]   … {folded} earlier {'line' if folded == 1 else 'lines'} folded: type history for every move[/]")
        for line in kept:
            self.console.print(line)
        return 1 + bool(folded) + sum(screen_rows(line, width) for line in kept)

    def _recap_room(self, seat: int, legal: list[Any]) -> int:
        """Screen lines the recap may take above the position (at least :data:`RECAP_ROWS`)."""
        width, height = self.console.size
        needed = position_rows(self.state, seat, legal, width, height)
        return max(height - needed, RECAP_ROWS)

    def _told_lines(self, told: Told, viewer: int | None, said_later: str = "") -> list[str]:
        """A move's lines as printed (markup): its number and first line, then the rest indented."""
        lines = told.lines.get(viewer) or [told.notation]
        if said_later:
            lines = [lines[0], *(line for line in lines[1:] if said_later not in line)]
        return [f"[cyan]{told.number:>4}.[/] {escape(lines[0])}", *(f"      {escape(line)}" for line in lines[1:])]

    def _print_told(self, told: Told, viewer: int | None, said_later: str = "") -> None:
        for line in self._told_lines(told, viewer, said_later):
            self.console.print(line)

    def _print_lines(self, lines: list[str], indent: str) -> None:
        for line in lines:
            self.console.print(f"{indent}{escape(line)}")

    def _offer(self, legal: list[Any]) -> None:
        """Tell a line-editing prompt which notations to complete (a scripted ask has nothing to be told)."""
        offer = getattr(self.ask, "offer", None)
        if callable(offer):
            offer([str(action) for action in legal])

    def _command(self, line: str, seat: int) -> bool:
        """Handle one line; True when the turn is over (an action was played, or the position changed).

        The line's first word is looked up in :data:`PROMPT_COMMANDS`; a line
        that names no command is an action.
        """
        word, _, rest = line.partition(" ")
        command = COMMAND_NAMES.get(word.lower())
        if command is None:
            return self._move(line, seat)
        command.run(self, Typed(seat, word.lower(), rest.strip()))
        return command.ends_turn

    def _move(self, line: str, seat: int) -> bool:
        """Play the action ``line`` names, a number from the list or a notation (ValueError says what was wrong)."""
        legal = self.state.legal_actions()
        action: Any = line
        if line.isdigit():  # any digits, so that '²' or 5,000 digits get this message, not int()'s
            index = parse_number(line)
            if index is None or not 1 <= index <= len(legal):
                raise ValueError(f"{short(line, 20)} is not in the list: choose 1 to {len(legal)}")
            action = legal[index - 1]
        try:
            self._play(action, seat)
        except IllegalAction as exc:
            names = self.state.game.cards(self.state)
            raise IllegalAction(refusal(str(exc), line, legal, names)) from None
        return True

    # -- the prompt's commands, one method a command (the table is PROMPT_COMMANDS) ---------------
    def _quit_command(self, typed: Typed) -> None:
        """``quit``: confirm, offer to save, and leave (QuitGame), or go back to the game."""
        self._leave(typed.seat, ended=False)

    def _help_command(self, typed: Typed) -> None:
        """``help``: the commands, and how this game's actions are written."""
        self.console.print(HELP)
        notation = self.state.game.notation_help
        if notation:
            self.console.print(f"Notation: {escape(notation)}")

    def _list_command(self, typed: Typed) -> None:
        """``list``: every legal action, numbered."""
        self._show_actions(self.state.legal_actions(), limit=None)

    def _board_command(self, typed: Typed) -> None:
        """``board``: the position drawn again."""
        self._show_position(typed.seat, self.state.legal_actions())

    def _history_command(self, typed: Typed) -> None:
        """``history``: the moves so far in words, from the side of the seat at the prompt."""
        self._history(typed.seat)

    def _rules_command(self, typed: Typed) -> None:
        """``rules`` (how to play) and ``rules full`` (the complete rules)."""
        self._rules(typed.seat, full=typed.rest.lower() in ("full", "all", "--full"))

    def _info_command(self, typed: Typed) -> None:
        """``card NAME`` and ``info THING``."""
        self._info(typed.word, typed.rest)

    def _hint_command(self, typed: Typed) -> None:
        """``hint``: what the easy player would do, and why."""
        self._hint()

    def _save_command(self, typed: Typed) -> None:
        """``save FILE``, ``save FILE public`` and ``share FILE``."""
        self._save(typed.word, typed.rest)

    def _load_command(self, typed: Typed) -> None:
        """``load FILE``: a saved game of this game, for the same number of players, in place of this one."""
        if not typed.rest:
            raise ValueError("load needs a file name, e.g. load game.json")
        self._load(typed.rest)

    def _undo_command(self, typed: Typed) -> None:
        """``undo``: take back the last action a human chose."""
        self._undo()

    def _rules(self, seat: int, full: bool) -> None:
        """How to play (``rules full``: the complete rules), paged when long, then the position again.

        The text scrolls the board out of sight (or the pager takes the
        screen), so the board and the legal actions are drawn again after it.
        """
        game = self.state.game
        text = game.rules_text() if full else game.how_to_play()
        after = "" if full else "\n\nType 'rules full' for the complete rules."
        paged = show_long(self.console, rules_markdown(text + after))
        if not paged and can_page(self.console):  # it fitted the screen: read it before the board comes back below it
            self._wait(BACK_TO_BOARD)
        self._show_position(seat, self.state.legal_actions())

    def _wait(self, prompt: str) -> None:
        """Wait for Enter (Ctrl-C or the end of input also goes on: nothing is lost by not reading)."""
        try:
            self.ask(prompt)
        except (EOFError, KeyboardInterrupt):
            self._forgive_end()

    def _info(self, word: str, rest: str) -> None:
        """``card NAME`` and ``info THING``: what a card, piece or square of this game is, in the game's words."""
        game = self.state.game
        if not rest:
            names = game.cards(self.state) if word == "card" else {**game.cards(self.state), **game.things(self.state)}
            if not names:
                raise ValueError(f"{game.title} has no cards; 'info THING' tells what a piece or square is")
            example = next(iter(names))
            listed = ", ".join(sorted(names))
            raise ValueError(f"{word} needs a name, e.g. {word} {example}; known: {listed}")
        text = game.card_text(rest, self.state) if word == "card" else game.info(rest, self.state)
        self.console.print(escape(text))

    def _hint(self) -> None:
        """The easy player's choice for this position and why, in one line (it is not played: the person decides)."""
        hint = suggest(self.state, seed=self.state.seed + self.state.move_number)
        self.console.print(f"[green]Hint:[/] {escape(one_line(hint.line(), WORDS_CHARS))}")

    def _history(self, seat: int) -> None:
        if not self.told:
            self.console.print("No moves yet: move 1 is next.")
            return
        self.console.rule(f"The game so far ({self._moves(len(self.told))})")
        for told in self.told:
            self._print_told(told, seat)

    def _leave(self, seat: int | None, ended: bool) -> None:
        """``quit``, Ctrl-C or the end of input in an unfinished game: confirm, offer to save, then raise QuitGame.

        When the input has ended, the confirmation cannot be answered: the
        game is left (a script or a closed pipe). When the person typed
        ``quit``, input ending at the question counts as yes.
        """
        where = f"move {self.state.move_number + 1} is next"
        if ended:
            self.console.print()
        try:
            answer = self.ask(f"Leave this unfinished game ({where})? [y/N]: ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            if not ended:
                self._forgive_end()
            raise QuitGame from None
        if answer not in ("y", "yes"):
            if seat is not None:
                self.console.print("Back to the game.")
            return
        while True:
            try:
                name = self.ask("Save it first? Type a file name, or press Enter to leave without saving: ").strip()
            except (EOFError, KeyboardInterrupt):
                self._forgive_end()
                raise QuitGame from None
            if self._save_answer(name):
                raise QuitGame

    def _forgive_end(self) -> None:
        """The input ended at a question the person had no need to answer: not the unfinished input of a script."""
        if isinstance(self.ask, TerminalAsk):
            self.ask.ended = False

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
        """Take back the last action a human chose (not one played for them), and everything after it."""
        humans = set(self.humans)
        last = max((i for i, seat in enumerate(self.movers) if seat in humans and i not in self.forced), default=None)
        if last is None:
            raise ValueError("there is no human action to take back")
        record = self.state.to_record()
        self.state = replay(record, upto=last)
        self.movers = self.movers[:last]
        self.forced = {i for i in self.forced if i < last}
        self.told = self.told[:last]
        self._seen = {seat: min(seen, last) for seat, seen in self._seen.items()}
        # The header of the position taken back to numbers its next move last + 1, and so does this line.
        self.console.print(f"Took back to move {last + 1}.")

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
        self.forced = set()
        self._retell()
        self._seen = {seat: len(self.told) for seat in self.humans}
        self.console.print(
            f"Loaded {escape(shown)}: {self._moves(state.move_number)} played, move {state.move_number + 1} is next.", soft_wrap=True
        )

    # -- output ------------------------------------------------------------------
    def _show_actions(self, legal: list[Any], limit: int | None) -> None:
        print_actions(self.console, legal, limit)

    def _show_end(self) -> None:
        """The end screen: the last moves in words, the final position, who won and why, scores, length, and a save.

        Each line is printed once: the reason is not repeated when the last
        move's words or the final picture already say it.
        """
        state = self.state
        outcome = state.outcome
        width, height = self.console.size
        # Under the picture: the reason, the verdict, a line a seat, the length, the seed and the offer to save.
        picture = state.render_fit(None, width=width, height=height - state.players - 6)
        reason = outcome.reason if outcome is not None else ""
        shown = bool(reason) and reason in picture
        for seat in self.humans:  # what the last computer moves did, from the side of each person still at the table
            self._recap(seat, said_later=reason)
        self.console.rule("Game over")
        self.console.print(picture)
        said = [line for told in self.told[-1:] for lines in told.lines.values() for line in lines]
        if outcome is not None:
            logged = not self.humans and any(reason in line for line in said)  # a game between computers told it already
            if not shown and not logged:
                self.console.print(f"[bold]{escape(outcome.reason)}[/]")
            self.console.print(f"[bold]{escape(self._verdict(outcome.winners))}[/]")
            returns = state.returns()
            scores = outcome.scores
            for seat in range(state.players):
                score = f"score {scores[seat]:g}, " if scores is not None and seat < len(scores) else ""
                self.console.print(f"  seat {seat} ({escape(self.seats.get(seat, '?'))}): {score}result {returns[seat]:+g}")
        elapsed = int(time.monotonic() - self._started)
        clock = f"{elapsed // 60} min {elapsed % 60} s" if elapsed >= 60 else f"{elapsed} s"
        self.console.print(f"Game length: {self._moves(state.move_number)}, {clock} at this table.")
        self.console.print(escape(seed_line(state, self.seats)), soft_wrap=True)
        if self.humans:
            self._offer_save()

    def _verdict(self, winners: tuple[int, ...]) -> str:
        """Who won, in words (a shared win, a cooperative win or loss, a draw)."""
        state = self.state
        if state.game.cooperative:
            return "Everyone wins together." if winners else "Everyone loses together."
        if not winners:
            return "Nobody wins."
        if len(winners) == state.players and state.players > 1:
            return "A draw."
        names = [f"seat {w} ({self.seats.get(w, '?')})" for w in winners]
        if len(names) == 1:
            return f"Winner: {names[0]}."
        return f"Winners (a shared win): {', '.join(names[:-1])} and {names[-1]}."

    def _offer_save(self) -> None:
        """Offer to keep the finished game's record; the end of input here is a no (the game is over)."""
        while True:
            try:
                answer = self.ask("Save the game's record? Type a file name, or press Enter to skip: ").strip()
            except (EOFError, KeyboardInterrupt):
                self._forgive_end()
                return
            if self._save_answer(answer):
                return

    def _save_answer(self, answer: str) -> bool:
        """Act on the answer to a "save it?" question: a word for no, a file name, or the play prompt's ``save`` or
        ``share`` command typed from habit. False when the file could not be written (said, and asked again)."""
        if not answer or answer.lower() in DECLINE_SAVE:
            return True
        word, _, rest = answer.partition(" ")
        if word.lower() in ("save", "share") and rest.strip():
            word, path = word.lower(), rest.strip()
        else:
            word, path = "save", answer
        try:
            self._save(word, path)
        except ValueError as exc:  # a folder that does not exist, a name that is not a file
            self.console.print(f"[red]{escape(one_line(str(exc)))}[/]", soft_wrap=True)
            return False
        return True

    def _ask(self, prompt: str) -> str:
        """A line from the person; Ctrl-C or the end of input is a request to leave (confirmed first)."""
        try:
            return self.ask(prompt)
        except EOFError:
            self._leave(None, ended=True)
        except KeyboardInterrupt:
            self._leave(None, ended=False)
        return ""


#: Answers to "save the game's record?" that mean no rather than a file name.
DECLINE_SAVE = frozenset({"n", "no", "skip", "q", "quit", "exit"})

#: The play prompt's commands, in the order ``help`` lists them; the prompt looks a line's first word up here.
PROMPT_COMMANDS: tuple[Command, ...] = (
    Command(("list", "moves", "actions"), "list", "all legal actions", PlayLoop._list_command),
    Command(("undo",), "undo", "take back your last action", PlayLoop._undo_command, ends_turn=True),
    Command(("save",), "save FILE", "the whole game, seed included: it rebuilds every hand", PlayLoop._save_command),
    Command(
        ("share",),
        "share FILE",
        "or save FILE public: no seed, only what a spectator saw; safe to give away mid-game",
        PlayLoop._save_command,
    ),
    Command(("load",), "load FILE", "", PlayLoop._load_command, ends_turn=True),
    Command(("board",), "board", "draw the position again", PlayLoop._board_command),
    Command(("history",), "history", "the moves so far, in words", PlayLoop._history_command),
    Command(("hint",), "hint", "what the easy player would do, and why", PlayLoop._hint_command),
    Command(("info",), "info THING", "what a piece, square or card is", PlayLoop._info_command),
    Command(("card",), "card NAME", "what a card does", PlayLoop._info_command),
    Command(("rules",), "rules", "how to play; [bold]rules full[/] for everything", PlayLoop._rules_command),
    Command(("help", "?"), "help", "", PlayLoop._help_command),
    Command(("quit", "exit", "q"), "quit", "", PlayLoop._quit_command),
)
#: Each word the prompt answers, and its command.
COMMAND_NAMES: dict[str, Command] = {name: command for command in PROMPT_COMMANDS for name in command.names}


def help_text(commands: Iterable[Command]) -> str:
    """The prompt's help (markup): how to play an action, then each command as the table describes it."""
    return HELP_HEAD + ", ".join(command.help_entry() for command in commands) + "."


#: What ``help`` prints first.
HELP = help_text(PROMPT_COMMANDS)


#: Lines kept for the list of actions under the board on a small screen (the board gets the rest).
ACTION_ROWS = 4
#: The lines a recap may take when the board would fill the screen (its header, the line on what is folded and its
#: last four lines): the board then takes a more compact layout.
RECAP_ROWS = 6
#: Cells Rich's grid puts between two columns of the action list (its padding of 2, collapsed between cells).
COLUMN_GAP = 2


def show_position(console: Console, state: State, seat: int, legal: list[Any], title: str, above: int = 0) -> str:
    """The header, the board and as many legal actions as the screen has room for, leaving the last line for the prompt.

    The board is drawn for the space left once the header, the prompt and a
    few lines of actions are counted (``State.render_fit``), so on a small
    terminal a game chooses its compact layout; the actions then take
    whatever lines remain, and a line says how many more ``list`` shows.
    ``above`` lines of the screen are already taken (the recap).
    Returns the board as drawn (markup), for a caller that checks its size.
    """
    width, height = console.size
    console.rule(title)
    room = height - above - 2  # the header and the prompt
    board = fit_board(state, seat, legal, width, room)
    console.print(board)
    shown, columns = action_layout(legal, width, room - len(board.split("\n")))
    print_actions(console, legal, shown, columns)
    return board


def fit_board(state: State, seat: int, legal: list[Any], width: int, room: int) -> str:
    """The board for ``room`` lines, leaving a few of them for the list of actions."""
    keep = min(ACTION_ROWS, len(legal))
    return state.render_fit(seat, width=width, height=max(room - keep, 1))


def position_rows(state: State, seat: int, legal: list[Any], width: int, height: int) -> int:
    """Screen lines the header, the board, its first actions and the prompt take on a screen of ``height`` lines."""
    board = fit_board(state, seat, legal, width, height - 2)
    return 2 + len(board.split("\n")) + min(ACTION_ROWS, len(legal))


def screen_rows(markup: str, width: int) -> int:
    """Lines of a ``width``-cell screen a line of markup takes when the terminal wraps it."""
    return max(1, -(-Text.from_markup(markup).cell_len // max(width, 1)))


def fit_last(lines: list[str], width: int, room: int | None) -> tuple[list[str], int]:
    """The last of ``lines`` that fit in ``room`` screen lines (one kept for saying how many were folded), and that count."""
    if room is None or sum(screen_rows(line, width) for line in lines) <= room:
        return lines, 0
    kept: list[str] = []
    used = 1  # the line saying how many are folded
    for line in reversed(lines):
        rows = screen_rows(line, width)
        if kept and used + rows > room:
            break
        kept.insert(0, line)
        used += rows
    return kept, len(lines) - len(kept)


def action_layout(legal: list[Any], width: int, rows: int) -> tuple[int, int]:
    """How many of the legal actions to list, and in how many columns, to take at most ``rows`` lines of ``width`` cells.

    A short list stays one column (as a person reads it best); a longer one
    takes as many columns as fit beside each other, at most three; when not
    all fit, the last line is kept for the line saying how many more there are.
    """
    total = len(legal)
    if total <= min(max(rows, 1), 12):
        return total, 1
    head = legal[:SHOWN_ACTIONS]
    cell = len(str(len(head))) + max(Text(str(a)).cell_len for a in head)
    columns = 1
    while columns < 3 and (columns + 1) * cell + (2 * columns + 1) * COLUMN_GAP <= width:
        columns += 1
    if total <= SHOWN_ACTIONS and -(-total // columns) <= rows:
        return total, columns
    return max(0, min(SHOWN_ACTIONS, total, columns * (rows - 1))), columns


def print_actions(console: Console, legal: list[Any], limit: int | None, columns: int | None = None) -> None:
    """The legal actions numbered for typing, in columns read downwards, and a line naming how many are not shown."""
    shown = legal if limit is None else legal[:limit]
    if shown:
        table = Table.grid(padding=(0, 2))
        columns = columns or (3 if len(shown) > 12 else 1)
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
        console.print(table)
    if limit is not None and len(legal) > limit:
        more = len(legal) - limit
        what = f"... and {more} more" if shown else f"{more} legal actions"
        console.print(f"[dim]{what}: type 'list' to see all, or type a notation.[/]")


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
        width, height = console.size
        console.rule(f"{escape(state.game.title)}: position after move {index} of {total}")
        console.print(state.render_fit(None, width=width, height=height - 3))  # the header, the next move, the prompt
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


#: The commands the prompt completes besides the notations of the legal actions: each command's name.
COMMANDS = tuple(sorted(command.name for command in PROMPT_COMMANDS))


class NotationCompleter(Completer):
    """Completes the line typed so far to a legal action's notation (or a command), whole line at a time.

    Notations hold spaces (``rot burn pro soft``), so the line typed so far is
    matched as one prefix rather than word by word.
    """

    def __init__(self) -> None:
        self.choices: list[str] = []

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        typed = document.text_before_cursor.lstrip()
        lowered = typed.lower()
        seen: set[str] = set()
        for choice in [*self.choices, *(COMMANDS if self.choices else ())]:
            if choice.lower().startswith(lowered) and choice != typed and choice not in seen:
                seen.add(choice)
                yield Completion(choice, start_position=-len(typed))


@dataclass
class LineAsk(TerminalAsk):
    """Reads a line with editing: arrow keys move and recall earlier lines, Tab completes a legal action's notation.

    Used when both ends are a terminal; scripts and pipes keep the plain
    :class:`TerminalAsk`. ``offer`` is told the legal actions before each
    prompt of a turn and forgets them once the line is read, so a menu
    question does not complete to stale actions.
    """

    input: Any = None
    output: Any = None
    completer: NotationCompleter = field(default_factory=NotationCompleter)
    session: Any = None

    def __post_init__(self) -> None:
        self.session = PromptSession(
            history=InMemoryHistory(), completer=self.completer, complete_while_typing=False, input=self.input, output=self.output
        )

    def offer(self, notations: list[str]) -> None:
        self.completer.choices = list(notations)

    def __call__(self, prompt: str) -> str:
        try:
            return str(self.session.prompt(prompt))
        except EOFError:
            self.ended = True
            raise
        finally:
            self.completer.choices = []


def default_ask(console: Console) -> TerminalAsk:
    """Read lines from the person at the terminal (and note when the input ends): with line editing at a terminal."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return LineAsk(console)
    return TerminalAsk(console)
