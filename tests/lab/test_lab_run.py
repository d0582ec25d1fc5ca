"""Running experiments: the table, the records, resuming, and results that do not depend on --jobs."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from lab_helpers import ORBITAL_RANDOM, comparable, write_experiment

import astrarium
from astrarium import lab
from astrarium.core.errors import DataError
from astrarium.lab.play import ended_by, play_game, play_into


def small(game: str, seats: list[str], games: int, **options: object) -> lab.Experiment:
    return lab.build_experiment(game, seats, games=games, options=options)


def test_a_run_writes_one_row_a_game_and_a_record_that_replays(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, ORBITAL_RANDOM.format(games=6, seed=40))
    results = lab.run(path, out=tmp_path / "out")
    table = results.table
    assert table.schema.names[: len(lab.SCHEMA)] == lab.SCHEMA.names
    own = ["metric_destroyed", "metric_first_mover_score", "metric_hull_0", "metric_hull_1", "metric_mass_0", "metric_mass_1"]
    own.append("metric_ships_flying")
    assert table.schema.names[len(lab.SCHEMA) :] == own  # the game's own metrics, after the fixed columns
    assert table.column("seed").to_pylist() == list(range(40, 46))
    assert results.experiment == str(path) and results.command.startswith(f"astrarium lab run {path}")
    for row in table.to_pylist():
        assert len(row["seats"]) == len(row["returns"]) == len(row["think_seconds"]) == 2
        assert row["ended_by"] in ("play", "limit") and row["rounds"] is not None and 1 <= row["rounds"] <= 5
        record = json.loads(gzip.decompress((tmp_path / "out" / "records" / f"{row['seed']}.json.gz").read_bytes()))
        state = astrarium.replay(record)
        assert state.is_over and state.move_number == row["moves"] and list(state.returns()) == row["returns"]
    assert pq.read_table(tmp_path / "out" / "games.parquet").num_rows == 6  # the folder reads as one data set
    assert lab.load(tmp_path / "out").table.equals(table)


def test_rounds_are_null_for_a_game_without_them_and_limits_are_told_from_play(tmp_path: Path) -> None:
    results = lab.run(small("celestials", ["random", "random"], 6, turn_limit=5, health=5), out=tmp_path / "c")
    assert results.table.column("rounds").null_count == 6
    reasons = results.table.column("reason").to_pylist()
    assert results.table.column("ended_by").to_pylist() == ["limit" if r.startswith("turn limit") else "play" for r in reasons]


@pytest.mark.parametrize(
    ("reason", "how"),
    [
        ("turn limit (30 turns each): Sun has more health", "limit"),
        ("Moon fell to 0 health: Sun wins", "play"),
        ("round limit 40 reached: most hull (3), then most reaction mass (2) wins", "limit"),
        ("ship B is the last ship flying", "play"),
        ("the round limit (30) was reached: seat 0 wins on territory, then strength on the map, then resources", "limit"),
        ("seat 1 wins by capture at the end of round 7", "play"),
        ("12 rounds were played; top score 40", "limit"),
        ("1 round was played; top score 4", "limit"),
        ("the deck ran out in round 5; top score 31", "play"),
        ("every constellation card has been played; top score 20", "play"),
        ("the team rescued 6 of the 6 refugees needed", "play"),
        ("every planet is a black hole", "play"),
    ],
)
def test_a_game_ended_at_its_limit_is_told_by_its_reason(reason: str, how: str) -> None:
    assert ended_by(reason) == how


def test_the_same_seeds_give_the_same_games_on_one_process_or_two(tmp_path: Path) -> None:
    three = lab.build_experiment("constellations", ["greedy", "random", "random"], games=6, options={"max_rounds": 2}, rotate="paired")
    for name, experiment in {
        "greedy": small("constellations", ["greedy", "random"], 6, max_rounds=2),
        "mcts": small("constellations", ["mcts:iterations=10,depth=2", "random"], 4, max_rounds=2),
        "paired": three,  # two seeds, each in its three rotations
    }.items():
        one = lab.run(experiment, jobs=1, out=tmp_path / f"{name}-1")
        two = lab.run(experiment, jobs=2, out=tmp_path / f"{name}-2")
        assert comparable(one.table) == comparable(two.table)
        assert one.table.num_rows == experiment.games
        for row in one.table.to_pylist():
            first, second = (gzip.decompress(results.record_path(row).read_bytes()) for results in (one, two))
            assert first == second


def test_a_larger_game_count_goes_on_and_a_finished_run_plays_nothing(tmp_path: Path) -> None:
    experiment = small("orbital-combat", ["random", "random"], 3, round_limit=5)
    out = tmp_path / "out"
    lab.run(experiment, out=out)
    seen: list[int] = []
    results = lab.run(experiment.with_games(7), out=out, on_game=lambda row: seen.append(row["seed"]))
    assert sorted(seen) == [3, 4, 5, 6]
    assert results.table.column("seed").to_pylist() == list(range(7))
    again: list[int] = []
    lab.run(experiment.with_games(7), out=out, on_game=lambda row: again.append(row["seed"]))
    assert again == []
    assert comparable(lab.run(experiment.with_games(7), out=tmp_path / "fresh").table) == comparable(results.table)


def test_a_run_stopped_with_ctrl_c_keeps_its_finished_games_and_the_same_call_finishes_it(tmp_path: Path) -> None:
    experiment = small("orbital-combat", ["random", "random"], 8, round_limit=5)
    out = tmp_path / "out"

    def stop_after_three(row: object) -> None:
        stop_after_three.count += 1  # type: ignore[attr-defined]
        if stop_after_three.count == 3:  # type: ignore[attr-defined]
            raise KeyboardInterrupt

    stop_after_three.count = 0  # type: ignore[attr-defined]
    with pytest.raises(KeyboardInterrupt):
        lab.run(experiment, out=out, on_game=stop_after_three)
    assert lab.load(out).table.column("seed").to_pylist() == [0, 1, 2]
    finished = lab.run(experiment, out=out)
    assert comparable(finished.table) == comparable(lab.run(experiment, out=tmp_path / "whole").table)


def test_a_folder_of_another_experiment_is_refused_and_strays_are_cleared(tmp_path: Path) -> None:
    out = tmp_path / "out"
    lab.run(small("orbital-combat", ["random", "random"], 2, round_limit=5), out=out)
    with pytest.raises(DataError, match="manifest.json: experiment: this folder holds the results of another experiment"):
        lab.run(small("orbital-combat", ["random", "random"], 2, round_limit=6), out=out)
    stray = out / "games.parquet" / "part-000009.parquet"
    stray.write_bytes(b"half a part")
    results = lab.run(small("orbital-combat", ["random", "random"], 3, round_limit=5), out=out)
    assert not stray.exists() and results.table.num_rows == 3


def test_load_refuses_a_folder_that_is_no_results_folder(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not a results folder"):
        lab.load(tmp_path)
    (tmp_path / "manifest.json").write_text('{"format": "other"}', encoding="utf-8")
    with pytest.raises(DataError, match="manifest.json: format: not a results manifest"):
        lab.load(tmp_path)


def test_the_summary_counts_seats_players_and_a_draw_as_half(tmp_path: Path) -> None:
    results = lab.run(small("celestials", ["random", "random"], 8, turn_limit=5, health=5), out=tmp_path / "s")
    summary = results.summary()
    returns = results.table.column("returns").to_pylist()
    first = summary.first_seat
    assert first.games == 8 and first.wins == sum(r[0] > 0 for r in returns) and first.draws == sum(r[0] == 0 for r in returns)
    assert first.score == pytest.approx((first.wins + first.draws / 2) / 8)
    low, high = first.score_interval
    assert low <= first.score <= high
    assert sum(p.games for p in summary.players) == 16
    assert summary.by_play == results.table.column("ended_by").to_pylist().count("play")
    assert summary.experiment == "inline" and summary.command.startswith("astrarium lab run --game celestials")


class StopAfter:
    """A stop hook: True from the ``games``-th game it is shown on."""

    def __init__(self, games: int) -> None:
        self.games = games
        self.shown = 0

    def __call__(self, row: object) -> bool:
        self.shown += 1
        return self.shown >= self.games


def test_a_stop_hook_ends_the_run_cleanly_with_every_game_it_saw_saved(tmp_path: Path) -> None:
    experiment = small("orbital-combat", ["random", "random"], 10, round_limit=5)
    out = tmp_path / "out"
    played: list[int] = []
    results = lab.run(experiment, out=out, stop=StopAfter(3), on_game=lambda row: played.append(row["seed"]))
    assert results.stopped and played == [0, 1, 2]
    assert results.table.column("seed").to_pylist() == [0, 1, 2] and lab.load(out).table.equals(results.table)
    assert sorted(p.name for p in (out / "records").iterdir()) == ["0.json.gz", "1.json.gz", "2.json.gz"]
    again: list[int] = []
    resumed = lab.run(experiment, out=out, stop=StopAfter(3), on_game=lambda row: again.append(row["seed"]))
    assert resumed.stopped and again == []  # shown the three saved games first: it stops before playing
    finished = lab.run(experiment, out=out, stop=lambda row: False)
    assert not finished.stopped and comparable(finished.table) == comparable(lab.run(experiment, out=tmp_path / "whole").table)


def test_a_stop_hook_on_two_processes_keeps_each_saved_game_once_and_the_run_resumes(tmp_path: Path) -> None:
    experiment = lab.build_experiment("orbital-combat", ["random", "greedy"], games=12, options={"round_limit": 5}, rotate="paired")
    out = tmp_path / "out"
    stopped = lab.run(experiment, jobs=2, out=out, stop=StopAfter(4))
    keys = [(row["seed"], row["rotation"]) for row in stopped.table.to_pylist()]
    assert stopped.stopped and len(keys) == len(set(keys)) == 4 and len(list((out / "records").iterdir())) == 4
    finished = lab.run(experiment, jobs=2, out=out)
    assert comparable(finished.table) == comparable(lab.run(experiment, out=tmp_path / "whole").table)


def test_a_stopped_run_keeps_no_record_of_a_game_it_did_not_save(tmp_path: Path) -> None:
    experiment = lab.build_experiment("orbital-combat", ["random", "greedy"], games=6, options={"round_limit": 5})
    out = tmp_path / "out"
    lab.run(experiment, out=out, stop=StopAfter(1))
    stray = out / "records" / "5.json.gz"  # as a worker still playing seed 5 when the run stopped would leave it
    stray.write_bytes((out / "records" / "0.json.gz").read_bytes())
    stopped = lab.run(experiment, out=out, stop=StopAfter(2))
    saved = sorted(f"{row['seed']}.json.gz" for row in stopped.table.to_pylist())
    assert stopped.stopped and sorted(p.name for p in (out / "records").iterdir()) == saved == ["0.json.gz", "1.json.gz"]


def test_a_stopped_run_keeps_no_half_written_record(tmp_path: Path) -> None:
    experiment = lab.build_experiment("orbital-combat", ["random", "greedy"], games=6, options={"round_limit": 5})
    out = tmp_path / "out"
    half = out / "records" / ".5.json.gz.4242.tmp"  # as a worker ended between writing a record and renaming it leaves it
    stopped = lab.run(experiment, out=out, stop=StopAfter(2), on_game=lambda row: half.write_bytes(b"half"))
    assert stopped.stopped and sorted(p.name for p in (out / "records").iterdir()) == ["0.json.gz", "1.json.gz"]


def test_a_local_worker_writes_the_record_itself_and_hands_back_the_row_alone(tmp_path: Path) -> None:
    experiment = lab.build_experiment("constellations", ["greedy", "random", "random"], games=3, options={"max_rounds": 2}, rotate="paired")
    (tmp_path / "records").mkdir()
    match = experiment.plan()[1]
    row, record = play_into(tmp_path, True, match)
    assert record is None
    written = tmp_path / "records" / f"{row['seed']}-{row['rotation']}.json.gz"
    assert gzip.decompress(written.read_bytes()) == gzip.decompress(play_game(match)[1])
    assert [p.name for p in (tmp_path / "records").iterdir()] == [written.name]  # no temporary file left
