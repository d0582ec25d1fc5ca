"""What a newcomer sees at the terminal: Ctrl-C while a computer thinks, rules that fit the screen, the command
that deals a game again, the puzzle prompt, and lists that fit an 80x24 terminal.

Where the terminal itself matters (Ctrl-C, the pager, what stays on an 80x24
screen) the real program runs in a pseudo-terminal (:mod:`tests.terminal`) and
the screen a person sees is read back from a terminal emulator.
"""

from __future__ import annotations

import io
import json
import shlex
from datetime import date, timedelta
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

import astrarium
from astrarium.cli import app
from astrarium.cli.again import again_command
from astrarium.cli.arena import parse_lineup
from astrarium.cli.menu import KIND_WORDS, _kinds_table, run_menu, seat_kinds
from astrarium.cli.puzzles import play_puzzle, today_note, week_easiest
from astrarium.cli.session import PlayLoop
from helpers import answers
from terminal import Terminal

runner = CliRunner()


def console(width: int = 120, height: int = 40) -> Console:
    return Console(file=io.StringIO(), width=width, height=height, color_system=None)


def output(c: Console) -> str:
    return c.file.getvalue()  # type: ignore[attr-defined]


# -- 1. Ctrl-C while a computer thinks ------------------------------------------------------------------------


def test_ctrl_c_while_the_computer_thinks_asks_to_leave_offers_to_save_and_no_goes_on(tmp_path: Path) -> None:
    saved = tmp_path / "kept.json"
    # A search with a budget far beyond a test's length, so that Ctrl-C always lands while it thinks (the hard
    # level's search can answer before the key arrives on a busy machine).
    thinker = "1=mcts:depth=10,iterations=10000000,seconds=300"
    term = Terminal(["play", "celestials", "--seat", thinker, "--seed", "3"], rows=40, columns=120)
    try:
        term.expect("move 1, seat 0")
        term.expect("seat 0>")
        term.send("end")
        term.expect("move 2, seat 0")
        term.expect("seat 0>")
        term.send("keep")
        term.expect("is thinking")
        term.interrupt()
        term.expect(r"Leave this unfinished game \(move \d+ is next\)\? \[y/N\]")
        assert "Stopped seat 1's thinking." in term.transcript()
        term.send("n")
        term.expect("seat 1 thinks again")
        term.expect("is thinking")
        term.interrupt()
        term.expect("Leave this unfinished game")
        term.send("y")
        term.expect("Save it first")
        term.send(str(saved))
        status = term.finish()
    finally:
        term.close()
    assert status == 0, term.transcript()[-800:]
    assert "Saved to" in term.transcript()
    record = json.loads(saved.read_text())
    assert record["actions"][:2] == ["end", "keep"] and astrarium.replay(record).history == record["actions"]


# -- 2. rules that fit the screen wait for a key --------------------------------------------------------------


def test_rules_that_fit_the_screen_stay_until_enter_then_the_board_returns() -> None:
    term = Terminal(["play", "celestials", "--seat", "1=easy", "--seed", "3"], rows=40, columns=120)
    try:
        term.expect("move 1, seat 0")
        term.expect("seat 0>")
        term.send("rules")
        shown = term.expect("Press Enter to go back to the board")
        assert "How to play Celestials" in shown and "Type 'rules full'" in shown
        assert "move 1, seat 0" not in shown  # the board is not drawn again under the rules before the key
        assert any("Press Enter to go back to the board" in line for line in term.screen())
        term.send("")
        term.expect("move 1, seat 0")
        term.expect("seat 0>")
        assert term.leave_unsaved() == 0
    finally:
        term.close()


# -- 4. the end screen's command deals the same game again ---------------------------------------------------


def test_the_end_screen_prints_the_whole_command_and_it_deals_the_same_game_again() -> None:
    game = astrarium.get_game("constellations")
    state = game.new_game(2, 10, {"max_rounds": 2})
    c = console(width=200)
    PlayLoop(state, {0: "human", 1: "easy"}, c, lambda prompt: "1" if prompt.startswith("seat") else "").run()
    line = next(text for text in output(c).splitlines() if "deals this game again" in text)
    command = line.partition("deals this game again: ")[2]
    assert command == again_command(state, {0: "human", 1: "easy"})
    assert "--seat 1=easy" in command and "--option max_rounds=2" in command and "--seed 10" in command
    words = shlex.split(command)
    assert words[:2] == ["astrarium", "play"]
    result = runner.invoke(app, words[1:], input="quit\ny\n\n", env={"COLUMNS": "120", "LINES": "40"})
    assert result.exit_code == 0, result.output
    first = game.new_game(2, 10, {"max_rounds": 2})
    first_board = Console(file=io.StringIO(), width=120, color_system=None)
    first_board.print(first.render(0))
    assert output(first_board).splitlines()[3] in result.output  # a line of the first board, as it was dealt
    assert "Round 1/2" in result.output and "Hands: seat 1: 3 cards" in result.output


def test_the_command_gives_options_in_words_the_command_line_takes_back() -> None:
    game = astrarium.get_game("orbital-combat")
    for option in game.options:
        if option.choices and len(option.choices) > 1:
            value = next(c for c in option.choices if c != option.default)
            state = game.new_game(2, 4, {option.name: value})
            words = shlex.split(again_command(state, {0: "human", 1: "random"}))
            pairs = [words[i + 1] for i, w in enumerate(words) if w == "--option"]
            parsed = game.parse_options(dict(pair.split("=", 1) for pair in pairs))
            assert parsed[option.name] == value


# -- 5. the puzzle prompt: help, hint, and the level of today's puzzle ---------------------------------------


def test_the_puzzle_prompt_answers_help_and_hint_and_the_hints_solve_it() -> None:
    game = astrarium.get_game("constellations")
    puzzle = game.puzzles()[12]
    c = console()
    typed: list[str] = []

    def ask(prompt: str) -> str:
        if not typed:
            line = "help"
        elif typed[-1] == "hint":  # play the move the hint just named
            line = output(c).rpartition("Hint: try ")[2].partition(" (")[0]
        else:
            line = "hint"
        typed.append(line)
        return line

    assert play_puzzle(game, puzzle, c, ask) is True
    text = output(c)
    assert "Commands: hint" in text and "Notation:" in text
    assert 1 <= text.count("Hint: try ") <= puzzle.moves and "Solved in" in text
    assert "is not" not in text and "cannot read" not in text  # neither help nor hint was refused as a move


def test_today_s_puzzle_says_its_level_and_offers_the_week_s_easiest_first() -> None:
    game = astrarium.get_game("constellations")
    saturday = date(2026, 11, 28)
    hardest = max((saturday + timedelta(days=7 * w) for w in range(12)), key=lambda d: game.puzzles().index(game.puzzle_of_the_day(d)))
    today = game.puzzle_of_the_day(hardest)
    note, easier = today_note(game, today, hardest)
    assert f"{today.number} {today.name}, difficulty {today.difficulty}" in note
    assert easier is not None and easier == week_easiest(game, hardest)
    assert f"type easier at the prompt, or run: astrarium puzzle constellations {easier.number}" in note
    c = console()
    play_puzzle(game, today, c, answers(["easier"]), easier)
    assert f"Puzzle {easier.number}: {easier.name}" in output(c)


# -- 9. lists that fit, players told apart, levels everywhere, did you mean ------------------------------------


def test_on_an_80x24_screen_the_recap_keeps_its_last_lines_above_the_board_and_says_what_is_folded() -> None:
    term = Terminal(["play", "constellations", "--seed", "10", "--seat", "1=medium", "--option", "max_rounds=2"], rows=24, columns=80)
    try:
        for number, move in [(1, "rot c3"), (2, "play bk/2"), (3, "play rr/2")]:
            term.expect(f"move {number}, seat 0")
            term.expect("seat 0>")
            term.send(move)
        term.expect("move 6, seat 0")
        term.expect("seat 0>")
        screen = term.screen()
    finally:
        term.close()
    text = "\n".join(screen)
    assert "Since your last turn (moves 3 to 5)" in text, text
    assert "earlier lines folded: type history for every move" in text
    assert "A (seat 0) is next." in text  # the last line of the recap
    assert "Constellations: move 6, seat 0" in text and screen[-1].startswith("seat 0>")


def test_who_sits_where_puts_the_levels_first_and_tells_every_player_apart() -> None:
    for game_id in astrarium.list_games():
        if game_id.startswith("toy"):
            continue
        kinds = seat_kinds(game_id)
        assert kinds[:4] == ["human", "easy", "medium", "hard"]
        c = console()
        c.print(_kinds_table(kinds, game_id))
        rows = [" ".join(line.split("│")[3].split()) for line in output(c).splitlines() if line.count("│") == 4]
        assert len(rows) == len(kinds) and len(set(rows)) == len(rows), (game_id, rows)
    assert all(kind in KIND_WORDS for kind in astrarium.agents.agent_names())


def test_the_puzzle_list_is_one_line_a_puzzle_and_the_readme_counts_them() -> None:
    count = len(astrarium.get_game("constellations").puzzles())
    result = runner.invoke(app, ["puzzle", "constellations"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) <= count + 4 and max(len(line) for line in lines) <= 80
    assert "astrarium puzzle constellations today" in " ".join(result.output.split())
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    assert f"{count} solo puzzles" in readme


def test_an_unknown_level_names_the_levels_and_only_this_game_s_players() -> None:
    result = runner.invoke(app, ["play", "celestials", "--seat", "1=expert"])
    assert result.exit_code == 2
    message = " ".join(result.stderr.split())
    assert "the levels are easy, medium, hard" in message
    assert "greedy" in message and "cw-general" not in message and "sl-courier" not in message


def test_the_arena_takes_the_level_names_play_takes() -> None:
    game = astrarium.get_game("celestials")
    assert parse_lineup(["0=easy", "1=hard"], None, game) == ["greedy:epsilon=0.5", "mcts:depth=10,iterations=1000"]
    result = runner.invoke(app, ["arena", "celestials", "--games", "1", "--seat", "0=easy", "--seat", "1=Easy", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "greedy:epsilon=0.5" in result.output


def test_a_misspelt_card_in_an_action_gets_did_you_mean() -> None:
    state = astrarium.get_game("connected-worlds").new_game(2, 1)
    c = console()
    PlayLoop(state, {0: "human", 1: "random"}, c, answers(["deploy assult-team a1"])).run()
    assert "did you mean assault-team?" in output(c)


def test_no_after_a_game_goes_back_to_the_menu_and_the_question_says_so() -> None:
    prompts: list[str] = []
    choice = str(astrarium.list_games().index("toy-pile") + 1)
    random_seat = str(seat_kinds("toy-pile").index("random") + 1)
    feed = iter([choice, "2", random_seat, random_seat, "5", "n"])

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(feed, "q")

    c = console()
    run_menu(c, ask)
    again = next(p for p in prompts if p.startswith("Play again"))
    assert "n: back to the menu" in again and "q: quit" in again
    assert [p for p in prompts if p.startswith("Game")][1:], prompts  # after the game, the menu asked for a game again
    assert output(c).rstrip().endswith("Goodbye.")


def test_the_options_table_of_every_game_fits_an_80x24_screen_and_a_chosen_option_says_it_whole() -> None:
    from astrarium.cli.menu import _options_table, choose_options, menu_options

    for game_id in astrarium.list_games():
        game = astrarium.get_game(game_id)
        offered = menu_options(game)
        if not offered:
            continue
        c = console(width=80, height=24)
        c.print(_options_table(offered, game.default_options()))
        assert len(output(c).splitlines()) <= 24 - 2, game_id  # the table, then the prompt
    game = astrarium.get_game("connected-worlds")
    first = menu_options(game)[0]
    c = console(width=80, height=24)
    choose_options(answers(["1", "1", ""]), c, game, 2)
    assert " ".join(f"{first.name}: {first.help}".split()) in " ".join(output(c).split())


# -- 8. Words wrapped at word boundaries --------------------------------------------------------------------------


def test_a_hint_is_wrapped_by_the_program_at_word_boundaries_not_cut_by_the_terminal() -> None:
    # A line longer than the terminal, left to the terminal, breaks wherever the edge falls ("sy/stems"); the
    # program wraps it itself at spaces, so no written line is wider than the screen.
    term = Terminal(["play", "orbital-combat", "--seat", "1=human", "--seed", "4"], rows=40, columns=80)
    try:
        term.expect("seat 0>")
        term.send("hint")
        term.expect("Hint:")
        hint = [line for line in ("Hint:" + term.expect("seat 0>")).splitlines() if line.strip()]
        assert len(hint) > 1 and all(len(line) <= 80 for line in hint), hint
        assert term.leave_unsaved() == 0
    finally:
        term.close()


def test_info_knows_the_words_and_marks_the_boards_show() -> None:
    celestials, streamlines = astrarium.get_game("celestials"), astrarium.get_game("streamlines")
    assert celestials.info("offence").startswith("offence position: position 2 (the Sun's) or 3 (the Moon's)")
    assert celestials.info("Defence").startswith("defence position:")
    assert streamlines.info("ESC").startswith("escape: ESC on the board")
    assert streamlines.info("BH").startswith("black hole:")
    assert astrarium.get_game("constellations").info("C").startswith("C: the comet")
