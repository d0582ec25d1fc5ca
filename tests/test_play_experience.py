"""The terminal play experience: computer players that answer in time and show they think, the recap of what
happened since a person's last turn, history and move numbers, the end screen, leaving a game, line editing.

Every test drives the real play loop with a scripted person (an ``ask`` that answers each prompt) and a
computer seat, and reads what the console printed.
"""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

import astrarium
from astrarium.agents import make_agent
from astrarium.agents.levels import LEVELS, PLAY_SECONDS, level_names, level_summary, table_spec
from astrarium.cli.menu import run_menu, seat_kinds
from astrarium.cli.session import PlayLoop, parse_seats
from astrarium.core.game import State

GAMES = [g for g in astrarium.list_games() if not g.startswith("toy")]


class Person:
    """A scripted person: answers each prompt from a list of (prompt start, answer) rules, and notes every prompt."""

    def __init__(self, turn: Callable[[int], str] | list[str], save: str = "", leave: str = "y") -> None:
        self.turn = turn
        self.save = save
        self.leave = leave
        self.prompts: list[str] = []
        self.turns = 0

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("Save the game's record"):
            return self.save
        if prompt.startswith("Save it first"):
            return self.save
        if prompt.startswith("Leave this unfinished game"):
            answer, self.leave = self.leave, "y"  # the answer given once; asked again, the person leaves
            return answer
        if prompt.startswith("seat "):
            self.turns += 1
            if isinstance(self.turn, list):
                if not self.turn:
                    raise EOFError
                return self.turn.pop(0)
            return self.turn(self.turns)
        return ""


def console(terminal: bool = False, width: int = 120, height: int = 40) -> Console:
    return Console(file=io.StringIO(), width=width, height=height, color_system=None, force_terminal=terminal)


def output(c: Console) -> str:
    return c.file.getvalue()  # type: ignore[attr-defined]


def two_seat_game(game_id: str, seed: int = 1):
    game = astrarium.get_game(game_id)
    return game.new_game(max(2, game.min_players), seed)


# -- 1. computer players -------------------------------------------------------------------------


def test_levels_are_named_for_a_person_easiest_first() -> None:
    assert level_names() == ["easy", "medium", "hard"]
    assert table_spec("easy") == "greedy"
    assert table_spec("medium") == "mcts:seconds=0.3"
    assert table_spec("HARD") == "mcts:seconds=2"
    assert table_spec("hard", True) == "ismcts:seconds=2"  # hidden cards or chance: information-set search
    assert all(LEVELS[name].summary for name in level_names())


def test_a_search_without_a_budget_thinks_about_a_second_at_a_table() -> None:
    assert table_spec("mcts") == f"mcts:seconds={PLAY_SECONDS:g}"
    assert table_spec("ismcts:c=2") == f"ismcts:c=2,seconds={PLAY_SECONDS:g}"
    assert table_spec("mcts:iterations=50") == "mcts:iterations=50"  # a budget given is kept
    assert table_spec("random") == "random"
    assert make_agent("mcts").iterations == 1000  # type: ignore[attr-defined]  # the arena keeps its iteration budget


def test_a_level_is_a_seat_on_the_command_line_and_kept_by_name() -> None:
    assert parse_seats(["1=hard", "2=Easy"], 3) == {0: "human", 1: "hard", 2: "easy"}
    loop = PlayLoop(two_seat_game("orbital-combat"), {0: "human", 1: "hard"}, console(), Person([]))
    assert type(loop.agents[1]).__name__ == "MCTSAgent" and loop.agents[1].seconds == 2  # type: ignore[attr-defined]
    loop = PlayLoop(two_seat_game("celestials"), {0: "human", 1: "hard"}, console(), Person([]))
    hard = loop.agents[1]
    assert type(hard).__name__ == "MCTSAgent" and (hard.iterations, hard.seconds) == (1000, 2)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_default_search_answers_within_two_seconds_mid_game(game_id: str) -> None:
    import random

    state = two_seat_game(game_id, 5)
    rand = random.Random(5)
    for _ in range(12):  # a mid-game position, reached by random play
        if state.is_over:
            break
        state.apply(rand.choice(state.legal_actions()))
    if state.is_over:
        state = two_seat_game(game_id, 5)
    loop = PlayLoop(state, {seat: "mcts" for seat in range(state.players)}, console(), Person([]))
    seat = state.current_player
    assert seat is not None
    started = time.monotonic()
    action = loop.agents[seat].choose(state)
    assert time.monotonic() - started < 2.0
    assert action in state.legal_actions()


def test_a_computer_seat_shows_that_it_is_thinking() -> None:
    c = console(terminal=True)
    loop = PlayLoop(two_seat_game("orbital-combat"), {0: "human", 1: "easy"}, c, Person(["1", "1"]))
    loop.run()
    text = output(c)
    assert "Seat 1 (easy) is thinking… 0.0 s" in text
    assert loop.state.move_number >= 3  # the person's two moves and the computer's answer


def test_the_thinking_line_keeps_time_while_a_search_thinks() -> None:
    c = console(terminal=True)
    loop = PlayLoop(two_seat_game("orbital-combat"), {0: "human", 1: "mcts:seconds=0.5"}, c, Person(["1"]))
    loop.run()
    shown = [float(s) for s in re.findall(r"Seat 1 \(mcts:seconds=0\.5\) is thinking… (\d+\.\d) s", output(c))]
    assert shown[0] == 0.0 and max(shown) >= 0.2  # the clock moved while the search ran


def test_the_menu_offers_the_levels_with_what_they_mean() -> None:
    kinds = seat_kinds("constellations")
    assert kinds[:4] == ["human", "easy", "medium", "hard"]  # the levels first, where a newcomer looks
    c = console()
    answers = iter([str(astrarium.list_games().index("toy-pile") + 1), "2"])  # the game and two players; then the input ends

    def ask(prompt: str) -> str:
        return next(answers)  # StopIteration past the end is not EOFError: a wrong prompt order fails loudly

    with pytest.raises(StopIteration):
        run_menu(c, ask)
    text = output(c)
    for level in level_names():
        assert LEVELS[level].summary in text


def test_the_menu_says_what_a_games_own_level_plays() -> None:
    c = console()
    answers = iter([str(astrarium.list_games().index("connected-worlds") + 1), "2"])

    def ask(prompt: str) -> str:
        if prompt.startswith("Seat"):
            raise StopIteration  # the table of who may sit where has been shown
        if prompt.startswith("Game") or prompt.startswith("Players"):
            return next(answers)
        return ""  # every option at its default

    with pytest.raises(StopIteration):
        run_menu(c, ask)
    text = " ".join(output(c).split())
    assert level_summary("medium", "connected-worlds") in text and "guards what the enemy can strike" in text
    assert level_summary("hard", "connected-worlds") in text and LEVELS["easy"].summary in text


# -- 2. the recap, board, history and move numbers ------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_the_recap_tells_the_computers_moves_in_words_with_their_numbers(game_id: str) -> None:
    c = console(height=400)  # room for every line (a screen's height folds the earliest: test_play_polish)
    person = Person(["1", "1", "1", "1"])
    loop = PlayLoop(two_seat_game(game_id, 3), {0: "human", 1: "random"}, c, person)
    loop.run()
    text = output(c)
    bot_moves = [told for told in loop.told if told.mover == 1]
    assert bot_moves, game_id
    assert "Since your last turn" in text
    for told in bot_moves:
        if told.number <= loop._seen[0]:  # shown before the person left
            lines = told.lines[0]
            assert f"{told.number:>4}. {lines[0]}" in text
            flat = " ".join(text.split())  # a long line may wrap at the console's width
            assert all(" ".join(line.split()) in flat for line in lines[1:])  # what it caused, not only the action


def test_the_recap_names_effects_such_as_damage() -> None:
    c = console()
    loop = PlayLoop(two_seat_game("orbital-combat", 2), {0: "human", 1: "greedy"}, c, Person(lambda n: "1" if n < 12 else "quit"))
    loop.run()
    text = output(c)
    assert "fires weapons" in text or "loses" in text or "hull" in text


def test_board_redraws_and_history_numbers_moves_as_the_header_does() -> None:
    c = console()
    loop = PlayLoop(two_seat_game("constellations", 4), {0: "human", 1: "easy"}, c, Person(["1", "board", "history"]))
    loop.run()
    text = output(c)
    next_move = loop.state.move_number + 1
    assert text.count(f": move {next_move}, seat 0") == 2  # the position, then 'board' drew it again
    assert "The game so far" in text
    for told in loop.told:
        assert f"{told.number:>4}. {told.lines[0][0]}" in text


def test_undo_names_the_move_the_header_shows() -> None:
    c = console()
    loop = PlayLoop(
        astrarium.get_game("toy-pile").new_game(2, 3, {"target": 60, "copies": 4}), {0: "human", 1: "random"}, c, Person(["1", "1", "undo"])
    )
    loop.run()
    text = output(c)
    assert "Took back to move 3." in text and "Toy Pile: move 3, seat 0" in text
    assert [t.number for t in loop.told] == [1, 2]


def test_a_computer_game_logs_each_move_in_words() -> None:
    c = console()
    loop = PlayLoop(two_seat_game("streamlines", 2), {0: "random", 1: "random"}, c, Person([]))
    loop.run()
    text = output(c)
    for told in loop.told:
        assert f"Seat {told.mover} (random) plays move {told.number}:\n  {told.lines[None][0]}" in text


def forced_position(game_id: str):
    """A position of ``game_id`` reached by random play where the seat to move has exactly one legal action."""
    import random

    for seed in range(40):
        state = two_seat_game(game_id, seed)
        rand = random.Random(seed)
        while not state.is_over:
            if len(state.legal_actions()) == 1:
                return state
            state.apply(rand.choice(state.legal_actions()))
    raise AssertionError(f"no forced position found in {game_id}")


@pytest.mark.parametrize("game_id", ["streamlines", "celestials"])
def test_a_forced_single_choice_is_played_and_said(game_id: str) -> None:
    state = forced_position(game_id)
    seat = state.current_player
    assert seat is not None
    only = str(state.legal_actions()[0])
    c = console()
    seats = {s: "human" for s in range(state.players)}
    loop = PlayLoop(state, seats, c, Person([]))
    before = state.move_number
    loop.run()
    assert loop.state.history[before] == only
    assert f"Move {before + 1}: seat {seat} has one choice, {only}, played for you." in output(c)
    assert before in loop.forced


# -- 3. the end screen and leaving ------------------------------------------------------------------


#: Games whose whole game at the table is long: the quick suite ends them early by these options (the end screen of a
#: shortened game), the slow suite plays them at their default length.
SHORTENED = {"connected-worlds": {"round_limit": 3}}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_end_screen_names_the_winner_and_offers_to_save(game_id: str, tmp_path: Path) -> None:
    game = astrarium.get_game(game_id)
    check_end_screen(game.new_game(max(2, game.min_players), 2, SHORTENED.get(game_id, {})), tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(SHORTENED))
def test_the_end_screen_of_a_game_of_the_default_length(game_id: str, tmp_path: Path) -> None:
    check_end_screen(two_seat_game(game_id, 2), tmp_path)


def check_end_screen(state: State, tmp_path: Path) -> None:
    """Play ``state`` to its end at the table, the person always picking the first action, and read the end screen."""
    c = console()
    record = tmp_path / "end.json"
    person = Person(lambda n: "1", save=str(record))
    loop = PlayLoop(state, {0: "human", 1: "random"}, c, person)
    loop.run()
    text = output(c)
    assert loop.state.is_over
    assert "Game over" in text
    assert "Winner" in text or "draw" in text or "Everyone" in text or "Nobody" in text
    assert f"Game length: {loop.state.move_number} moves" in text
    assert any(p.startswith("Save the game's record") for p in person.prompts)
    assert json.loads(record.read_text())["actions"] == loop.state.history
    reason = loop.state.outcome.reason  # type: ignore[union-attr]
    assert text.count(reason) == 1, reason  # said once, not twice


def test_quit_asks_to_confirm_and_no_keeps_playing() -> None:
    c = console()
    person = Person(["quit", "1"], leave="n")
    loop = PlayLoop(two_seat_game("constellations"), {0: "human", 1: "easy"}, c, person)
    loop.run()
    assert any(p.startswith("Leave this unfinished game (move 1 is next)") for p in person.prompts)
    assert "Back to the game." in output(c)
    assert loop.state.move_number >= 1  # the person played on after saying no


def test_quit_offers_to_save_before_leaving(tmp_path: Path) -> None:
    c = console()
    kept = tmp_path / "left.json"
    person = Person(["1", "quit"], save=str(kept))
    loop = PlayLoop(two_seat_game("constellations"), {0: "human", 1: "easy"}, c, person)
    loop.run()
    assert any(p.startswith("Save it first") for p in person.prompts)
    assert json.loads(kept.read_text())["actions"] == loop.state.history
    assert "Left the game after" in output(c)


def test_end_of_input_asks_to_confirm_then_leaves() -> None:
    c = console()
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        raise EOFError

    loop = PlayLoop(two_seat_game("constellations"), {0: "human", 1: "easy"}, c, ask)
    loop.run()
    assert any(p.startswith("Leave this unfinished game") for p in asked)
    assert "Left the game after 0 moves" in output(c)


def test_saving_into_a_missing_folder_at_the_end_is_a_clear_error_and_asks_again(tmp_path: Path) -> None:
    c = console()
    answers = iter([str(tmp_path / "no" / "such" / "g.json"), ""])
    person = Person(lambda n: "1")
    person.save = ""

    def ask(prompt: str) -> str:
        if prompt.startswith("Save the game's record"):
            return next(answers)
        return person(prompt)

    loop = PlayLoop(two_seat_game("orbital-combat", 3), {0: "human", 1: "random"}, c, ask)
    loop.run()
    text = output(c)
    assert "Errno" not in text and "Traceback" not in text


@pytest.mark.parametrize("answer", ["quit", "exit", "skip", "No"])
def test_a_word_for_no_at_the_end_saves_nothing(answer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the fault: "quit" typed at the end was taken for a file name, and a file called quit appeared
    monkeypatch.chdir(tmp_path)
    person = Person(lambda n: "1")
    person.save = answer
    loop = PlayLoop(two_seat_game("orbital-combat", 3), {0: "human", 1: "random"}, console(), person)
    loop.run()
    assert loop.state.is_over
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("answer", ["n", "quit"])
def test_a_word_for_no_when_leaving_saves_nothing(answer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    person = Person(["1", "quit"], save=answer)
    loop = PlayLoop(two_seat_game("constellations"), {0: "human", 1: "easy"}, console(), person)
    loop.run()
    assert any(p.startswith("Save it first") for p in person.prompts)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["save {path}", "SAVE {path}", "share {path}"])
def test_the_save_command_typed_at_the_end_saves_to_the_file_it_names(command: str, tmp_path: Path) -> None:
    path = tmp_path / "end.json"
    person = Person(lambda n: "1")
    person.save = command.format(path=path)
    loop = PlayLoop(two_seat_game("orbital-combat", 3), {0: "human", 1: "random"}, console(), person)
    loop.run()
    record = json.loads(path.read_text())
    assert record["actions"] == loop.state.history
    assert ("seed" in record) is command.lower().startswith("save")


# -- 4. line editing, 5. small things ------------------------------------------------------------


def test_tab_completes_a_legal_actions_notation_and_commands() -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from astrarium.cli.session import NotationCompleter

    completer = NotationCompleter()
    completer.choices = ["rot burn pro soft", "rot coast", "play 1"]
    found = [c.text for c in completer.get_completions(Document("rot b"), CompleteEvent(completion_requested=True))]
    assert found == ["rot burn pro soft"]
    found = [c.text for c in completer.get_completions(Document("hi"), CompleteEvent(completion_requested=True))]
    assert found == ["hint", "history"]
    found = [c.text for c in completer.get_completions(Document("his"), CompleteEvent(completion_requested=True))]
    assert found == ["history"]


def test_the_line_editor_recalls_earlier_lines_with_the_up_arrow() -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from astrarium.cli.session import LineAsk

    with create_pipe_input() as keys:
        ask = LineAsk(console(), input=keys, output=DummyOutput())
        keys.send_text("rot coast\r")
        assert ask("seat 0> ") == "rot coast"
        keys.send_text("\x1b[A\r")  # the up arrow, then Enter
        assert ask("seat 0> ") == "rot coast"
        keys.send_text("\x04")  # Ctrl-D on an empty line
        with pytest.raises(EOFError):
            ask("seat 0> ")
        assert ask.ended


def test_replay_says_who_sat_in_which_seat() -> None:
    from astrarium.cli.app import seated_line

    assert seated_line({"seats": {"0": "human", "1": "hard"}}) == "Players: seat 0 human, seat 1 hard."
    assert seated_line({"seats": ["human"]}) == ""
    assert seated_line({}) == ""


@pytest.mark.parametrize("game_id", GAMES)
def test_the_default_search_and_medium_answer_within_two_seconds_deep_in_a_game(game_id: str) -> None:
    """Later positions are the widest in several games (more pieces, fuller boards): still within 2 s, with margin.

    The default search thinks 1 s a move and ``medium`` 0.3 s; 2 s leaves a
    second for building the player, copying the position and a busy machine.
    Each answer is timed twice and the faster time counts: other processes on
    a shared machine can only add time, never take it away.
    """
    import random

    rand = random.Random(11)
    state = two_seat_game(game_id, 11)
    positions = []
    for step in range(1, 61):
        if state.is_over:
            break
        state.apply(rand.choice(state.legal_actions()))
        if step in (30, 60) and not state.is_over:
            positions.append(state.clone())
    assert positions, "random play ended before move 30"
    for position in positions:
        seats = {seat: "mcts" if seat % 2 == 0 else "medium" for seat in range(position.players)}
        seat = position.current_player
        assert seat is not None
        times = []
        for _ in range(2):
            loop = PlayLoop(position.clone(), seats, console(), Person([]))
            started = time.monotonic()
            action = loop.agents[seat].choose(position)
            times.append(time.monotonic() - started)
            assert action in position.legal_actions()
        assert min(times) < 2.0
