"""No measured figure in a code comment or docstring: figures live in documents beside their command (STYLE.md, 15).

A comment says why a choice was made and points to the document section that
holds the figures ("see docs/agents.md, Levels"). This test reads every comment
(``tokenize``) and every docstring (``ast``: modules, classes, functions, and
the string under an assignment that documents it) under ``src/astrarium`` and
fails on the shapes a measurement takes: a share of games (``77% of 200
games``, ``lost 42% of its games``), a count of games (``6 of 20 capture
games``) and a win rate (``a win rate of 58%``, ``wins 89%``). A rule's number,
a limit or the level of an interval (``95% interval``) has none of these
shapes, so it passes.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "astrarium"

#: A number with its percent sign (``77%``, ``58.5 %``).
_PERCENT = r"\d+(?:\.\d+)?\s*%"
#: What a measurement is a share or a count of, with up to three words before it (``of its games``, ``of 200 capture games``).
_OF_GAMES = r"of\s+(?:[\w'-]+\s+){0,3}?(?:games?|matches|runs|deals)\b"
MEASUREMENT = re.compile(
    "|".join(
        (
            rf"{_PERCENT}\s+{_OF_GAMES}",  # 77% of 200 games, 86% of its games
            r"\b\d+\s+(?:of|out\s+of)\s+\d+\s+(?:[\w'-]+\s+){0,2}?(?:games?|matches|runs|deals)\b",  # 6 of 20 capture games
            rf"\bwin(?:ning)?\s+rates?\s+(?:of\s+|was\s+|is\s+)?(?:about\s+)?{_PERCENT}",  # a win rate of 58%
            rf"\b(?:won|wins|win|lost|loses|lose|beat|beats|rescued|rescues)\s+(?:about\s+|only\s+|in\s+)?{_PERCENT}",  # wins 89%
        )
    ),
    re.IGNORECASE,
)


def comments_and_docstrings(path: Path) -> Iterator[tuple[int, str, str]]:
    """Every line of a comment or docstring of the file: its number, its text and the text of the line after it.

    A figure may wrap onto the next line of its comment or docstring, so each line is read with the next one.
    """
    text = path.read_text(encoding="utf-8")
    comments = [
        (token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(text).readline) if token.type == tokenize.COMMENT
    ]
    for index, (line, comment) in enumerate(comments):
        after_line, after = comments[index + 1] if index + 1 < len(comments) else (0, "")
        yield line, comment, after if after_line == line + 1 else ""
    for node in ast.walk(ast.parse(text, filename=str(path))):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for index, statement in enumerate(body):
            documents = index == 0 or isinstance(body[index - 1], (ast.Assign, ast.AnnAssign))
            if (
                documents
                and isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                lines = statement.value.value.splitlines()
                for offset, docline in enumerate(lines):
                    yield statement.lineno + offset, docline, lines[offset + 1] if offset + 1 < len(lines) else ""


def figures_in(path: Path) -> list[tuple[int, str]]:
    """(line, the figure) for every figure a comment or docstring of ``path`` states, by the line it starts on."""
    found = set()
    for line, text, after in comments_and_docstrings(path):
        match = MEASUREMENT.search(f"{text} {after.lstrip(' #:')}")
        if match and match.start() < len(text):
            found.add((line, match.group(0)))
    return sorted(found)


def test_no_comment_or_docstring_states_a_measured_figure() -> None:
    found = [
        f"{path.relative_to(SOURCE.parents[1])}:{line}: {figure!r}"
        for path in sorted(SOURCE.rglob("*.py"))
        for line, figure in figures_in(path)
    ]
    assert not found, (
        "measured figures in code comments or docstrings; move each to its document beside its command and point to "
        "the section there (STYLE.md, point 15):\n" + "\n".join(found)
    )


def test_the_pattern_tells_measurements_from_rule_numbers() -> None:
    measurements = [
        "beat the general in 77% of 200 games",
        "the unguided search lost 81 to 86% of its games",
        "it lost 42% of 200 capture games",
        "the search lost 9, 10 and 6 of 20 capture games",
        "gave the first seat 58.5% of capture games",
        "won 23% of introductory games",
        "With depth=2 it wins about 89% of games against random play.",
        "a win rate of 58%",
    ]
    numbers = [
        "win/draw/loss rates with 95% intervals",
        "Hull lead over the strongest opponent (90%) and reaction-mass lead (10%)",
        "``Round 3 of 12 begins.``",
        "the most of a shot's strength defense can stop, in percent",
        "At most this share of all targets may ask for green (the old set had 15 of 24).",
    ]
    assert [text for text in measurements if not MEASUREMENT.search(text)] == []
    assert [text for text in numbers if MEASUREMENT.search(text)] == []


def test_a_figure_is_found_in_comments_and_docstrings_by_its_line(tmp_path: Path) -> None:
    path = tmp_path / "sample.py"
    lines = [
        '"""A module whose hard level wins',
        'about 89% of games."""',
        "",
        "#: It beats the general in 77% of",
        "#: 200 games.",
        "LEVEL = 1",
        '"""Chosen: 6 of 20 games."""',
        "",
        "",
        "def f() -> str:",
        '    return "won 23% of introductory games"  # a string, not a comment',
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert figures_in(path) == [(1, "wins about 89%"), (2, "89% of games"), (4, "77% of 200 games"), (7, "6 of 20 games")]
