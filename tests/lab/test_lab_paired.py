"""Paired seating (``rotate = "paired"``): every seed played once in every rotation of the line-up, each game known by its
seed and rotation; older folders of one game a seed stay readable and resumable."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lab_helpers import comparable, write_experiment
from typer.testing import CliRunner

import astrarium
from astrarium import lab
from astrarium.cli.app import app
from astrarium.core.errors import DataError
from astrarium.lab.deals import deals
from astrarium.lab.markdown import comparison_markdown, results_markdown
from astrarium.lab.report import read_section, report_html
from astrarium.lab.sequential import Answer, InOrder, parse_until

runner = CliRunner()
PAIRED = (
    'game = "orbital-combat"\nseats = ["greedy", "random"]\nrotate = "paired"\ngames = {games}\nseed = 20\n[options]\nround_limit = 5\n'
)


def paired(games: int = 8, seats: tuple[str, ...] = ("greedy", "random"), **options: object) -> lab.Experiment:
    return lab.build_experiment("orbital-combat", list(seats), games=games, seed=20, options={"round_limit": 5, **options}, rotate="paired")


def test_a_paired_plan_plays_every_seed_once_in_every_rotation_of_the_line_up() -> None:
    two = paired(6).plan()
    assert [(m.index, m.seed, m.seats, m.entries) for m in two] == [
        (0, 20, ("greedy", "random"), (0, 1)),
        (1, 20, ("random", "greedy"), (1, 0)),
        (2, 21, ("greedy", "random"), (0, 1)),
        (3, 21, ("random", "greedy"), (1, 0)),
        (4, 22, ("greedy", "random"), (0, 1)),
        (5, 22, ("random", "greedy"), (1, 0)),
    ]
    three = lab.build_experiment("constellations", ["greedy", "random", "mcts:iterations=5"], games=6, rotate="paired").plan()
    assert [m.seed for m in three] == [0, 0, 0, 1, 1, 1]
    assert [m.entries for m in three[:3]] == [(0, 1, 2), (2, 0, 1), (1, 2, 0)]  # as the arena's games 0, 1 and 2
    assert three[-1].index == 5 and [m.index for m in three[1:3]] == [1, 2]


def test_paired_games_count_games_and_must_be_a_multiple_of_the_players(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, PAIRED.format(games=7))
    with pytest.raises(DataError, match=r"exp.toml: games: 7: rotate = \"paired\" .* a multiple of 2 \(try 6 or 8\)$"):
        lab.load_experiment(path)
    with pytest.raises(ValueError, match=r"^--games 9: .*multiple of 2"):
        paired(8).with_games(9)
    bad = write_experiment(tmp_path, PAIRED.format(games=8).replace('"paired"', '"pairs"'))
    with pytest.raises(DataError, match=r"exp.toml: rotate: true, false or \"paired\""):
        lab.load_experiment(bad)
    assert "--paired" in paired(4).command("out").split()


def test_a_paired_run_keys_each_game_by_seed_and_rotation_and_its_records_replay(tmp_path: Path) -> None:
    path = write_experiment(tmp_path, PAIRED.format(games=8))
    results = lab.run(path, out=tmp_path / "out")
    keys = [(row["seed"], row["rotation"]) for row in results.table.to_pylist()]
    assert keys == [(seed, rotation) for seed in range(20, 24) for rotation in (0, 1)]
    assert sorted(p.name for p in (tmp_path / "out" / "records").iterdir()) == sorted(f"{s}-{r}.json.gz" for s, r in keys)
    for row in results.table.to_pylist():
        record = json.loads(gzip.decompress(results.record_path(row).read_bytes()))
        assert record["lab"]["rotation"] == row["rotation"] and record["seed"] == row["seed"]
        assert list(astrarium.replay(record).returns()) == row["returns"]
    seen: list[int] = []
    lab.run(path, out=tmp_path / "out", on_game=lambda row: seen.append(row["seed"]))
    assert seen == []  # finished: nothing is played twice


def test_a_paired_run_gives_the_same_games_on_one_process_or_two(tmp_path: Path) -> None:
    experiment = paired(8, ("mcts:iterations=8,depth=2", "random"))
    one, two = lab.run(experiment, jobs=1, out=tmp_path / "one"), lab.run(experiment, jobs=2, out=tmp_path / "two")
    assert comparable(one.table) == comparable(two.table)
    for row in one.table.to_pylist():
        assert one.record_path(row).read_bytes() == two.record_path(row).read_bytes()


def test_the_paired_figures_are_seat_0s_score_over_the_deals_and_the_deals_the_seating_changed(tmp_path: Path) -> None:
    results = lab.run(paired(12, ("random", "random")), out=tmp_path / "out")
    found = lab.metrics(results)
    advantage, changed = found.get("AdvantageP1 paired"), found.get("Seating changed")
    rows = results.table.to_pylist()
    by_seed = {seed: [r for r in rows if r["seed"] == seed] for seed in range(20, 26)}
    assert advantage.games == changed.games == 6 and advantage.method == "bootstrap over deals"
    assert advantage.value == pytest.approx(found.get("AdvantageP1").value)  # every deal whole: the same mean
    assert advantage.low <= advantage.value <= advantage.high
    expected = [s for s, games in by_seed.items() if len({tuple(g["returns"][g["entries"].index(k)] for k in (0, 1)) for g in games}) > 1]
    assert found.seating_changed == expected and changed.value == pytest.approx(len(expected) / 6)
    shown = runner.invoke(app, ["lab", "metrics", str(results.folder)], terminal_width=200)
    assert shown.exit_code == 0 and "AdvantageP1 paired" in shown.output
    assert f"The seating changed the result on {len(expected)} of 6 deals" in shown.output


def outcome_table(deals_returns: list[list[tuple[float, float]]]) -> pa.Table:
    """A results table of paired two-player deals: each deal's returns in rotation 0 then rotation 1."""
    rows = [
        {"seed": seed, "rotation": rotation, "entries": [0, 1] if rotation == 0 else [1, 0], "returns": list(returns)}
        for seed, pair in enumerate(deals_returns)
        for rotation, returns in enumerate(pair)
    ]
    return pa.Table.from_pylist(rows)


RESULT = st.sampled_from([(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)])


@given(st.lists(st.lists(RESULT, min_size=2, max_size=2), min_size=1, max_size=30))
def test_over_whole_deals_the_paired_score_is_seat_0s_mean_and_its_interval_holds_it(outcomes: list[list[tuple[float, float]]]) -> None:
    found = deals(outcome_table(outcomes), 2, resamples=200)
    firsts = [(1.0 if r[0] > 0 else 0.0 if r[0] < 0 else 0.5) for pair in outcomes for r in pair]
    assert found.advantage.value == pytest.approx(sum(firsts) / len(firsts))
    assert found.advantage.low <= found.advantage.value <= found.advantage.high and found.advantage.games == len(outcomes)
    # the result followed the seat (or changed otherwise) exactly when the two games differ for some player
    assert found.seeds == [s for s, (x, y) in enumerate(outcomes) if (x[0], x[1]) != (y[1], y[0])]


def test_a_deal_missing_a_rotation_is_left_out_of_the_paired_figures() -> None:
    table = outcome_table([[(1.0, -1.0), (1.0, -1.0)], [(1.0, -1.0), (1.0, -1.0)]]).slice(0, 3)
    found = deals(table, 2)
    assert found.advantage.games == 1 and found.advantage.value == 1.0 and found.seeds == [0]  # seat 0 won either way


def test_a_stopping_rule_counts_a_paired_seed_as_one_outcome_once_all_its_rotations_are_in() -> None:
    stopper = InOrder(Answer(parse_until("seat 0 score in 0.4..0.6", 2)), group=2)
    stopper.add({"game_index": 1, "returns": [1.0, -1.0]})
    assert stopper.answer.games == 0  # game 0, the seed's other rotation, is not in yet
    stopper.add({"game_index": 0, "returns": [-1.0, 1.0]})
    assert stopper.answer.games == 2 and stopper.answer.sequence.games == 1 and stopper.answer.sequence.mean == 0.5


def test_compare_pairs_two_paired_folders_by_seed_and_rotation(tmp_path: Path) -> None:
    a = lab.run(paired(8, ("random", "random")), out=tmp_path / "a")
    same = lab.compare(a, lab.run(paired(8, ("random", "random")), out=tmp_path / "a2"))
    assert same.by_rotation and same.seeds == 8 and same.changed == [] and all(d.value == 0 for d in same.differences)
    other = lab.compare(a, lab.run(paired(8, ("random", "greedy")), out=tmp_path / "b"))
    assert other.seeds == 8 and other.changed and set(other.changed) <= {(s, r) for s in range(20, 24) for r in (0, 1)}
    shown = runner.invoke(app, ["lab", "compare", str(a.folder), str(tmp_path / "b")], terminal_width=200)
    assert shown.exit_code == 0 and "B minus A on 8 common games (paired by seed and rotation" in shown.output


def test_the_report_of_a_paired_folder_tells_the_deals_and_names_each_replay_by_seed_and_rotation(tmp_path: Path) -> None:
    lab.run(paired(6, ("greedy", "random")), out=tmp_path / "out")
    section = read_section(tmp_path / "out")
    page = report_html([section])
    assert "every seed played once in every rotation of the seats" in page and "Over 3 deals, each played in every seating" in page
    assert all(f"seed {n.seed}, rotation {n.rotation}" in page for n in section.notable)
    assert "game g has seed 20 + g // 2, the seats rotated by g % 2" in page


def strip_rotation(folder: Path) -> None:
    """Rewrite a folder's parts as they were before the rotation column: the layout of an older results folder."""
    for part in (folder / "games.parquet").iterdir():
        table = pq.read_table(part)
        pq.write_table(table.drop_columns(["rotation"]).replace_schema_metadata(table.schema.metadata), part)


def test_a_folder_written_before_the_rotation_column_is_read_and_resumed_without_a_game_twice(tmp_path: Path) -> None:
    experiment = lab.build_experiment("orbital-combat", ["greedy", "random"], games=5, options={"round_limit": 5})
    lab.run(experiment, out=tmp_path / "old", batch=2)
    strip_rotation(tmp_path / "old")
    before = lab.load(tmp_path / "old").table
    assert before.column("rotation").to_pylist() == [0, 1, 0, 1, 0]  # from the entries: the seed's own rotation
    seen: list[int] = []
    resumed = lab.run(experiment.with_games(8), out=tmp_path / "old", on_game=lambda row: seen.append(row["seed"]))
    assert sorted(seen) == [5, 6, 7]
    assert comparable(resumed.table) == comparable(lab.run(experiment.with_games(8), out=tmp_path / "new").table)
    assert lab.compare(resumed, tmp_path / "new").seeds == 8


def test_a_game_counted_twice_in_a_folder_is_refused_naming_it(tmp_path: Path) -> None:
    lab.run(paired(4), out=tmp_path / "out")
    parts = sorted((tmp_path / "out" / "games.parquet").iterdir())
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    (tmp_path / "out" / "games.parquet" / "part-000001.parquet").write_bytes(parts[0].read_bytes())
    manifest["parts"].append("part-000001.parquet")
    (tmp_path / "out" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(DataError, match=r"manifest.json: parts: a game \(seed 20, rotation 0\) is counted twice"):
        lab.load(tmp_path / "out")


def test_the_markdown_tables_say_a_folder_is_paired_and_count_compared_games(tmp_path: Path) -> None:
    for name, seats in (("a", ("random", "random")), ("b", ("random", "greedy"))):
        lab.run(paired(4, seats), out=tmp_path / name)
    overview = results_markdown([tmp_path / "a"], brief=True)
    assert "| 4 (20–21, paired) |" in overview
    full = results_markdown([tmp_path / "a"])
    assert "| AdvantageP1 paired |" in full and "bootstrap over deals" in full
    compared = comparison_markdown([tmp_path / "a", tmp_path / "b"])
    assert "| 4 games |" in compared
