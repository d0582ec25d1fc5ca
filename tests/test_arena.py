"""The arena: seats rotated, seeds recorded, results with confidence intervals, records that replay."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import astrarium
from astrarium.agents.arena import plan_matches, play_match, run_matches, summarise, wilson_interval
from astrarium.cli import app

runner = CliRunner()


def test_seats_rotate_every_game_and_seeds_follow_the_game_number() -> None:
    plan = plan_matches("toy-pile", ["mcts:iterations=5", "random", "greedy"], 6, seed=40)
    assert [m.seed for m in plan] == [40, 41, 42, 43, 44, 45]
    assert plan[0].seats == ("mcts:iterations=5", "random", "greedy")
    assert plan[1].seats == ("greedy", "mcts:iterations=5", "random")
    assert plan[2].seats == ("random", "greedy", "mcts:iterations=5")
    for entry in range(3):  # over a multiple of the player count, every entry sits at every seat equally often
        seats = [m.entries.index(entry) for m in plan]
        assert sorted(seats) == [0, 0, 1, 1, 2, 2]


def test_bad_plans_fail_before_any_game_is_played() -> None:
    with pytest.raises(ValueError, match="unknown player kind 'oracle'"):
        plan_matches("toy-pile", ["oracle", "random"], 2)
    with pytest.raises(astrarium.OptionError, match="players"):
        plan_matches("toy-pile", ["random"] * 4, 2)
    with pytest.raises(astrarium.OptionError, match="target"):
        plan_matches("toy-pile", ["random", "random"], 2, options={"target": 999})
    with pytest.raises(ValueError, match="from 1 to 1,000,000,000 games, not 0"):
        plan_matches("toy-pile", ["random", "random"], 0)


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson_interval(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert wilson_interval(0, 20)[0] == 0.0 and wilson_interval(20, 20)[1] == 1.0
    low, high = wilson_interval(50, 100)
    assert abs((0.5 - low) - (high - 0.5)) < 1e-12


def test_a_match_replays_from_its_recorded_seed(tmp_path) -> None:
    plan = plan_matches("toy-pile", ["mcts:iterations=10", "random"], 2, seed=7, records=tmp_path)
    result = play_match(plan[1])
    record = json.loads(Path(result.record).read_text())
    assert record["seed"] == 8 and record["seats"] == {"0": "random", "1": "mcts:iterations=10"}
    state = astrarium.replay(record)
    assert state.is_over and state.returns() == result.returns and state.move_number == result.length
    assert play_match(plan[1]).returns == result.returns  # the same seed plays the same game


def test_summary_counts_wins_draws_losses_per_entry_not_per_seat() -> None:
    lineup = ["mcts:iterations=40", "random"]
    results = run_matches(plan_matches("toy-pile", lineup, 8, seed=3))
    summary = summarise("toy-pile", lineup, results)
    for stats in summary.entries:
        assert stats.games == 8
        assert stats.wins + stats.draws + stats.losses == 8
        assert stats.win_ci[0] <= stats.win_rate <= stats.win_ci[1]
    for result in results:
        mcts_seat = result.entries.index(0)
        assert result.seats[mcts_seat] == "mcts:iterations=40"
    expected = sum(r.returns[r.entries.index(0)] > 0 for r in results)
    assert summary.entries[0].wins == expected
    assert summary.mean_length == sum(r.length for r in results) / 8
    assert sum(summary.seat_wins) == sum(sum(v > 0 for v in r.returns) for r in results)


def test_two_processes_play_the_same_games_as_one() -> None:
    plan = plan_matches("toy-pile", ["mcts:iterations=10", "greedy"], 4, seed=11)
    one = run_matches(plan, jobs=1)
    two = run_matches(plan, jobs=2)
    assert [(r.index, r.returns, r.length) for r in one] == [(r.index, r.returns, r.length) for r in two]


def test_arena_command_prints_the_table_and_saves_json_and_records(tmp_path) -> None:
    out = tmp_path / "results.json"
    folder = tmp_path / "games"
    result = runner.invoke(
        app,
        [
            "arena",
            "toy-pile",
            "--games",
            "4",
            "--seat",
            "0=mcts:iterations=20",
            "--seat",
            "1=random",
            "--jobs",
            "1",
            "--seed",
            "5",
            "--out",
            str(out),
            "--records",
            str(folder),
        ],
    )
    assert result.exit_code == 0, result.stdout
    text = result.stdout
    assert "mcts:iterations=20" in text and "win %" in text
    assert "Mean game length" in text and "First-seat advantage" in text
    data = json.loads(out.read_text())
    assert data["games"] == 4 and [r["seed"] for r in data["results"]] == [5, 6, 7, 8]
    assert data["entries"][0]["spec"] == "mcts:iterations=20"
    files = sorted(folder.iterdir())
    assert len(files) == 4
    for path in files:
        record = json.loads(path.read_text())
        assert astrarium.replay(record).is_over


def test_arena_command_saves_csv_one_row_per_game_and_seat(tmp_path) -> None:
    out = tmp_path / "results.csv"
    result = runner.invoke(app, ["arena", "toy-pile", "-n", "3", "-s", "0=greedy", "-s", "2=random", "-j", "2", "--out", str(out)])
    assert result.exit_code == 0, result.stdout
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 9
    assert {row["agent"] for row in rows} == {"greedy", "random"}
    assert {row["result"] for row in rows} <= {"win", "draw", "loss"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "0=human"], "computer players only"),
        (["--seat", "1=oracle"], "unknown player kind 'oracle'"),
        (["--out", "results.txt"], ".json or .csv"),
        (["--seat", "zero=random"], "is not a seat number"),
        (["--players", "5"], "option 'players'"),
        (["--option", "target=999"], "option 'target'"),
        (["--jobs", "0"], "--jobs 0"),
    ],
)
def test_arena_command_errors_are_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", "toy-pile", "--games", "2", *args])
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output


def test_unknown_game_in_the_arena() -> None:
    result = runner.invoke(app, ["arena", "chess"])
    assert result.exit_code == 2 and "no game called 'chess'" in result.stderr


class Blunderer:
    """An agent that plays a card it does not hold."""

    name = "blunder"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, state):
        from toygame import Play

        held = {a.card for a in state.legal_actions()}
        return Play(next(c for c in range(1, 10) if c not in held))


def test_a_failing_game_is_named_with_its_seed_and_seats(monkeypatch) -> None:
    from astrarium.agents import base

    monkeypatch.setitem(base._AGENTS, "blunder", Blunderer)
    args = ["--seat", "0=random", "--seat", "1=blunder", "--seed", "30", "--jobs", "1"]
    result = runner.invoke(app, ["arena", "toy-pile", "--games", "2", *args])
    assert result.exit_code == 2
    assert "game 0 of toy-pile (seed 30): seat 1 (blunder) played play" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("game_id", astrarium.list_games())
def test_the_arena_plays_every_game(game_id: str) -> None:
    game = astrarium.get_game(game_id)
    lineup = ["greedy"] + ["random"] * (max(2, game.min_players) - 1)
    results = run_matches(plan_matches(game_id, lineup, 2, seed=1))
    summary = summarise(game_id, lineup, results)
    assert summary.games == 2 and all(e.games == 2 for e in summary.entries)
    assert all(r.length <= game.max_moves(len(lineup), plan_matches(game_id, lineup, 1)[0].options) for r in results)
