"""The command line on bad input: one clear line, a non-zero exit, nothing changed, never a traceback.

Records, seat specs, paths and prompt lines come from strangers. Each test here
is a fault the command line had: a record whose ``seats`` is a list, a search
told to think for ``nan`` seconds, a results file in a missing folder found
only after every game was played, a prompt that fed ``²`` to ``int()``, every
default game dealt from seed 0, no way to share an unfinished game safely.
"""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import astrarium
from astrarium.cli import app
from astrarium.cli.menu import run_menu, seat_kinds
from astrarium.cli.puzzles import play_puzzle
from astrarium.cli.session import PlayLoop, step_through
from helpers import answers as scripted

runner = CliRunner()
TOY = astrarium.get_game("toy-pile")


def console() -> Console:
    return Console(file=io.StringIO(), width=100, color_system=None)


def output(c: Console) -> str:
    return c.file.getvalue()  # type: ignore[attr-defined]


def record_of(state, **extra) -> dict:
    return {**state.to_record(), **extra}


def one_error_line(result) -> str:
    """The command's error: exactly one line on standard error, starting 'error:'."""
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.fixture
def garbage(tmp_path: Path) -> dict[str, str]:
    """Record files no command may crash on, by name."""
    game = TOY.new_game(2, 1)
    good = game.to_record()
    files = {
        "deep": "[" * 5000 + "]" * 5000,
        "deep-object": '{"a":' * 3000 + "1" + "}" * 3000,
        "game-list": json.dumps({**good, "game": ["celestials"]}),
        "version-true": json.dumps({**good, "version": True}),
        "options-list": json.dumps({**good, "options": []}),
        "not-json": "{nope",
        "a-list": "[1, 2]",
        "bad-move": json.dumps({**good, "actions": ["fly away"]}),
        "seed-text": json.dumps({**good, "seed": "7"}),
    }
    paths = {}
    for name, text in files.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        paths[name] = str(path)
    bad_utf8 = tmp_path / "bad-utf8.json"
    bad_utf8.write_bytes(b'{"game": "\xff\xfe"}')
    paths["bad-utf8"] = str(bad_utf8)
    os.mkfifo(tmp_path / "fifo.json")
    paths["fifo"] = str(tmp_path / "fifo.json")
    paths["dev-zero"] = "/dev/zero"
    paths["folder"] = str(tmp_path)
    paths["nul"] = str(tmp_path / "a\x00b.json")
    paths["long"] = "x" * 5000 + ".json"
    paths["missing"] = str(tmp_path / "none.json")
    return paths


GARBAGE_MESSAGES = {
    "deep": "nested more than 32 levels deep",
    "deep-object": "nested more than 32 levels deep",
    "game-list": "record field 'game' must be a game id",
    "version-true": "record version True is not supported",
    "options-list": "record field 'options' must be an object",
    "not-json": "not JSON",
    "a-list": "a record is a JSON object, not list",
    "bad-move": "move 1 ('fly away') does not replay",
    "seed-text": "record field 'seed' must be a whole number",
    "bad-utf8": "not UTF-8 text",
    "fifo": "not a regular file",
    "dev-zero": "not a regular file",
    "folder": "a folder",
    "nul": "NUL character",
    "long": "longer than 1024 characters",
    "missing": "cannot read",
}


# -- item 9: no traceback, ever ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GARBAGE_MESSAGES))
def test_replay_of_a_garbage_record_is_one_line(garbage: dict[str, str], name: str) -> None:
    result = runner.invoke(app, ["replay", garbage[name]])
    assert result.exit_code == 2
    assert GARBAGE_MESSAGES[name] in one_error_line(result)
    result = runner.invoke(app, ["replay", "--final", garbage[name]])
    assert result.exit_code == 2 and GARBAGE_MESSAGES[name] in one_error_line(result)


def test_in_game_load_of_a_garbage_record_is_one_line_and_changes_nothing(garbage: dict[str, str]) -> None:
    state = TOY.new_game(2, 5)
    before = state.to_record()
    c = console()
    loop = PlayLoop(state, {0: "human", 1: "human"}, c, scripted([f"load {garbage[name]}" for name in sorted(GARBAGE_MESSAGES)]))
    loop.run()
    assert loop.state.to_record() == before
    text = output(c)
    assert "Traceback" not in text
    lines = text.splitlines()
    for name, message in GARBAGE_MESSAGES.items():
        assert any(message in line and len(line) < 450 for line in lines), name


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["human", "random"], "record field 'seats' must be an object of seat numbers and players"),
        ("random", "record field 'seats' must be an object"),
        ({"x": "random"}, "record field 'seats': 'x' is not a seat number from 0 to 1"),
        ({"5": "random"}, "'5' is not a seat number from 0 to 1"),
        ({"²": "random"}, "is not a seat number"),
        ({"0": 5}, "seat 0: a player such as 'human' or 'random', not 5"),
        ({"1": "wizard"}, "unknown player kind 'wizard'"),
        ({"1": "mcts:seconds=nan"}, "not a finite number"),
        ({"1": "mcts:foo=1"}, "mcts has no option 'foo'"),
        ({"0": "human:x=1"}, "a human player takes no options"),
    ],
)
def test_play_load_checks_the_records_seats_field(tmp_path: Path, seats: object, message: str) -> None:
    # the fault: a record whose seats is a list raised AttributeError ('list' object has no attribute 'items')
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record_of(TOY.new_game(2, 3), seats=seats)))
    result = runner.invoke(app, ["play", "toy-pile", "--load", str(path)])
    assert result.exit_code == 2
    line = one_error_line(result)
    assert message in line and str(path) in line


def test_play_load_takes_the_seats_from_the_record_and_lets_seat_override(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record_of(TOY.new_game(2, 3), seats={"0": "random", "1": "greedy"})))
    result = runner.invoke(app, ["play", "toy-pile", "--load", str(path)])
    assert result.exit_code == 0, result.output
    assert "Seat 1 (greedy) plays" in result.stdout and "Game over" in result.stdout
    result = runner.invoke(app, ["play", "toy-pile", "--load", str(path), "--seat", "1=random"])
    assert result.exit_code == 0 and "Seat 1 (random) plays" in result.stdout


@pytest.mark.parametrize("extra", [["--seed", "3"], ["--players", "3"], ["--option", "target=20"]])
def test_play_load_refuses_options_the_record_decides(tmp_path: Path, extra: list[str]) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(TOY.new_game(2, 3).to_record()))
    result = runner.invoke(app, ["play", "toy-pile", "--load", str(path), *extra])
    assert result.exit_code == 2
    assert "its players, seed and options come from the record" in one_error_line(result)


def test_play_load_of_another_games_record_names_both(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(astrarium.get_game("constellations").new_game(1, 3).to_record()))
    result = runner.invoke(app, ["play", "toy-pile", "--load", str(path)])
    assert result.exit_code == 2 and "is a record of 'constellations', not 'toy-pile'" in one_error_line(result)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "toy-pile", "--seat", "²=random"], "'²' is not a seat number"),
        (["play", "toy-pile", "--seat", "9" * 5000 + "=random"], "is not a seat number"),
        (["play", "toy-pile", "--seat", "1=random", "--seat", "1=greedy"], "seat 1 is named twice"),
        (["play", "toy-pile", "--seat", "0=human:fast=1"], "a human player takes no options"),
        (["play", "toy-pile", "--option", "target"], "should look like name=value"),
        (["play", "toy-pile", "--option", "target=20", "--option", "target=30"], "'target' is given twice"),
        (["arena", "toy-pile", "--seat", "99999999999=random"], "seats are numbered 0 to 2"),
        (["arena", "toy-pile", "--seat", "1=random", "--seat", "1=greedy"], "seat 1 is named twice"),
        (["arena", "toy-pile", "--players", "99999999999999999999"], "option 'players'"),
        (["arena", "toy-pile", "--seat", "0=Human"], "computer players only"),
        (["puzzle", "constellations", "999999999999999999999999"], "has puzzles 1 to"),
        (["rules", "x" * 5000], "no game called"),
    ],
)
def test_seat_and_option_text_is_checked_without_int_or_lists_growing(args: list[str], message: str) -> None:
    # the faults: '²'.isdigit() is True but int('²') fails; a seat of 99999999999 built a line-up that long
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    line = one_error_line(result)
    assert message in line and len(line) <= 420


# -- item 10: options that never stop, processes without end, paths found bad too late ----------------------


@pytest.mark.parametrize("command", ["play", "arena"])
@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:seconds=nan", "not a finite number"),
        ("ismcts:seconds=inf", "not a finite number"),
        ("mcts:seconds=-1", "seconds must be a number above 0 and at most 3600"),
        ("mcts:seconds=99999", "seconds must be a number above 0 and at most 3600"),
        ("mcts:iterations=1e12", "iterations must be a whole number from 1 to 10,000,000"),
        ("mcts:c=nan", "not a finite number"),
        ("greedy:samples=1e9", "samples must be a whole number from 1 to 1,000"),
        ("mcts:foo=1", "mcts has no option 'foo'; its options are iterations, seconds"),
    ],
)
def test_a_seat_option_out_of_range_is_refused_before_the_game(command: str, spec: str, message: str) -> None:
    result = runner.invoke(app, [command, "toy-pile", "--seat", f"1={spec}", "--games" if command == "arena" else "--players", "2"])
    assert result.exit_code == 2
    line = one_error_line(result)
    assert message in line and "TypeError" not in line


def test_jobs_are_capped_at_the_games_and_the_cores_with_a_warning() -> None:
    # the fault: --jobs 100000 forked a worker per game whatever the machine
    from astrarium.cli.arena import choose_workers, cores

    assert choose_workers(100_000, 3) <= min(3, cores())
    assert choose_workers(None, 1) == 1
    assert choose_workers(1, 5) == 1
    with pytest.raises(ValueError, match="--jobs 0: at least 1"):
        choose_workers(0, 5)
    result = runner.invoke(app, ["arena", "toy-pile", "-n", "1", "-j", "100000"])
    assert result.exit_code == 0, result.output
    assert f"this machine has {cores()} core(s); playing on 1 process(es)" in result.stderr
    assert "1 process(es)" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "/nonexistent/r.json"], "/nonexistent/r.json: file: cannot write: the folder '/nonexistent' does not exist"),
        (["--out", "{tmp}"], "it is a folder"),
        (["--records", "/dev/null"], "cannot keep records in '/dev/null': it is not a folder"),
        (["--games", "1000000000000"], "the arena plays from 1 to 1,000,000,000 games"),
        (["--jobs", "-3"], "--jobs -3: at least 1"),
    ],
)
def test_arena_paths_and_counts_fail_before_any_game_is_played(monkeypatch, tmp_path: Path, args: list[str], message: str) -> None:
    # the fault: --out /nonexistent/r.json failed after every game was played, and the results were lost
    from astrarium.cli import arena as arena_module

    def no_games(*_args, **_kwargs):
        raise AssertionError("a game was played before the bad input was refused")

    monkeypatch.setattr(arena_module, "run_matches", no_games)
    (tmp_path / "r.json").mkdir()
    args = [arg.replace("{tmp}", str(tmp_path / "r.json")) for arg in args]
    result = runner.invoke(app, ["arena", "toy-pile", "--games", "2", *args] if "--games" not in args else ["arena", "toy-pile", *args])
    assert result.exit_code == 2
    assert message in one_error_line(result)


def test_arena_out_in_a_folder_that_vanished_says_the_games_were_played(tmp_path: Path, monkeypatch) -> None:
    from astrarium.cli import arena as arena_module

    folder = tmp_path / "gone"
    folder.mkdir()
    real = arena_module.run_matches

    def play_then_remove(*args, **kwargs):
        results = real(*args, **kwargs)
        folder.rmdir()
        return results

    monkeypatch.setattr(arena_module, "run_matches", play_then_remove)
    result = runner.invoke(app, ["arena", "toy-pile", "-n", "2", "--out", str(folder / "r.json")])
    assert result.exit_code == 2
    assert "the games were played but the results were not saved" in one_error_line(result)
    assert "Mean game length" in result.stdout  # the summary was shown before the file failed


def test_a_megabyte_line_at_the_play_prompt_is_not_echoed_back() -> None:
    state = TOY.new_game(2, 5)
    before = state.to_record()
    c = console()
    lines = ["x" * 1_000_000, "9" * 1_000_000, "play " + "9" * 5000, "²", "\x1b[2J" + "y" * 100, "save " + "z" * 100_000]
    loop = PlayLoop(state, {0: "human", 1: "human"}, c, scripted(lines))
    loop.run()
    text = output(c)
    assert loop.state.to_record() == before
    assert len(text) < 20_000
    assert "\x1b" not in text  # control characters are shown escaped, not sent to the terminal
    assert all(len(line) < 450 for line in text.splitlines())
    assert "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" in text and "is not an action" in text
    assert "9999999999999999999… is not in the list: choose 1 to" in text
    assert "² is not in the list: choose 1 to" in text
    assert "\\x1b[2Jyyy" in text
    assert "the path is longer than 1024 characters" in text


def test_the_puzzle_prompt_answers_strange_digits_with_one_line() -> None:
    # the fault: 'rot a²' or 5,000 digits went to int() and printed a traceback
    game = astrarium.get_game("constellations")
    puzzle = game.puzzles()[0]
    c = console()
    lines = ["rot a²", "²", "9" * 5000, "rot a" + "9" * 5000, "0", "x" * 1_000_000, "quit"]
    assert play_puzzle(game, puzzle, c, scripted(lines)) is False
    text = output(c)
    assert "Traceback" not in text
    assert "² is not in the list" in text and "0 is not in the list" in text
    assert "'rot a²' is not an action" in text
    assert len(text) < 50_000


def test_replay_and_menu_prompts_read_only_plain_numbers() -> None:
    state = TOY.new_game(2, 2)
    state.apply(state.legal_actions()[0])
    c = console()
    step_through(state.to_record(), c, scripted(["²", "9" * 5000, "1", "q"]))
    text = output(c)
    assert text.count("Enter, b, a move number from 0 to 1 or q.") == 2
    assert "position after move 1 of 1" in text
    c = console()
    run_menu(c, scripted(["²", "9" * 5000, "-1"]))
    assert output(c).count("Please type a number from 1 to") == 3


@pytest.mark.parametrize(
    ("text", "number"),
    [("7", 7), (" 12 ", 12), ("²", None), ("٣", None), ("9" * 19, None), ("-1", None), ("1.0", None), ("", None), ("0x1", None)],
)
def test_prompt_numbers_are_plain_ascii_digits(text: str, number: int | None) -> None:
    from astrarium.cli.common import parse_number

    assert parse_number(text) == number


def test_one_line_cuts_and_shows_control_characters() -> None:
    from astrarium.cli.common import one_line

    line = one_line("bad\n\x1b[31mred" + "x" * 1000)
    assert "\n" not in line and "\x1b" not in line and "\\x1b" in line and len(line) == 400


def test_an_argument_too_long_to_be_meant_is_refused_before_parsing() -> None:
    from astrarium.cli.app import check_arguments

    assert check_arguments(["play", "toy-pile"]) is None
    problem = check_arguments(["play", "--" + "x" * 100_000])
    assert problem is not None and "100,002 characters long; the limit is 10,000" in problem and len(problem) < 200


# -- item 11: a fresh seed when none is given ---------------------------------------------------------------

SEED = re.compile(r"Seed (\d+) deals this game again: astrarium play (\S+) .*--seed \1\b")


def shown_seed(text: str) -> int:
    found = SEED.findall(text)
    assert found, text[-500:]
    return int(found[-1][0])


def test_play_without_a_seed_deals_a_fresh_game_and_shows_its_seed() -> None:
    # the fault: every default game was dealt from seed 0
    args = ["play", "toy-pile", "--seat", "0=random", "--seat", "1=random"]
    runs = [runner.invoke(app, args) for _ in range(3)]
    assert all(r.exit_code == 0 for r in runs)
    seeds = [shown_seed(r.stdout) for r in runs]
    assert len(set(seeds)) > 1
    again = runner.invoke(app, [*args, "--seed", str(seeds[0])])  # the seed shown deals the same game again
    assert again.stdout == runs[0].stdout


def test_the_seed_shown_is_the_one_kept_in_a_saved_record(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    # saved at the first prompt: a game the table plays on by itself (one choice each time) can end before a later one
    result = runner.invoke(app, ["play", "toy-pile"], input=f"save {path}\nquit\n")
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert record["seed"] == shown_seed(result.stdout)
    assert astrarium.replay(record).history == record["actions"]


def test_a_game_without_secrets_shows_its_seed_at_the_start() -> None:
    result = runner.invoke(app, ["play", "orbital-combat", "--seat", "0=random", "--seat", "1=random"])
    assert result.exit_code == 0
    assert SEED.search(result.stdout.splitlines()[0])


def test_the_menu_deals_a_fresh_game_unless_a_seed_is_typed() -> None:
    choice = str(astrarium.list_games().index("toy-pile") + 1)
    bot = str(seat_kinds("toy-pile").index("random") + 1)
    seeds = []
    for _ in range(3):
        c = console()
        run_menu(c, scripted([choice, "2", bot, "", "", "n"]))
        seeds.append(shown_seed(output(c)))
    assert len(set(seeds)) > 1
    c = console()
    run_menu(c, scripted([choice, "2", bot, "", "77", "n"]))
    assert shown_seed(output(c)) == 77


# -- item 12: sharing an unfinished game safely -------------------------------------------------------------


@pytest.mark.parametrize("command", ["share {path}", "save {path} public", "SAVE {path} PUBLIC"])
def test_share_writes_a_public_record_without_the_seed(tmp_path: Path, command: str) -> None:
    state = TOY.new_game(2, 9)
    path = tmp_path / "shared.json"
    c = console()
    loop = PlayLoop(state, {0: "human", 1: "random"}, c, scripted(["1", command.format(path=path)]))
    loop.run()
    record = json.loads(path.read_text())
    assert record["public"] is True and "seed" not in record
    assert record["views"] == loop.state.to_record(public=True)["views"]
    assert record["actions"] == loop.state.history and len(record["views"]) == 3
    assert record["seats"] == {"0": "human", "1": "random"}
    assert "no seed, only what a spectator saw" in output(c)


def test_save_warns_that_a_record_holds_the_seed(tmp_path: Path) -> None:
    state = TOY.new_game(2, 9)
    c = console()
    PlayLoop(state, {0: "human", 1: "human"}, c, scripted([f"save {tmp_path / 'g.json'}"])).run()
    assert "It holds the seed, which rebuilds every hand and draw; to give the game away, share it." in output(c)
    assert "seed" in json.loads((tmp_path / "g.json").read_text())


def test_replay_of_a_public_record_lists_its_moves(tmp_path: Path) -> None:
    state = TOY.new_game(2, 4)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(state.to_record(public=True)))
    for extra in ([], ["--final"]):
        result = runner.invoke(app, ["replay", str(path), *extra])
        assert result.exit_code == 0, result.output
        assert "is a public record of Toy Pile (2 players, 3 moves)" in result.stdout
        assert "positions can be seen" in result.stdout and "not rebuilt" in result.stdout
        for number, notation in enumerate(state.history, start=1):
            assert f"{number:>4}. {notation}" in result.stdout


def test_a_public_record_with_strange_moves_is_listed_safely_or_refused(tmp_path: Path) -> None:
    state = TOY.new_game(2, 4)
    record = state.to_record(public=True)
    path = tmp_path / "shared.json"
    path.write_text(json.dumps({**record, "actions": ["\x1b[2J" + "x" * 5000], "views": record["views"] * 2}))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0 and "\x1b" not in result.stdout and len(result.stdout) < 2000
    path.write_text(json.dumps({**record, "actions": ["play 1"] * 10_000, "views": record["views"] * 10_001}))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "lasts at most" in one_error_line(result)
    path.write_text(json.dumps({**record, "players": 9}))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "cannot read the recorded game" in one_error_line(result)


def test_a_public_record_cannot_be_continued(tmp_path: Path) -> None:
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(TOY.new_game(2, 4).to_record(public=True)))
    result = runner.invoke(app, ["play", "toy-pile", "--load", str(path)])
    assert result.exit_code == 2 and "a public record has no seed and cannot be replayed" in one_error_line(result)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("{tmp}/missing/g.json", "the folder '{tmp}/missing' does not exist"),
        ("{tmp}", "it is a folder"),
        ("{tmp}/fifo.json", "not a regular file"),
        ("/dev/null", "not a regular file"),
        ("a\x00b.json", "NUL"),
    ],
)
@pytest.mark.parametrize("word", ["save", "share"])
def test_saving_where_no_file_can_be_written_is_one_clear_line(tmp_path: Path, target: str, message: str, word: str) -> None:
    # the fault: a missing folder printed a raw '[Errno 2] No such file or directory'; a FIFO blocked for ever
    os.mkfifo(tmp_path / "fifo.json")
    state = TOY.new_game(2, 4)
    c = console()
    PlayLoop(state, {0: "human", 1: "human"}, c, scripted([f"{word} {target.format(tmp=tmp_path)}"])).run()
    text = output(c)
    assert message.format(tmp=tmp_path) in text
    assert "Errno" not in text and "Traceback" not in text
