"""Every command on bad input, run as a stranger would run it: a separate process, a memory cap, a time limit.

Each case runs ``python -m astrarium`` with its address space capped
(``RLIMIT_AS``, 2 GiB) and a time limit, and asserts what a person sees: a
non-zero exit, no traceback, and the error as one short line (a command's
error is exactly one line on standard error; at a prompt, the error is one line
and the prompt comes back, and the command ends with status 1 when the input
runs out). A usage error from the argument parser is its own short box.
The quick suite runs the first case of each command, the slow suite the rest.
"""

from __future__ import annotations

import json
import os
import resource
import select
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import astrarium

#: The address-space cap of every run, and how long a run may take (a shared machine: generous).
MEMORY_BYTES = 2 << 30
SECONDS = 20
COMMAND = [sys.executable, "-m", "astrarium"]


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def _env() -> dict[str, str]:
    return {**os.environ, "COLUMNS": "80", "LINES": "40", "NO_COLOR": "1", "TERM": "dumb", "PYTHONUNBUFFERED": "1"}


def run(args: list[str], stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=SECONDS,
        preexec_fn=_cap_memory,
        env=_env(),
        cwd=cwd,
    )


@dataclass(frozen=True)
class Case:
    """One bad input: the command line, what is typed at the prompts, and the words the error must hold."""

    args: tuple[str, ...]
    expect: tuple[str, ...]
    kind: str = "error"  # "error": one line on stderr; "usage": the parser's short box; "prompt": errors at a prompt
    stdin: str = ""
    status: int = 2
    files: dict[str, str] = field(default_factory=dict)


def case(*args: str, expect: str | tuple[str, ...], kind: str = "error", stdin: str = "", status: int | None = None) -> Case:
    expected = (expect,) if isinstance(expect, str) else expect
    return Case(tuple(args), expected, kind, stdin, status if status is not None else (1 if kind == "prompt" else 2))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Bad files every case may name: deep nesting, invalid UTF-8, wrong shapes, a FIFO, a public record."""
    where = tmp_path_factory.mktemp("bad-input")
    game = astrarium.get_game("constellations")
    state = game.new_game(2, 3)
    state.apply(state.legal_actions()[0])
    good = state.to_record()
    (where / "good.json").write_text(json.dumps(good))
    (where / "deep.json").write_text("[" * 5000 + "]" * 5000)
    (where / "deep-object.json").write_text('{"a":' * 3000 + "1" + "}" * 3000)
    (where / "bad-utf8.json").write_bytes(b'{"game": "\xff\xfe"}')
    (where / "game-list.json").write_text(json.dumps({**good, "game": ["celestials"]}))
    (where / "version-true.json").write_text(json.dumps({**good, "version": True}))
    (where / "options-list.json").write_text(json.dumps({**good, "options": []}))
    (where / "bad-move.json").write_text(json.dumps({**good, "actions": ["fly away"]}))
    (where / "not-json.json").write_text("{nope")
    (where / "seats-list.json").write_text(json.dumps({**good, "seats": ["human", "random"]}))
    (where / "seats-bad.json").write_text(json.dumps({**good, "seats": {"0": "mcts:seconds=nan"}}))
    (where / "public.json").write_text(json.dumps(state.to_record(public=True)))
    (where / "options-fifo.json").write_text(json.dumps({**good, "actions": [], "options": {"deck_file": str(where / "fifo.json")}}))
    os.mkfifo(where / "fifo.json")
    (where / "a-folder.json").mkdir()
    return where


PLAY = ("play", "constellations")
ARENA = ("arena", "constellations", "--games", "2")
BAD_RECORDS = {
    "deep.json": "nested more than 32 levels deep",
    "deep-object.json": "nested more than 32 levels deep",
    "bad-utf8.json": "not UTF-8 text",
    "game-list.json": "record field 'game' must be a game id",
    "version-true.json": "record version True is not supported",
    "options-list.json": "record field 'options' must be an object",
    "bad-move.json": "move 1 ('fly away') does not replay",
    "not-json.json": "not JSON",
    "fifo.json": "not a regular file",
    "/dev/zero": "not a regular file",
    "a-folder.json": "a folder",
    "missing.json": "cannot read",
    "options-fifo.json": "not a regular file",
}

#: One process per case costs about a second, so each family of bad record is run here once per command.
REPLAY_SAMPLE = ("deep.json", "bad-utf8.json", "game-list.json", "fifo.json", "/dev/zero", "options-fifo.json", "bad-move.json")
LOAD_SAMPLE = ("deep-object.json", "version-true.json", "fifo.json", "a-folder.json")

#: How many puzzles Constellations ships (the error names the range).
PUZZLES = len(astrarium.get_game("constellations").puzzles())

CASES: dict[str, Case] = {
    # games, agents, rules
    "games: extra argument": case("games", "extra", expect="unexpected extra argument", kind="usage"),
    "agents: extra argument": case("agents", "extra", expect="unexpected extra argument", kind="usage"),
    "rules: unknown game": case("rules", "chess", expect="no game called 'chess'"),
    "rules: no game": case("rules", expect="Missing argument", kind="usage"),
    "rules: 20,000-character game": case("rules", "x" * 20_000, expect="is 20,000 characters long; the limit is 10,000"),
    "rules: unknown option of 100,000 characters": case("rules", "--" + "x" * 100_000, expect="the limit is 10,000"),
    # play: seats and agent options
    "play: mcts seconds=nan": case(*PLAY, "--seat", "0=mcts:seconds=nan", expect="seconds='nan': not a finite number"),
    "play: ismcts seconds=inf": case(*PLAY, "--seat", "0=ismcts:seconds=inf", expect="not a finite number"),
    "play: mcts seconds negative": case(*PLAY, "--seat", "0=mcts:seconds=-5", expect="seconds must be a number above 0"),
    "play: ismcts depth huge": case(*PLAY, "--seat", "0=ismcts:depth=999999999", expect="depth must be a whole number from 0"),
    "play: greedy samples huge": case(*PLAY, "--seat", "0=greedy:samples=1e9", expect="samples must be a whole number from 1"),
    "play: mcts unknown option": case(*PLAY, "--seat", "0=mcts:foo=1", expect="mcts has no option 'foo'; its options are iterations"),
    "play: random takes no options": case(*PLAY, "--seat", "0=random:x=1", expect="random has no option 'x'; it takes no options"),
    "play: seat ²": case(*PLAY, "--seat", "²=random", expect="'²' is not a seat number"),
    "play: seat out of range": case(*PLAY, "--seat", "7=random", expect="seats are numbered 0 to 3"),
    "play: players": case(*PLAY, "--players", "99", expect="option 'players'"),
    "play: seed of 5,000 digits": case(*PLAY, "--seed", "9" * 5000, expect="Invalid value for '--seed'", kind="usage"),
    "play: option without value": case(*PLAY, "--option", "width", expect="should look like name=value"),
    "play: option nested 5,000 deep": case(*PLAY, "--option", "deck=" + "[" * 5000, expect="nested more than 32 levels deep"),
    "play: option file /dev/zero": case(*PLAY, "--option", "deck_file=/dev/zero", expect="not a regular file"),
    "play: load with a seed": case(
        *PLAY, "--load", "good.json", "--seed", "4", expect="its players, seed and options come from the record"
    ),
    "play: load seats a list": case(*PLAY, "--load", "seats-list.json", expect="record field 'seats' must be an object"),
    "play: load seats nan": case(*PLAY, "--load", "seats-bad.json", expect="not a finite number"),
    "play: load public record": case(*PLAY, "--load", "public.json", expect="a public record has no seed and cannot be replayed"),
    "play: load another game": case("play", "celestials", "--load", "good.json", expect="is a record of 'constellations'"),
    **{f"play: load {name}": case(*PLAY, "--load", name, expect=BAD_RECORDS[name]) for name in LOAD_SAMPLE},
    # replay (each bad record is also replayed in-process by tests/test_cli_hardening.py)
    **{f"replay: {name}": case("replay", name, expect=BAD_RECORDS[name]) for name in REPLAY_SAMPLE},
    "replay: --final deep": case("replay", "--final", "deep.json", expect="nested more than 32 levels deep"),
    "replay: --start not a number": case("replay", "--start", "abc", "good.json", expect="Invalid value for '--start'", kind="usage"),
    # puzzle
    "puzzle: unknown game": case("puzzle", "chess", expect="no game called 'chess'"),
    "puzzle: a game without puzzles": case("puzzle", "streamlines", expect="streamlines has no puzzles"),
    "puzzle: no such puzzle": case("puzzle", "constellations", "999", expect="has puzzles 1 to"),
    "puzzle: number 0": case("puzzle", "constellations", "0", expect=f"has puzzles 1 to {PUZZLES}, not 0"),
    # arena
    "arena: out in a missing folder": case(*ARENA, "--out", "/nonexistent/r.json", expect="the folder '/nonexistent' does not exist"),
    "arena: out a folder": case(*ARENA, "--out", "a-folder.json", expect="it is a folder"),
    "arena: out not json or csv": case(*ARENA, "--out", "r.txt", expect="write results to a .json or .csv file"),
    "arena: records /dev/null": case(*ARENA, "--records", "/dev/null", expect="cannot keep records in '/dev/null': it is not a folder"),
    "arena: no games": case("arena", "constellations", "--games", "0", expect="the arena plays from 1 to"),
    "arena: a trillion games": case("arena", "constellations", "--games", "1000000000000", expect="the arena plays from 1 to"),
    "arena: seat nan": case(*ARENA, "--seat", "0=mcts:seconds=nan", expect="not a finite number"),
    "arena: seat huge": case(*ARENA, "--seat", "99999999999=random", expect="seats are numbered 0 to 3"),
    "arena: players huge": case(*ARENA, "--players", "99999999999", expect="option 'players'"),
    "arena: human seat": case(*ARENA, "--seat", "0=human", expect="computer players only"),
    # the prompts: errors as one line, the prompt again, status 1 when the input runs out
    "menu: strange numbers": case(expect=("Please type a number from 1 to",), kind="prompt", stdin="²\n" + "9" * 5000 + "\n-1\n"),
    "menu: a megabyte line": case(expect=("Please type a number from 1 to",), kind="prompt", stdin="x" * 1_000_000 + "\n"),
    "play prompt: every command on bad input": case(
        *PLAY,
        "--seat",
        "0=human",
        "--seat",
        "1=random",
        kind="prompt",
        stdin="\n".join(
            [
                "x" * 1_000_000,
                "²",
                "9" * 5000,
                "save /nonexistent/x.json",
                "share /dev/null",
                "save a-folder.json public",
                "load a\x00b.json",
                "load /dev/zero",
                "load fifo.json",
                "load deep.json",
                "load bad-utf8.json",
                "load game-list.json",
                "load public.json",
                "load " + "y" * 5000,
                "save",
                "undo",
            ]
        )
        + "\n",
        expect=(
            "a notation is at most 500 characters",
            "² is not in the list",
            "9999999999999999999… is not in the list",
            "the folder '/nonexistent' does not exist",
            "/dev/null: file: cannot write: it is not a regular file (a pipe, device or socket)",
            "a-folder.json: file: cannot write: it is a folder",
            "the path contains a NUL character",
            "/dev/zero: file: cannot read: not a regular file",
            "fifo.json: file: cannot read: not a regular file",
            "deep.json: nested more than 32 levels deep",
            "bad-utf8.json: line 1: not UTF-8 text",
            "record field 'game' must be a game id",
            "a public record has no seed and cannot be replayed",
            "the path is longer than 1024 characters",
            "save needs a file name",
            "there is no human action to take back",
        ),
    ),
    "puzzle prompt: strange digits": case(
        "puzzle",
        "constellations",
        "1",
        kind="prompt",
        stdin="rot a²\n²\n" + "9" * 5000 + "\nrot a" + "9" * 5000 + "\n" + "z" * 1_000_000 + "\n",
        expect=("'rot a²' is not an action", "² is not in the list", "9999999999999999999… is not in the list", "at most 500 characters"),
    ),
    "replay prompt: strange digits": case(
        "replay", "good.json", kind="prompt", stdin="²\n" + "9" * 5000 + "\nzz\n", expect=("Enter, b, a move number from 0 to 1 or q.",)
    ),
}


def first_of_each_command() -> list[str]:
    """The first case of each command (the words before the colon): every command meets bad input in the quick suite."""
    first: dict[str, str] = {}
    for name in CASES:
        first.setdefault(name.split(":")[0], name)
    return list(first.values())


QUICK = first_of_each_command()
REST = [name for name in CASES if name not in QUICK]


@pytest.mark.parametrize("name", QUICK)
def test_every_command_on_bad_input_is_a_short_clear_error(folder: Path, name: str) -> None:
    check_bad_input(folder, CASES[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", REST)
def test_the_rest_of_the_bad_inputs_are_short_clear_errors(folder: Path, name: str) -> None:
    check_bad_input(folder, CASES[name])


def check_bad_input(folder: Path, bad: Case) -> None:
    """Run the command as a stranger would and hold what they see to the case."""
    started = time.monotonic()
    result = run(list(bad.args), bad.stdin, folder)
    assert time.monotonic() - started < SECONDS
    both = result.stdout + result.stderr
    assert "Traceback" not in both, both[-2000:]
    assert result.returncode == bad.status, (result.returncode, both[-1000:])
    if bad.kind == "error":
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith("error: ") and len(lines[0]) <= 420
        for words in bad.expect:
            assert words in lines[0]
        assert "Game over" not in result.stdout  # nothing was played
    elif bad.kind == "usage":
        assert len(result.stderr) < 1500, result.stderr[:500]
        flat = " ".join(result.stderr.replace("│", " ").split())
        for words in bad.expect:
            assert words in flat
    else:
        lines = result.stdout.splitlines()
        assert all(len(line) < 500 for line in lines)
        assert len(result.stdout) < 200_000
        for words in bad.expect:
            assert any(words in line for line in lines), words


def test_a_hundred_million_games_start_at_once_under_the_memory_cap(folder: Path) -> None:
    # the fault: the arena planned every game in a list first, gigabytes before the first game
    process = subprocess.Popen(
        [*COMMAND, "arena", "constellations", "--games", "100000000", "--jobs", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_cap_memory,
        env=_env(),
        cwd=folder,
    )
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], SECONDS)
        assert ready, f"nothing printed within {SECONDS} seconds"
        header = process.stdout.readline()  # printed once the plan is made, before the first game
        assert "100,000,000 games, seeds 0 to 99999999, 1 process(es)" in header
        time.sleep(1.0)
        assert process.poll() is None  # still playing: not killed by the memory cap
    finally:
        process.kill()
        process.communicate(timeout=SECONDS)


def test_jobs_above_the_cores_are_a_warning_and_capped_at_the_games(folder: Path) -> None:
    result = run(["arena", "constellations", "--games", "1", "--jobs", "100000"], "", folder)
    assert result.returncode == 0, result.stderr
    assert "warning: --jobs 100000: this machine has" in result.stderr
    assert "1 game" in result.stdout and "1 process(es)" in result.stdout
