"""``astrarium lab import``: a web table's finished games, read-only, in a results folder beside simulated ones.

The databases are made by the web table itself: games played through its
lobby API and WebSockets (tests/web's helpers), a person against a person and
against a computer player, feedback given at the end, one game left
unfinished and one whose stored action no longer replays (written over, as a
change of rules would leave it). The import is checked row by row against
what the table stored, its records replayed, the database file unchanged to
the byte and a write through its connection refused, on SQLite and on a
throwaway PostgreSQL cluster (which must be there: its absence fails).
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from lab_helpers import report_page, step_replay  # noqa: E402
from pgcluster import Cluster, start_cluster  # noqa: E402
from webclient import Player, make_settings, new_game, running, seat_token, sql, stored_actions  # noqa: E402

import astrarium  # noqa: E402
from astrarium import lab  # noqa: E402
from astrarium.cli import app  # noqa: E402
from astrarium.core.errors import DataError  # noqa: E402
from astrarium.lab import playtests, tabledb  # noqa: E402
from astrarium.lab.report_people import holders  # noqa: E402
from astrarium.web import Settings  # noqa: E402
from astrarium.web.storage import StoredSeat, feedback  # noqa: E402
from helpers import BROWSER_ARTIFACTS, open_offline  # noqa: E402

runner = CliRunner()
PERSON = {"kind": "person"}
COMPUTER = {"kind": "computer", "level": "easy"}


def play(client: Any, seats: list[dict[str, Any]], rounds: int, said: dict[int, tuple[int, str]] | None = None, finish: bool = True) -> str:
    """A game of Orbital Combat at the table, its people playing their first legal action, then their feedback; its id."""
    made = new_game(client, "orbital-combat", seats, me=0, options={"round_limit": rounds})
    people = {s: Player(client, made["table"], seat_token(made, s)) for s, seat in enumerate(seats) if seat["kind"] == "person"}
    state = people[0].position(0)
    while finish and not state["over"]:
        mover = people.get(state["to_move"])
        if mover is not None:
            mover.act(mover.position(state["move"])["legal"][0], state["move"])
        state = people[0].state(state["move"] + 1)
    for seat, (fun, text) in (said or {}).items():
        people[seat].send({"type": "feedback", "fun": fun, "text": text})
        people[seat].until(lambda m: m["type"] == "thanks")
    for player in people.values():
        player.close()
    return str(made["table"])


@dataclass
class Table:
    """A web table's database and what was played into it."""

    settings: Settings
    url: str
    people: str
    against_computer: str
    unfinished: str
    broken: str
    three: str


def fill(settings: Settings, url: str) -> Table:
    """Play the games of a playtest at a web table on ``settings``; ``url`` is how the import names its database."""
    with running(settings) as client:
        people = play(client, [PERSON, PERSON], 1, {0: (5, "close to the end"), 1: (2, "too short")})
        against = play(client, [PERSON, COMPUTER], 2, {0: (3, "the computer\nflew well")})
        unfinished = play(client, [PERSON, PERSON], 2, finish=False)
        broken = play(client, [PERSON, PERSON], 1)
        three = play(client, [PERSON, PERSON, PERSON], 1)
    sql(settings, "UPDATE actions SET notation = 'warp 9' WHERE game_id = :t AND n = 1", t=broken)
    return Table(settings, url, people, against, unfinished, broken, three)


@pytest.fixture(scope="module")
def sqlite_table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    settings = make_settings(tmp_path_factory.mktemp("table"))
    return fill(settings, str(settings.data_dir / "astrarium.db"))


@pytest.fixture(scope="module")
def postgres() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster; where PostgreSQL is missing this fails (the import from PostgreSQL must be tested)."""
    try:
        cluster = start_cluster()
    except pytest.skip.Exception as missing:
        pytest.fail(f"the import from PostgreSQL is tested on a throwaway cluster: {missing}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def postgres_table(postgres: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Table:
    settings = make_settings(tmp_path_factory.mktemp("pg"), db_url=postgres.new_database())
    return fill(settings, str(settings.db_url).replace("postgresql+asyncpg://", "postgresql://"))


def stored(settings: Settings, table: str) -> dict[str, Any]:
    """What the web table stored of a game: seed, result, actions."""
    ((seed, result),) = sql(settings, "SELECT seed, result FROM games WHERE id = :t", t=table)
    actions = [notation for _n, _seat, notation in stored_actions(settings, table)]
    return {"seed": int(seed), "result": json.loads(result), "actions": actions}


def check_import(table: Table, out: Path) -> playtests.Imported:
    """Import the two-player games and check every row and record against what the table stored."""
    imported = lab.import_games(table.url, "orbital-combat", out=out, players=2)
    assert imported.added == 2 and imported.known == 0 and imported.unfinished == 1 and imported.other_players == 1
    assert list(imported.skipped) == [table.broken] and "move 1 ('warp 9') does not replay" in imported.skipped[table.broken]
    rows = {row["table"]: row for row in imported.table.to_pylist()}
    assert set(rows) == {table.people, table.against_computer}
    people, against = rows[table.people], rows[table.against_computer]
    assert people["kinds"] == ["person", "person"] and people["seats"] == ["person", "person"]
    assert people["fun"] == [5, 2] and people["comments"] == ["close to the end", "too short"]
    assert against["kinds"] == ["person", "computer"] and against["levels"] == [None, "easy"] and against["seats"] == ["person", "random"]
    assert against["fun"] == [3, None] and against["comments"] == ["the computer\nflew well", None]
    for game_id, row in rows.items():
        kept = stored(table.settings, game_id)
        assert row["seed"] == kept["seed"] and row["returns"] == kept["result"]["returns"] and row["reason"] == kept["result"]["reason"]
        assert row["moves"] == len(kept["actions"]) == sum(row["moves_by_seat"]) and row["ended_by"] == "limit"
        assert all(seconds >= 0 for seconds in row["think_seconds"]) and json.loads(row["options"])["round_limit"] in (1, 2)
        record = json.loads(gzip.decompress((out / "records" / f"{row['seed']}.json.gz").read_bytes()))
        assert record["actions"] == kept["actions"] and record["result"] == kept["result"] and record["table"] == game_id
        again = astrarium.replay(record)
        assert again.is_over and again.to_record() == {k: v for k, v in record.items() if k not in ("seats", "table", "feedback", "lab")}
    return imported


def digest(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


async def try_to_write(url: str) -> None:
    """Store a feedback row through the import's own read-only connection."""
    database = tabledb.locate(url)
    async with tabledb.connect(database) as conn:
        await conn.execute(feedback.insert().values(game_id="x", seat=0, fun=1, text="", at=datetime.now(UTC)))
        await conn.commit()


# -- SQLite ---------------------------------------------------------------------------------------------------------------


def test_finished_games_come_with_their_seats_feedback_and_records_that_replay_as_stored(sqlite_table: Table, tmp_path: Path) -> None:
    before = digest(Path(sqlite_table.url))
    check_import(sqlite_table, tmp_path / "people")
    assert digest(Path(sqlite_table.url)) == before  # not a byte nor the time of a write changed


def test_the_import_cannot_write_to_an_sqlite_table(sqlite_table: Table) -> None:
    with pytest.raises(DataError, match="readonly database"):
        asyncio.run(try_to_write(sqlite_table.url))
    with pytest.raises(DataError, match="readonly database"):
        asyncio.run(try_to_write("sqlite:///" + sqlite_table.url))


def test_importing_again_adds_only_the_games_finished_since(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "table")
    with running(settings) as client:
        first = play(client, [PERSON, COMPUTER], 1)
    database = str(settings.data_dir / "astrarium.db")
    assert lab.import_games(database, out=tmp_path / "people").added == 1  # the only game and player count there are
    with running(settings) as client:
        second = play(client, [PERSON, PERSON], 1)
    again = lab.import_games(database, out=tmp_path / "people")
    assert (again.added, again.known) == (1, 1) and sorted(again.table.column("table").to_pylist()) == sorted([first, second])
    assert lab.import_games(database, out=tmp_path / "people").added == 0
    assert sorted(again.table.column("game_index").to_pylist()) == [0, 1]


def test_a_database_of_several_player_counts_asks_which(sqlite_table: Table, tmp_path: Path) -> None:
    with pytest.raises(DataError, match="player counts \\(2, 3\\): give --players"):
        lab.import_games(sqlite_table.url, out=tmp_path / "any")
    three = lab.import_games(sqlite_table.url, out=tmp_path / "three", players=3)
    assert three.table.column("kinds").to_pylist() == [["person", "person", "person"]]
    with pytest.raises(DataError, match="another experiment"):  # a folder holds one game at one player count
        lab.import_games(sqlite_table.url, out=tmp_path / "three", players=2)
    with pytest.raises(DataError, match="no finished games here for --players 4; the finished games are of player count 2, 3"):
        lab.import_games(sqlite_table.url, out=tmp_path / "four", players=4)
    with pytest.raises(DataError, match="no finished games here for --game celestials; the finished games are of game orbital-combat"):
        lab.import_games(sqlite_table.url, "celestials", out=tmp_path / "four")


@pytest.mark.parametrize(
    ("db", "said"),
    [
        ("{tmp}/missing.db", "no such file"),
        ("{tmp}/notes.txt", "cannot read it: file is not a database"),
        ("{tmp}/other.db", "not a database of the web table"),
        ("{tmp}", "not a file"),
        ("mysql://user@host/games", "SQLite or PostgreSQL, not 'mysql'"),
        ("sqlite://", "an SQLite URL names a file"),
        ("postgresql://nobody@127.0.0.1:1/none", "cannot read it"),
    ],
)
def test_a_bad_database_is_one_line(tmp_path: Path, db: str, said: str) -> None:
    (tmp_path / "notes.txt").write_text("not a database\n" * 200, encoding="utf-8")
    sql(make_settings(tmp_path, db_url=f"sqlite:///{tmp_path / 'other.db'}"), "CREATE TABLE notes (line TEXT)")
    result = runner.invoke(app, ["lab", "import", "--db", db.format(tmp=tmp_path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert said in result.output and result.output.count("error:") == 1


def test_without_the_web_extra_the_import_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "astrarium.lab.tabledb", None)  # as if its drivers were not installed
    result = runner.invoke(app, ["lab", "import", "--db", str(tmp_path / "x.db"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "pip install 'astrarium[web]'" in result.output and "Traceback" not in result.output


# -- PostgreSQL -----------------------------------------------------------------------------------------------------------


def test_the_same_import_from_postgresql(postgres_table: Table, tmp_path: Path) -> None:
    count = "SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM actions) + (SELECT count(*) FROM feedback)"
    before = sql(postgres_table.settings, count)
    check_import(postgres_table, tmp_path / "people")
    assert sql(postgres_table.settings, count) == before


def test_the_import_cannot_write_to_a_postgresql_table(postgres_table: Table) -> None:
    with pytest.raises(DataError, match="read-only transaction"):
        asyncio.run(try_to_write(postgres_table.url))


# -- the people beside the computers ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def folders(sqlite_table: Table, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("beside")
    lab.import_games(sqlite_table.url, out=root / "people", players=2)
    lab.run(lab.build_experiment("orbital-combat", ["greedy", "random"], games=2, options={"round_limit": 2}), out=root / "sim")
    return [root / "people", root / "sim"]


@pytest.fixture(scope="module")
def page(folders: list[Path]) -> str:
    return report_page(folders, folders[0].parent / "r.html")


def test_every_metric_reads_an_imported_folder(folders: list[Path]) -> None:
    found = lab.metrics(folders[0], replay=True)
    assert found.games == 2 and found.get("Completion").value == 0.0 and found.get("BranchingFactor").value > 1
    assert found.get("Duration moves").value == 3.0 and found.usage
    result = runner.invoke(app, ["lab", "metrics", str(folders[0]), "--replay"])
    assert result.exit_code == 0 and "LeadChange" in result.output and "lab import" in result.output


def test_the_report_sets_people_beside_the_computer_players_and_shows_the_most_fun_game(folders: list[Path], page: str) -> None:
    people = lab.load(folders[0])
    assert "People beside computer players" in page and "How do people fare at orbital-combat at the web table" in page
    rows = {h.name: h for h in holders(people)}
    person = rows["person"]
    assert person.first.games == 2 and person.anywhere.games == 3  # seat 0 of both games, and seat 1 of one
    assert f"<td>person</td><td>people</td><td>{person.first.value * 100:.1f}%" in page
    assert "<td>greedy</td><td>sim</td>" in page and "<td>computer (easy)</td><td>people</td>" in page
    assert page.index("3.5 (2)") < page.index("3.0 (1)")  # the most fun first: mean of 5 and 2, then 3
    assert "seat 0: close to the end / seat 1: too short" in page and 'id="top-rated"' in page
    assert "the seeds the web table drew" in page and people.command in page


def test_the_people_report_renders_offline_in_chromium(browser: Any, page: str) -> None:
    tab, errors, requests = open_offline(browser, page, "lab-report-people")
    assert "People beside computer players" in tab.inner_text("body")
    tab.locator("#top-rated summary").click()
    assert step_replay(tab.frame_locator("#top-rated iframe")).startswith("after move ")
    tab.screenshot(path=str(BROWSER_ARTIFACTS / "lab-report-people.png"), full_page=False)
    assert not errors, errors
    assert not requests, requests
    tab.close()


# -- thinking time ----------------------------------------------------------------------------------------------------------


@given(st.lists(st.tuples(st.sampled_from([0, 1, None]), st.floats(0, 600, allow_nan=False)), max_size=40))
def test_thinking_time_is_never_negative_and_never_more_than_the_game_lasted(moves: list[tuple[int | None, float]]) -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    at = start
    game = tabledb.TableGame("t", "orbital-combat", 2, 1, {}, start, start, {}, [StoredSeat(0, "person"), StoredSeat(1, "person")])
    for seat, pause in moves:
        at += timedelta(seconds=pause)
        game.moves.append(tabledb.Move(seat, "coast", at))
    seconds = playtests.think_seconds(game)
    assert all(s >= 0 for s in seconds)
    assert sum(seconds) <= (at - start).total_seconds() + 1e-6
