"""People in ``astrarium lab report``: an imported folder's people and computer players, the fun they had, beside simulations.

A results folder imported from the web table (:mod:`astrarium.lab.playtests`)
gets, in its section, the score of each kind of seat holder (people,
computer players by level) in seat 0 and in any seat, with 95% Wilson
intervals, and the games people rated: fun by game with what happened in
them (length, winner, decided in play or at the limit, their words) and the
replay of the top-rated one. Given imported and simulated folders together,
the report first sets the people beside the simulated players: each holder's
score in seat 0 and in any seat, folder by folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from astrarium.lab.estimates import Estimate, game_scores, mean_estimate, proportion
from astrarium.lab.page import html_table, percent
from astrarium.lab.playtests import PERSON, is_playtest, plural
from astrarium.lab.trace import read_record_file
from astrarium.pictures import record_to_html

if TYPE_CHECKING:
    from astrarium.lab.runner import Results

#: How many rated games the fun table lists, the most fun first.
FUN_ROWS = 10


@dataclass(frozen=True, slots=True)
class Holder:
    """Who held seats in a folder's games, and how they scored: in seat 0, and in any seat."""

    name: str
    first: Estimate
    anywhere: Estimate


def holder_names(results: Results) -> list[list[str]]:
    """Per game, who held each seat: ``person`` or ``computer (level)`` for an import, the line-up's player otherwise."""
    table = results.table
    if is_playtest(results.manifest):
        kinds = table.column("kinds").to_pylist()
        levels = table.column("levels").to_pylist()
        return [[_holder(k, lv) for k, lv in zip(ks, ls, strict=True)] for ks, ls in zip(kinds, levels, strict=True)]
    lineup = results.lineup
    return [[lineup[entry] for entry in entries] for entries in table.column("entries").to_pylist()]


def _holder(kind: str | None, level: str | None) -> str:
    return PERSON if kind == PERSON else f"computer ({level or kind})"


def holders(results: Results) -> list[Holder]:
    """Each holder's score (a draw half a win) in seat 0 and in any seat, people first."""
    first: dict[str, list[float]] = {}
    anywhere: dict[str, list[float]] = {}
    for names, returns in zip(holder_names(results), results.table.column("returns").to_pylist(), strict=True):
        scores = game_scores(returns)
        first.setdefault(names[0], []).append(scores[0])
        for name, score in zip(names, scores, strict=True):
            anywhere.setdefault(name, []).append(score)
    ordered = sorted(anywhere, key=lambda name: (name != PERSON, name))
    return [
        Holder(name, proportion(f"{name} seat 0", sum(first.get(name, [])), len(first.get(name, []))), proportion(name, sum(s), len(s)))
        for name, s in ((name, anywhere[name]) for name in ordered)
    ]


def _rate(estimate: Estimate) -> str:
    return percent(estimate.value, estimate.interval) if estimate.games else "-"


def holders_rows(results: Results, folder: str | None = None) -> list[list[str]]:
    """One row a holder: who, (the folder,) the score in seat 0, in any seat, and the seats counted."""
    where = [] if folder is None else [folder]
    return [[h.name, *where, _rate(h.first), f"{h.first.games:,}", _rate(h.anywhere), f"{h.anywhere.games:,}"] for h in holders(results)]


HEADINGS = ["who", "score in seat 0", "games in seat 0", "score in any seat", "seats"]


def playtest_question(results: Results) -> str:
    """An imported folder's question: how people fare at the game, over how many games, from which database."""
    identity = results.manifest["experiment"]
    kinds = results.table.column("kinds").to_pylist() if results.table.num_rows else []
    with_people = sum(PERSON in k for k in kinds)
    return (
        f"How do people fare at {identity['game']} at the web table ({identity['players']} players), against each other and "
        f"computer players? {len(kinds):,} finished games imported from {identity['imported']}, {with_people:,} with a person seated."
    )


# -- fun ----------------------------------------------------------------------------------------------------------------


def _winner(row: dict[str, Any]) -> str:
    if all(value == 0 for value in row["returns"]):
        return "a draw"
    if not row["winners"]:
        return "nobody"
    names = [_holder(row["kinds"][s], row["levels"][s]) for s in row["winners"]]
    return ", ".join(f"seat {s} ({name})" for s, name in zip(row["winners"], names, strict=True))


def rated(results: Results) -> list[dict[str, Any]]:
    """The games at least one seat rated, the most fun (mean of the ratings) first, then the longer."""
    rows = [row for row in results.table.to_pylist() if any(f is not None for f in row["fun"])]
    for row in rows:
        ratings = [f for f in row["fun"] if f is not None]
        row["mean_fun"] = sum(ratings) / len(ratings)
    return sorted(rows, key=lambda r: (-r["mean_fun"], -r["moves"], r["seed"]))


def fun_rows(rows: Sequence[dict[str, Any]]) -> list[list[str]]:
    """A rated game a row: fun, the table's game id, length, winner, how it ended, the players' words."""
    shown = []
    for row in rows[:FUN_ROWS]:
        ratings = [f for f in row["fun"] if f is not None]
        words = " / ".join(f"seat {s}: {c}" for s, c in enumerate(row["comments"]) if c)
        length = plural(row["moves"], "move") + ("" if row["rounds"] is None else ", " + plural(row["rounds"], "round"))
        ended = "in play" if row["ended_by"] == "play" else "at the limit"
        shown.append([f"{row['mean_fun']:.1f} ({len(ratings)})", row["table"], length, _winner(row), ended, words[:300]])
    return shown


def fun_figures(rows: Sequence[dict[str, Any]]) -> list[list[str]]:
    """Fun over every rating, and when the seat rating the game had won or not (means with 95% normal intervals)."""
    won: list[float] = []
    lost: list[float] = []
    for row in rows:
        for fun, value in zip(row["fun"], row["returns"], strict=True):
            if fun is not None:
                (won if value > 0 else lost).append(float(fun))
    figures = [("fun, every rating", mean_estimate("fun", won + lost)), ("when the seat rating it won", mean_estimate("won", won))]
    figures.append(("when it drew or lost", mean_estimate("lost", lost)))
    return [[name, f"{e.value:.2f} ({e.low:.2f}-{e.high:.2f})" if e.games > 1 else "-", f"{e.games:,}"] for name, e in figures]


def top_replay(results: Results, row: dict[str, Any]) -> str:
    """The replay of the top-rated game, embedded as the report embeds its notable games."""
    page = record_to_html(read_record_file(results.record_path(row)))
    title = escape(f"replay of the top-rated game: table {row['table']}, fun {row['mean_fun']:.1f}, seed {row['seed']}")
    frame = f'<iframe title="replay of the top-rated game" srcdoc="{escape(page, quote=True)}"></iframe>'
    return f'<ul class="replays"><li id="top-rated"><details><summary>{title}</summary>{frame}</details></li></ul>'


def people_section(results: Results) -> str:
    """An imported folder's part of its section: who scored what, and the fun (empty for a simulated folder)."""
    if not is_playtest(results.manifest):
        return ""
    parts = ["<h3>People and computer players</h3>", html_table(HEADINGS, holders_rows(results))]
    rows = rated(results)
    parts.append("<h3>Fun</h3>")
    if not rows:
        parts.append("<p>No game was rated (players rate a game at the table once it is over).</p>")
        return "".join(parts)
    first = f" (the first {FUN_ROWS})" if len(rows) > FUN_ROWS else ""
    parts.append(f"<p>{len(rows):,} games rated (fun 1 to 5), the most fun first{first}.</p>")
    parts.append(html_table(["fun (ratings)", "table", "length", "winner", "ended", "what they said"], fun_rows(rows)))
    parts.append(html_table(["fun", "mean (95% interval)", "ratings"], fun_figures(rows)))
    parts.append(top_replay(results, rows[0]))
    return "".join(parts)


def beside_computers(folders: Sequence[tuple[str, Results]]) -> str:
    """People's scores beside the simulated players', folder by folder (empty unless imported and simulated folders are both given)."""
    imported = [(name, r) for name, r in folders if is_playtest(r.manifest)]
    simulated = [(name, r) for name, r in folders if not is_playtest(r.manifest)]
    if not imported or not simulated:
        return ""
    rows = [row for name, results in [*imported, *simulated] for row in holders_rows(results, name)]
    note = (
        "<p>Each holder's score (a draw half a win) with its 95% Wilson interval: in seat 0, and in any seat (every seat a "
        "holder had counts once). People's games were chosen by the people (opponents, options), simulated ones by the "
        "experiment: compare like with like (the same game and options).</p>"
    )
    return "<h2>People beside computer players</h2>" + note + html_table(["who", "results folder", *HEADINGS[1:]], rows)
