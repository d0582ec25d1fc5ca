"""The play prompt's commands come from one table: every command in it is answered, and ``help`` lists exactly it.

The prompt looks a line's first word up in :data:`astrarium.cli.session.PROMPT_COMMANDS`;
``help`` is written from the same table, so the help and what the prompt
answers cannot drift apart. Each test drives :class:`PlayLoop` with scripted
input, as a person at the terminal would type it.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console

import astrarium
from astrarium.cli.session import COMMAND_NAMES, COMMANDS, PROMPT_COMMANDS, PlayLoop
from helpers import answers


def play(lines: list[str], game_id: str = "celestials", width: int = 400) -> tuple[str, PlayLoop]:
    """What the terminal shows when a person at a two-human table types ``lines`` (then the input ends)."""
    console = Console(file=io.StringIO(), width=width, height=40, color_system=None)
    loop = PlayLoop(astrarium.get_game(game_id).new_game(2, 7), {0: "human", 1: "human"}, console, answers(lines))
    loop.run()
    return console.file.getvalue(), loop  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Case:
    """How to call one command at the prompt (``{file}`` is a file in a fresh folder) and what its answer shows."""

    lines: tuple[str, ...]
    shows: str
    game: str = "celestials"


#: One case a command of the table, by the command's name.
CASES: dict[str, Case] = {
    "list": Case(("list",), "{last}", game="connected-worlds"),
    "undo": Case(("1", "undo"), "Took back to move 1."),
    "save": Case(("save {file}",), "Saved to"),
    "share": Case(("share {file}",), "Shared to"),
    "load": Case(("save {file}", "load {file}"), "Loaded"),
    "board": Case(("board",), "Celestials: move 1, seat 0"),
    "history": Case(("history",), "No moves yet: move 1 is next."),
    "hint": Case(("hint",), "Hint: "),
    "info": Case(("info zenith",), "Zenith: the Sun's phase 2 of 3"),
    "card": Case(("card solar lion",), "solar-lion: Solar Lion, the Sun's creature"),
    "rules": Case(("rules",), "Type 'rules full' for the complete rules."),
    "help": Case(("help",), "Commands: list (all legal actions)"),
    "quit": Case(("quit", "y", ""), "Left the game after 0 moves."),
}


def script(case: Case, folder: Path) -> list[str]:
    """The case's lines with its file named."""
    return [line.format(file=folder / "game.json") for line in case.lines]


def test_every_command_of_the_table_has_a_case_here() -> None:
    assert set(CASES) == {command.name for command in PROMPT_COMMANDS}


@pytest.mark.parametrize("name", [command.name for command in PROMPT_COMMANDS])
def test_every_command_is_answered_at_the_prompt(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    text, _ = play(script(case, tmp_path), case.game)
    last = str(astrarium.get_game(case.game).new_game(2, 7).legal_actions()[-1])
    assert case.shows.format(last=last) in text
    assert "is not an action" not in text and "is not in the list" not in text  # not refused as an action


def test_the_list_command_shows_what_the_first_screen_folds() -> None:
    case = CASES["list"]
    before, _ = play([], case.game)
    text, _ = play(list(case.lines), case.game)
    last = str(astrarium.get_game(case.game).new_game(2, 7).legal_actions()[-1])
    assert last not in before and last in text


@pytest.mark.parametrize(("alias", "name"), [(alias, command.name) for command in PROMPT_COMMANDS for alias in command.names[1:]])
def test_every_other_word_for_a_command_is_answered_as_the_command(alias: str, name: str, tmp_path: Path) -> None:
    lines = script(CASES[name], tmp_path)
    game = CASES[name].game
    as_named, _ = play(lines, game)
    as_alias, _ = play([alias + lines[0].removeprefix(name), *lines[1:]], game)
    assert as_alias == as_named


def test_a_command_word_in_capitals_is_the_command() -> None:
    assert play(["HISTORY"])[0] == play(["history"])[0]


def test_the_commands_that_change_the_position_end_the_turn(tmp_path: Path) -> None:
    _, loop = play(script(CASES["undo"], tmp_path))
    assert loop.state.move_number == 0
    _, loop = play(["1", *script(CASES["load"], tmp_path)])
    assert loop.state.move_number == 1


def test_help_lists_exactly_the_tables_commands_in_its_order() -> None:
    text, _ = play(["help"], width=2000)  # the help on one line
    line = next(line for line in text.splitlines() if "Commands: " in line)
    listed = re.sub(r" \([^()]*\)", "", line.partition("Commands: ")[2]).removesuffix(".").split(", ")
    assert listed == [command.usage for command in PROMPT_COMMANDS]
    for command in PROMPT_COMMANDS:
        assert command.usage.split()[0] == command.name
        plain = re.sub(r"\[/?(bold)?\]", "", command.text)
        assert (f"{command.usage} ({plain})" if plain else command.usage) in line


def test_the_prompt_completes_each_commands_name_and_answers_each_word() -> None:
    assert tuple(sorted(command.name for command in PROMPT_COMMANDS)) == COMMANDS
    assert set(COMMAND_NAMES) == {name for command in PROMPT_COMMANDS for name in command.names}
    assert len(COMMAND_NAMES) == sum(len(command.names) for command in PROMPT_COMMANDS)  # no word calls two commands
