"""Player specs from strangers: every numeric option bounded and finite, unknown options named, the arena's plan lazy.

A seat spec (``--seat 1=mcts:seconds=1``) is text anyone can type, or a field of
a record anyone can send. A value that is not finite (``seconds=nan`` compares
false with every bound, so a search would never stop) or absurdly large (an hour
is the longest a move may think) is refused when the player is built, with the
option's name and range; an option the player does not take is refused with the
list of those it does.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import astrarium
from astrarium.agents import agent_names, make_agent, parse_agent_spec
from astrarium.agents.arena import plan_matches, play_match, run_matches

#: Every numeric option of every player, with a value inside its range.
NUMERIC = {
    "greedy": {"samples": "2", "epsilon": "0.5"},
    "mcts": {"iterations": "5", "seconds": "0.5", "c": "1", "depth": "3", "epsilon": "0.5", "bias": "5"},
    "ismcts": {"iterations": "5", "seconds": "0.5", "c": "1", "depth": "3", "epsilon": "0.5", "bias": "5"},
}
NOT_FINITE = ["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e309"]
OUT_OF_RANGE = ["-1", "-0.5", "1e9", "99999999999", "10000001"]
NUMERIC_CASES = [(kind, name) for kind, options in NUMERIC.items() for name in options]


@pytest.mark.parametrize(("kind", "name"), NUMERIC_CASES)
@pytest.mark.parametrize("value", NOT_FINITE)
def test_a_number_that_is_not_finite_is_refused_for_every_numeric_option(kind: str, name: str, value: str) -> None:
    with pytest.raises(ValueError, match="not a finite number|must be a (whole )?number"):
        make_agent(f"{kind}:{name}={value}")


@pytest.mark.parametrize(("kind", "name"), NUMERIC_CASES)
@pytest.mark.parametrize("value", OUT_OF_RANGE)
def test_a_negative_or_huge_value_is_refused_with_the_option_and_its_range(kind: str, name: str, value: str) -> None:
    with pytest.raises(ValueError, match=rf"^{name} must be a (whole )?number (from|above) .* not "):
        make_agent(f"{kind}:{name}={value}")


@pytest.mark.parametrize(("kind", "name"), NUMERIC_CASES)
def test_every_numeric_option_accepts_a_value_in_its_range(kind: str, name: str) -> None:
    agent = make_agent(f"{kind}:{name}={NUMERIC[kind][name]}")
    assert agent.name == kind


def test_nan_given_directly_to_the_constructor_is_refused_too() -> None:
    from astrarium.agents import MCTSAgent

    for name in ("seconds", "c", "epsilon", "iterations", "depth", "bias"):
        with pytest.raises(ValueError, match=f"^{name} must be"):
            MCTSAgent(**{name: float("nan")})


def test_a_nan_budget_in_seconds_would_never_stop_so_it_never_starts() -> None:
    # the fault: seconds=nan passed `seconds <= 0` and the deadline `now >= nan` was never reached
    with pytest.raises(ValueError, match="seconds='nan': not a finite number"):
        make_agent("mcts:seconds=nan")
    with pytest.raises(ValueError, match="seconds must be a number above 0 and at most 3600"):
        make_agent("ismcts:seconds=1e9")


@pytest.mark.parametrize("kind", ["mcts", "ismcts", "greedy", "random"])
def test_an_unknown_option_names_the_options_the_player_takes(kind: str) -> None:
    with pytest.raises(ValueError) as caught:
        make_agent(f"{kind}:foo=1")
    from astrarium.agents.base import agent_options

    message = str(caught.value)
    assert message.startswith(f"{kind} has no option 'foo'")
    assert "TypeError" not in message and "__init__" not in message
    for option in agent_options(kind) or []:
        assert option in message
    if kind == "random":
        assert message.endswith("it takes no options")


def test_every_registered_player_declares_its_options() -> None:
    from astrarium.agents.base import agent_options

    for kind in agent_names():
        assert agent_options(kind) is not None, kind
    assert agent_options("mcts") == [
        "iterations",
        "seconds",
        "c",
        "rollout",
        "depth",
        "epsilon",
        "normalize",
        "perfect_information",
        "expand",
        "guide",
        "bias",
        "spread",
        "worlds",
    ]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:seed=4", "seed is not a player option"),
        ("mcts:depth=5,depth=6", "'depth' is given twice"),
        ("mcts:perfect_information=cheat", "perfect_information must be true or false, not 'cheat'"),
        ("greedy:perfect_information=1", "perfect_information must be true or false, not 1"),
        ("greedy:epsilon=1.5", "epsilon must be a number from 0 to 1, not 1.5"),
        ("mcts:normalize=2", "normalize must be true or false"),
        ("mcts:rollout=5", "rollout must be one of random, heuristic, not 5"),
        ("mcts:expand=best", "expand must be one of random, greedy, not 'best'"),
        ("mcts:guide=5", "guide must be auto, none or a player such as greedy or cw-general, not 5"),
        ("mcts:guide=nobody", "unknown player kind 'nobody'"),
        ("mcts:worlds=two", "worlds must be each or one, not 'two'"),
        ("ismcts:worlds=one", "worlds=one is an mcts option: ismcts searches a fresh world every iteration"),
        ("mcts:iterations=true", "iterations must be a whole number from 1 to 10,000,000, not True"),
        ("mcts:" + "x" * 300, "longer than 200 characters"),
        ("mcts:=3", "should look like name=value"),
    ],
)
def test_other_bad_option_values_are_refused_by_name(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_an_error_never_echoes_a_long_spec_whole() -> None:
    spec = "mcts:iterations=1," + "x" * 150
    with pytest.raises(ValueError) as caught:
        make_agent(spec)
    assert len(str(caught.value)) < 200


# The example: control characters, escaped, once stretched the unknown-player error past its limit.
@given(st.text(max_size=60))
@example("0000000\x1f\x1f\x1f\x1f\x08\U00010b92\U00011daa\U00012544\U0001342f\U00018cd6\U00018cd6\U00018d09\U00018d09\U0001dab0")
def test_any_spec_text_builds_a_player_or_raises_value_error(text: str) -> None:
    try:
        parse_agent_spec(text)
        make_agent(text)
    except ValueError as exc:
        assert len(str(exc)) < 400
        assert "\n" not in str(exc)


# -- the arena's plan ------------------------------------------------------------------------


def test_a_hundred_million_games_are_planned_without_building_them() -> None:
    # the fault: plan_matches built a list of every Match before the first game (gigabytes for 1e8 games)
    started = time.perf_counter()
    plan = plan_matches("toy-pile", ["random", "greedy"], 100_000_000, seed=7)
    assert time.perf_counter() - started < 5
    assert len(plan) == 100_000_000
    last = plan[-1]
    assert last.index == 99_999_999 and last.seed == 7 + 99_999_999
    assert last.seats == ("greedy", "random") and last.entries == (1, 0)
    first_three = [m.seed for m in plan[:3]]
    assert first_three == [7, 8, 9]
    assert next(iter(plan)).seats == ("random", "greedy")
    with pytest.raises(IndexError):
        plan[100_000_000]


def test_the_lazy_plan_plays_the_same_games_as_before() -> None:
    plan = plan_matches("toy-pile", ["mcts:iterations=10", "greedy"], 4, seed=11)
    assert [m.seats for m in plan] == [
        ("mcts:iterations=10", "greedy"),
        ("greedy", "mcts:iterations=10"),
        ("mcts:iterations=10", "greedy"),
        ("greedy", "mcts:iterations=10"),
    ]
    one = run_matches(plan, jobs=1)
    two = run_matches(plan, jobs=64)  # more processes than games: one per game at most
    assert [(r.index, r.returns) for r in one] == [(r.index, r.returns) for r in two]


@pytest.mark.parametrize("games", [0, -1, 1_000_000_001, True, 2.0])
def test_the_game_count_is_bounded(games: object) -> None:
    with pytest.raises(ValueError, match="the arena plays from 1 to 1,000,000,000 games"):
        plan_matches("toy-pile", ["random", "random"], games)  # type: ignore[arg-type]


def test_a_records_path_that_is_not_a_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    # the fault: --records /dev/null raised FileExistsError from mkdir
    with pytest.raises(ValueError, match="cannot keep records in '/dev/null': it is not a folder"):
        plan_matches("toy-pile", ["random", "random"], 2, records="/dev/null")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ValueError, match="cannot make the records folder"):
        plan_matches("toy-pile", ["random", "random"], 2, records=blocker / "games")
    with pytest.raises(ValueError, match="NUL"):
        plan_matches("toy-pile", ["random", "random"], 2, records="a\x00b")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("/nonexistent/r.json", "the folder '/nonexistent' does not exist"),
        ("/dev/null", "not a regular file"),
        ("FOLDER", "it is a folder"),
        ("FIFO", "not a regular file"),
        ("a\x00b.json", "NUL"),
        ("x" * 2000 + ".json", "longer than 1024"),
    ],
)
def test_an_output_file_is_checked_before_it_is_needed(tmp_path: Path, name: str, message: str) -> None:
    from astrarium.core.data import check_output_file, write_text_file

    os.mkfifo(tmp_path / "fifo.json")
    path = name.replace("FOLDER", str(tmp_path)).replace("FIFO", str(tmp_path / "fifo.json"))
    with pytest.raises(ValueError, match=message):
        check_output_file(path)
    with pytest.raises(ValueError, match=message):
        write_text_file(path, "{}")


def test_writing_a_file_makes_or_replaces_a_regular_file(tmp_path: Path) -> None:
    from astrarium.core.data import write_text_file

    target = tmp_path / "r.json"
    write_text_file(target, "one\n")
    write_text_file(target, "two\n")
    assert target.read_text() == "two\n"


def test_arena_records_are_written_and_replay(tmp_path: Path) -> None:
    plan = plan_matches("toy-pile", ["random", "greedy"], 2, seed=3, records=tmp_path / "games")
    result = play_match(plan[1])
    assert result.record is not None
    assert astrarium.replay(json.loads(Path(result.record).read_text())).is_over


class OnlyToyPile:
    """A fixed strategy written for one game, as a balance regression player would be."""

    name = "only-toy"
    games = ("toy-pile",)

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state):
        return state.legal_actions()[0]


def test_a_player_written_for_one_game_is_refused_for_the_others(monkeypatch) -> None:
    from typer.testing import CliRunner

    from astrarium.agents import base
    from astrarium.cli import app

    monkeypatch.setitem(base._AGENTS, "only-toy", OnlyToyPile)
    assert make_agent("only-toy", game="toy-pile").name == "only-toy"
    with pytest.raises(ValueError, match="only-toy plays only toy-pile, not constellations"):
        make_agent("only-toy", game="constellations")
    assert "only-toy" in agent_names("toy-pile") and "only-toy" not in agent_names("constellations")
    with pytest.raises(ValueError, match="plays only toy-pile"):
        plan_matches("constellations", ["only-toy", "random"], 1)
    result = CliRunner().invoke(app, ["play", "constellations", "--seat", "0=only-toy"])
    assert result.exit_code == 2 and result.stderr.startswith("error: only-toy plays only toy-pile, not constellations")
    result = CliRunner().invoke(app, ["agents"])
    assert "only-toy (toy-pile only)" in result.stdout
