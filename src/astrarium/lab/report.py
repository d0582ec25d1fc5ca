"""``astrarium lab report``: one self-contained HTML page about one or more results folders.

For each folder: the question (the experiment) and the answer in a sentence
with its 95% interval; tables per seat and per player (wins, draws, losses
with Wilson intervals), the share decided in play, the length; plots drawn to
inline SVG (Vega-Altair rendered by vl-convert); what made the figures (the
command the lab recorded, the seeds, astrarium's version and build, the
machine); and the replays of notable games (the longest, the shortest, a
typical one, an upset where a measurably weaker player won). Several folders
get one section each and a table side by side. No network: styles, plots and
replays are in the page, or the replays are written beside it when too big.
"""

from __future__ import annotations

import os
import platform
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import astrarium
from astrarium.core.build import build_kind
from astrarium.core.registry import get_game
from astrarium.lab.page import html_table as _table
from astrarium.lab.page import percent
from astrarium.lab.playtests import is_playtest
from astrarium.lab.report_people import beside_computers, people_section, playtest_question
from astrarium.lab.report_study import is_study_folder, study_section
from astrarium.lab.runner import Results, load
from astrarium.lab.summary import Summary, Tally
from astrarium.lab.trace import read_record_file
from astrarium.pictures import record_to_html

#: Replays up to this many bytes in all are embedded in the report; more are written beside it.
EMBED_LIMIT = 12_000_000


@dataclass
class Notable:
    """A game worth replaying: why, its seed and length, and its replay page."""

    why: list[str]
    seed: int
    moves: int
    rotation: int = 0
    """The seating's rotation (named when the folder is paired: a seed is then played in every rotation)."""
    page: str = ""
    file: str | None = None
    """The replay's file name beside the report, when it is not embedded."""


@dataclass
class Section:
    """One results folder: its results, summary and notable games."""

    folder: Path
    results: Results
    summary: Summary
    notable: list[Notable] = field(default_factory=list)
    upset_note: str = ""

    @property
    def identity(self) -> dict[str, Any]:
        return dict(self.results.manifest["experiment"])

    @property
    def moves(self) -> list[int]:
        return [int(m) for m in self.results.table.column("moves").to_pylist()]


# -- words ------------------------------------------------------------------------------------------------------


def question(section: Section) -> str:
    """The experiment in a sentence: game, line-up, options, games and seeds."""
    if is_playtest(section.results.manifest):
        return playtest_question(section.results)
    ident = section.identity
    lineup = " against ".join(ident["lineup"])
    seating = {True: "seats rotated every game", False: "seats fixed"}.get(
        ident.get("rotate", True), "every seed played once in every rotation of the seats"
    )
    return f"How does {lineup} fare at {ident['game']} ({seating}; {changed_options(ident)}) over {section.summary.games:,} games?"


def changed_options(identity: dict[str, Any]) -> str:
    """The options that differ from the game's defaults, in words (``options: turn_limit=20``)."""
    options = dict(identity.get("options", {}))
    try:
        defaults = get_game(identity["game"]).resolve_options(len(identity["lineup"]), {})
    except (ValueError, KeyError):
        defaults = {}
    changed = ", ".join(f"{k}={v}" for k, v in options.items() if defaults.get(k, object()) != v)
    return f"options: {changed}; the rest at their defaults" if changed else "the game's default options"


def answer(summary: Summary) -> str:
    """Seat 0's score with its interval, and each player's when the line-up is not one player against itself."""
    first = summary.first_seat
    words = f"Seat 0 scores {percent(first.score, first.score_interval)} over {summary.games:,} games"
    words += " (a draw counts half; 95% Wilson interval)."
    if summary.deals is not None and summary.deals.advantage.games:
        advantage, changed = summary.deals.advantage, summary.deals.changed
        words += (
            f" Over {advantage.games:,} deals, each played in every seating, seat 0 scores "
            f"{percent(advantage.value, advantage.interval)} (95% bootstrap interval over the deals); the seating changed "
            f"the result on {len(summary.deals.seeds):,} of them ({percent(changed.value, changed.interval)})."
        )
    if len(set(summary.lineup)) > 1:
        players = "; ".join(f"{summary.lineup[p.index]} (player {p.index}) {percent(p.score, p.score_interval)}" for p in summary.players)
        words += f" By player: {players}."
    return words


# -- notable games ----------------------------------------------------------------------------------------------


def _rows(section: Section) -> list[dict[str, Any]]:
    return list(section.results.table.select(["seed", "rotation", "moves", "entries", "returns", "scores"]).to_pylist())


def _weaker(summary: Summary) -> tuple[Tally, Tally] | None:
    """The weakest and strongest players when the weakest is measurably weaker (intervals apart), else None."""
    if len(summary.players) < 2:
        return None
    weakest = min(summary.players, key=lambda t: t.score)
    strongest = max(summary.players, key=lambda t: t.score)
    return (weakest, strongest) if weakest.score_interval[1] < strongest.score_interval[0] else None


def _margin(row: dict[str, Any], seat: int) -> float:
    """How far the seat's final score is ahead of the best other (0 when the game keeps no scores)."""
    scores = row.get("scores")
    if not scores:
        return 0.0
    return float(scores[seat]) - max(float(s) for k, s in enumerate(scores) if k != seat)


def upset(section: Section) -> tuple[Notable | None, str]:
    """The biggest upset (the weaker player's widest win, else its shortest) and a sentence on how it was told."""
    pair = _weaker(section.summary)
    if pair is None:
        return None, "No upset is shown: no player is measurably weaker than another (their score intervals overlap)."
    weakest, strongest = pair
    name = section.summary.lineup[weakest.index]
    wins = [(row, row["entries"].index(weakest.index)) for row in _rows(section) if row["returns"][row["entries"].index(weakest.index)] > 0]
    told = (
        f"player {weakest.index} ({name}) scores {percent(weakest.score, weakest.score_interval)}, below "
        f"player {strongest.index} ({section.summary.lineup[strongest.index]}) at {percent(strongest.score, strongest.score_interval)}"
    )
    if not wins:
        return None, f"No upset: {told}, and it never won."
    row, _seat = max(wins, key=lambda w: (_margin(*w), -w[0]["moves"], -w[0]["seed"]))
    return Notable([f"the biggest upset: {told}, and it won this game"], int(row["seed"]), int(row["moves"]), int(row["rotation"])), ""


def notable_games(section: Section) -> tuple[list[Notable], str]:
    """The longest, the shortest, a typical game (nearest the median length) and an upset; a game chosen twice is shown once."""
    rows = _rows(section)
    if not rows:
        return [], ""
    median = statistics.median(r["moves"] for r in rows)
    picks = [
        ("the longest", max(rows, key=lambda r: (r["moves"], -r["seed"]))),
        ("the shortest", min(rows, key=lambda r: (r["moves"], r["seed"]))),
        (f"a typical game (the median is {median:g} moves)", min(rows, key=lambda r: (abs(r["moves"] - median), r["seed"]))),
    ]
    chosen: dict[tuple[int, int], Notable] = {}
    for why, row in picks:
        key = (int(row["seed"]), int(row["rotation"]))
        chosen.setdefault(key, Notable([], key[0], int(row["moves"]), key[1])).why.append(why)
    found, note = upset(section)
    if found is not None:
        chosen.setdefault((found.seed, found.rotation), Notable([], found.seed, found.moves, found.rotation)).why.extend(found.why)
    return list(chosen.values()), note


def replay_page(results: Results, notable: Notable) -> str:
    """The HTML replay of one game of a results folder, from its record."""
    return record_to_html(read_record_file(results.record_path({"seed": notable.seed, "rotation": notable.rotation})))


def game_label(notable: Notable, paired: bool) -> str:
    """``seed 12`` or, where a seed is played in every rotation, ``seed 12, rotation 1``."""
    return f"seed {notable.seed}, rotation {notable.rotation}" if paired else f"seed {notable.seed}"


def labelled(summary: Summary) -> list[tuple[str, Tally]]:
    """Every seat's and every player's tally with its label (``seat 0``, ``player 1: random``)."""
    seats = [(f"seat {t.index}", t) for t in summary.seats]
    return seats + [(f"player {t.index}: {summary.lineup[t.index]}", t) for t in summary.players]


# -- plots ------------------------------------------------------------------------------------------------------


def _render(chart: Any) -> str:
    import vl_convert

    return str(vl_convert.vegalite_to_svg(chart.to_dict()))


def win_rate_svg(summary: Summary) -> str:
    """Each seat's and each player's win rate, a bar with its 95% interval, as SVG."""
    import altair as alt

    data = []
    for label, tally in labelled(summary):
        rate, (low, high) = tally.rate(tally.wins)
        data.append({"who": label, "win rate": rate, "low": low, "high": high})
    base = alt.Chart(alt.Data(values=data)).encode(y=alt.Y("who:N", sort=None, title=None))
    bars = base.mark_bar(color="#4c78a8").encode(x=alt.X("win rate:Q", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")))
    whiskers = base.mark_errorbar(color="black", ticks=True).encode(x=alt.X("low:Q", title="win rate (95% Wilson interval)"), x2="high:Q")
    return _render((bars + whiskers).properties(width=420, title="Win rates"))


def length_svg(moves: Sequence[int]) -> str:
    """A histogram of the games' lengths in moves, as SVG (one data row a length, so a million games stay small)."""
    import altair as alt

    chart = (
        alt.Chart(alt.Data(values=[{"moves": m, "games": n} for m, n in sorted(Counter(moves).items())]))
        .mark_bar(color="#4c78a8")
        .encode(x=alt.X("moves:Q", bin=alt.Bin(maxbins=30), title="moves"), y=alt.Y("sum(games):Q", title="games"))
        .properties(width=420, height=180, title="Game length")
    )
    return _render(chart)


def plots(section: Section) -> str:
    """The section's plots as inline SVG, or a note saying what to install."""
    try:
        return f'<div class="plots">{win_rate_svg(section.summary)}{length_svg(section.moves)}</div>'
    except ImportError as exc:
        return f"<p>Plots need altair and vl-convert-python ({escape(str(exc.name))}): pip install 'astrarium[lab]'.</p>"


# -- tables -----------------------------------------------------------------------------------------------------


def tally_table(summary: Summary) -> str:
    """Wins, draws and losses with 95% Wilson intervals, per seat and per player."""
    rows = []
    for label, tally in labelled(summary):
        rates = [percent(*tally.rate(count)) for count in (tally.wins, tally.draws, tally.losses)]
        rows.append([label, *rates, percent(tally.score, tally.score_interval), f"{tally.games:,}"])
    return _table(["seat / player", "wins", "draws", "losses", "score", "games"], rows)


def length_table(section: Section) -> str:
    """Decided in play, and the games' length in moves (and rounds where the game counts them)."""
    summary, moves = section.summary, section.moves
    rows = [["decided in play (not at a turn or round limit)", percent(*summary.by_play_rate)]]
    if moves:
        spread = f"{summary.mean_moves:.1f}, {statistics.median(moves):g}, {min(moves)}, {max(moves)}"
        rows.append(["moves: mean, median, shortest, longest", spread])
    if summary.mean_rounds is not None:
        rows.append(["mean rounds", f"{summary.mean_rounds:.1f}"])
    return _table(["figure", "value"], rows)


def provenance(section: Section) -> str:
    """What made the figures: the command the lab recorded, the seeds, version, build and machine."""
    seeds = section.results.table.column("seed").to_pylist()
    seed_text = f"{len(seeds):,} games, seeds {min(seeds)} to {max(seeds)}" if seeds else "no games"
    items = [
        ("command", f"<code>{escape(section.results.command)}</code>"),
        ("experiment", escape(section.results.experiment)),
        ("results folder", f"<code>{escape(str(section.folder))}</code>"),
        ("seeds", escape(f"{seed_text} ({_seeding(section)})")),
    ]
    return "<dl>" + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items) + "</dl>"


def _seeding(section: Section) -> str:
    if is_playtest(section.results.manifest):
        return "the seeds the web table drew for its games"
    first = section.identity.get("seed", 0)
    if section.results.paired:
        players = len(section.identity["lineup"])
        return f"game g has seed {first} + g // {players}, the seats rotated by g % {players}: every seed in every rotation"
    return f"game g has seed {first} + g"


def machine() -> str:
    """astrarium's version and build, Python, the platform and CPU count of the machine writing the report."""
    items = [
        ("astrarium", f"{astrarium.__version__} ({build_kind()})"),
        ("Python", platform.python_version()),
        ("machine", f"{platform.platform()}, {os.cpu_count()} CPUs"),
    ]
    return "<dl>" + "".join(f"<dt>{k}</dt><dd>{escape(v)}</dd>" for k, v in items) + "</dl>"


# -- the page ---------------------------------------------------------------------------------------------------


def _replay_block(notable: Notable, paired: bool) -> str:
    label = game_label(notable, paired)
    title = escape(f"{label}, {notable.moves} moves: " + "; ".join(notable.why))
    if notable.file is not None:
        return f'<li><a href="{escape(notable.file)}">{title}</a> (a file beside this report)</li>'
    frame = f'<iframe title="replay of {escape(label)}" srcdoc="{escape(notable.page, quote=True)}"></iframe>'
    return f"<li><details><summary>{title}</summary>{frame}</details></li>"


def section_html(number: int, section: Section) -> str:
    """One folder's section of the report."""
    replays = "".join(_replay_block(n, section.results.paired) for n in section.notable)
    embedded = all(n.file is None for n in section.notable)
    where = "embedded here: open one to play it" if embedded else "written as files beside this report"
    note = f"<p>{escape(section.upset_note)}</p>" if section.upset_note else ""
    return (
        f'<section id="results-{number}"><h2>{escape(section.identity["game"])}: {escape(" vs ".join(section.identity["lineup"]))}</h2>'
        f'<p class="question">{escape(question(section))}</p><p class="answer">{escape(answer(section.summary))}</p>'
        f"<h3>Results</h3>{tally_table(section.summary)}{length_table(section)}{people_section(section.results)}"
        f"<h3>Plots</h3>{plots(section)}"
        f"<h3>How these games were made</h3>{provenance(section)}"
        f'<h3>Notable games</h3><p>Replays {where}.</p>{note}<ul class="replays">{replays}</ul></section>'
    )


def side_by_side(sections: Sequence[Section]) -> str:
    """The folders' main figures in one table, a column each."""
    figures: list[tuple[str, Callable[[Section], str]]] = [
        ("game", lambda s: str(s.identity["game"])),
        ("line-up", lambda s: " vs ".join(s.identity["lineup"])),
        ("games", lambda s: f"{s.summary.games:,}"),
        ("seat 0 score", lambda s: percent(s.summary.first_seat.score, s.summary.first_seat.score_interval)),
        ("player 0 score", lambda s: percent(s.summary.players[0].score, s.summary.players[0].score_interval)),
        ("decided in play", lambda s: percent(*s.summary.by_play_rate)),
        ("mean moves", lambda s: f"{s.summary.mean_moves:.1f}"),
    ]
    rows = [[name, *(get(s) for s in sections)] for name, get in figures]
    return "<h2>Side by side</h2>" + _table(["", *(s.folder.name for s in sections)], rows)


def report_html(sections: Sequence[Section], command: str = "", studies: Sequence[tuple[str, str]] = ()) -> str:
    """The whole page; ``studies`` are the sections of sweep and tune folders, each (folder name, HTML)."""
    parts = [side_by_side(sections)] if len(sections) > 1 else []
    parts.append(beside_computers([(s.folder.name, s.results) for s in sections]))
    parts += [section_html(k, s) for k, s in enumerate(sections)]
    parts += [html for _, html in studies]
    made = f"<p>Written by <code>{escape(command)}</code>.</p>" if command else ""
    title = "astrarium lab report: " + ", ".join([*(s.folder.name for s in sections), *(name for name, _ in studies)])
    return _PAGE.format(title=escape(title), style=_STYLE, body="".join(parts), made=made, machine=machine())


def read_section(folder: str | Path) -> Section:
    """A results folder read for the report (a DataError if it is not one)."""
    results = load(folder)
    section = Section(results.folder, results, results.summary())
    section.notable, section.upset_note = notable_games(section)
    for notable in section.notable:
        notable.page = replay_page(results, notable)
    return section


def write_report(folders: Sequence[str | Path], out: str | Path, command: str = "") -> Path:
    """Write the report of ``folders`` to ``out``; replays too big to embed go beside it (``<out stem>-replays/``)."""
    path = Path(out)
    studies = [(Path(f).name, study_section(k, f)) for k, f in enumerate(folders) if is_study_folder(f)]
    sections = [read_section(f) for f in folders if not is_study_folder(f)]
    if sum(len(n.page) for s in sections for n in s.notable) > EMBED_LIMIT:
        _write_replays(sections, path)
    path.write_text(report_html(sections, command, studies), encoding="utf-8")
    return path


def _write_replays(sections: Sequence[Section], out: Path) -> None:
    """Each notable game's replay as a file beside the report, named by section and seed."""
    folder = out.with_name(f"{out.stem}-replays")
    folder.mkdir(parents=True, exist_ok=True)
    for number, section in enumerate(sections):
        for notable in section.notable:
            game = f"{notable.seed}-{notable.rotation}" if section.results.paired else f"{notable.seed}"
            name = f"{number}-{section.folder.name}-{game}.html"
            (folder / name).write_text(notable.page, encoding="utf-8")
            notable.file = f"{folder.name}/{name}"


_STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
body{margin:0 auto;max-width:980px;padding:1rem;color:#1b1f2a}
h1{font-size:1.5rem}h2{margin-top:2rem;border-bottom:1px solid #ccd}h3{margin-bottom:.3rem}
.answer{font-size:1.15rem;font-weight:600}.question{color:#445}
table{border-collapse:collapse;margin:.5rem 0;display:block;max-width:100%;overflow-x:auto}
th,td{border:1px solid #ccd;padding:.2rem .5rem;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
.plots svg{display:block;max-width:100%;height:auto;margin:.5rem 0}
dt{font-weight:600}dd{margin:0 0 .4rem 1rem;overflow-wrap:anywhere}
iframe{width:100%;height:900px;border:1px solid #ccd}
"""

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>{title}</title><style>{style}</style></head>
<body><h1>{title}</h1>
{body}
<h2>The machine writing this report</h2>{machine}{made}
<p>The results folders record the command, the experiment and the seeds, not the machine their games were played on.</p>
</body></html>
"""
