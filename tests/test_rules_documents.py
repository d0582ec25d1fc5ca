"""The rules documents and their balance pages: `astrarium rules GAME --full` at 80 columns, and the links between them.

`--full` shows the rules, the decisions and the options: at 80 columns no table cell is cut short,
no picture appears as a line of text, and no measurement is shown (no arena command, no interval);
those live in docs/balance/<game-id>.md, and every link between the two resolves to a heading.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import astrarium

GAMES = [g for g in astrarium.list_games() if not g.startswith("toy")]
DOCS = Path(__file__).resolve().parents[1] / "docs"  # the checkout, not the install

#: a win rate with its interval, as the balance pages write them: 58.5% (51.6–65.1), 95% (89%-98%), 50.7% (45.0%..56.3%)
INTERVAL = re.compile(r"\d%\s*\(\s*[−+]?\d+(?:\.\d+)?%?\s*(?:–|-|\.\.)\s*[−+]?\d")
#: a Markdown link to another document, with the heading it points at if any
LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#([^)\s]+))?\)")


@functools.cache
def full_rules(game_id: str) -> str:
    """What `astrarium rules GAME --full` prints at 80 columns (not a terminal, so no pager); run once a game."""
    env = {**os.environ, "COLUMNS": "80", "LINES": "40", "NO_COLOR": "1", "TERM": "dumb"}
    done = subprocess.run(
        [sys.executable, "-m", "astrarium", "rules", game_id, "--full"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def table_cells(markdown: str) -> list[str]:
    """The text of every body cell of every table in a Markdown document."""
    cells, in_body = [], False
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        if token.type in ("tbody_open", "tbody_close"):
            in_body = token.type == "tbody_open"
        elif in_body and token.type == "inline":
            cells.append("".join(child.content for child in token.children or [] if child.type in ("text", "code_inline")))
    return cells


def slug(heading: str) -> str:
    """The anchor a Markdown heading gets (as GitHub makes it): lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lstrip("#").strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of the headings of a Markdown file (headings inside code blocks are not headings)."""
    found, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            found.add(slug(line))
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_full_rules_at_80_columns_cut_no_table_cell_and_show_no_picture(game_id: str) -> None:
    text = astrarium.get_game(game_id).rules_text()
    shown = full_rules(game_id)
    assert max(len(line) for line in shown.splitlines()) <= 80
    assert "…" not in shown  # Rich marks a cell it cuts short with an ellipsis
    cells = table_cells(text)
    assert cells, "every rules document has tables (options, notation)"
    cut = [(word, cell) for cell in cells for word in cell.split() if word not in shown]
    assert not cut, cut[:5]
    assert re.search(r"!\[[^\]]*\]\(", text), "the rules document has its picture"
    assert "![" not in shown and ".svg" not in shown and "A position of the game as astrarium draws it" not in shown


@pytest.mark.parametrize("game_id", GAMES)
def test_full_rules_hold_no_measurement(game_id: str) -> None:
    """The evidence (arena runs, intervals) is in the balance page; the rules keep the decisions and their reasons."""
    text = astrarium.get_game(game_id).rules_text()
    shown = full_rules(game_id)
    for document in (text, shown):
        assert "astrarium arena" not in document and "--jobs" not in document and "Wilson" not in document
        assert INTERVAL.search(document) is None, INTERVAL.search(document)
    assert "## Decisions" in text and "options (--option name=value)" in shown  # the decisions and the options stay


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_link_to_their_balance_page_and_every_link_resolves(game_id: str) -> None:
    rules = DOCS / "rules" / f"{game_id}.md"
    balance = DOCS / "balance" / f"{game_id}.md"
    assert rules.read_text(encoding="utf-8") == astrarium.get_game(game_id).rules_text()  # docs/rules is the package's rules.md
    text = rules.read_text(encoding="utf-8")
    assert "## Balance" in text and f"](../balance/{game_id}.md)" in text.split("## Balance", 1)[1]
    for source in (rules, balance):
        links = LINK.findall(source.read_text(encoding="utf-8"))
        assert links, f"{source.name} links to nothing"
        for target, anchor in links:
            path = (source.parent / target).resolve()
            assert path.is_file(), f"{source}: {target}"
            if anchor:
                assert anchor in anchors(path), f"{source}: {target}#{anchor} is no heading of {path.name}"


@pytest.mark.parametrize("game_id", GAMES)
def test_balance_page_keeps_each_figure_beside_its_command(game_id: str) -> None:
    text = (DOCS / "balance" / f"{game_id}.md").read_text(encoding="utf-8")
    assert text.startswith(f"# {astrarium.get_game(game_id).title}: balance")
    assert INTERVAL.search(text), "the measured runs and their intervals"
    assert re.search(r"astrarium (arena|lab) |python (-m astrarium|scripts/)", text), "the commands that made them"
    assert "game-id>.md" in (DOCS / "balance" / "README.md").read_text(encoding="utf-8")
