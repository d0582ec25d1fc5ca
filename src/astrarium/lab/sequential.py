"""Stopping rules: play until a question about the games is answered at 95%, looking after every game.

An experiment's ``until`` (or ``--until``) asks about one share of the games,
each game giving a number in [0, 1]:

* ``seat 0 score in 0.45..0.55``: seat 0's score (a draw half a win) inside an interval, or not;
* ``seat 1 score >= 0.5``, ``seat 0 wins < 0.6``, ``player B score > 0.5``, ``draws <= 0.1``;
* ``B beats A``: line-up entry B scores more than A (in a game: 1 if B's return is above A's,
  0.5 if equal), that is ``B``'s share above 0.5; ``decided >= 0.8``: the share decided in play.

After every game (in plan order) the share's 95% **confidence sequence** is
updated: a sequence of intervals that hold the true share at every game at
once with probability 95%, so looking after every game and stopping as soon
as the question is answered stays right at least 95% of the time. This one is
Robbins' normal mixture for bounded outcomes (Howard, Ramdas, McAuliffe and
Sekhon 2021, eq. 14): outcomes in [0, 1] are 1/2-sub-Gaussian (Hoeffding's
lemma), so with ``t`` games, mean ``m``, ``V = t/4`` and the mixture
parameter ``rho``, the share lies within

    m +- sqrt((V + rho) * log((V + rho) / (rho * alpha**2))) / t

for every ``t`` at once with probability at least ``1 - alpha``. The
intervals are intersected as they come (still valid). The question is
answered yes when the interval lies inside the asked region, no when it lies
outside it; otherwise the games go on, up to the experiment's ``games``.

When every seed is played in every rotation of the line-up (``rotate =
"paired"``), the games of one seed share its deal and are not independent:
the sequence then counts one outcome a seed, the mean of its games' outcomes
(still in [0, 1], and independent from seed to seed), taken once all its
rotations are in.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: The error allowed: the answer is wrong at most this often.
ALPHA = 0.05
#: The mixture parameter, in units of the variance bound (1/4 a game): chosen so the interval is narrowest near 500 games.
RHO = 12.0

Row = Mapping[str, Any]
Outcome = Callable[[Row], float]

_NUMBER = r"(\d+(?:\.\d+)?|\.\d+)"
_SUBJECT = r"(seat\s+(\d+)\s+(score|wins)|player\s+([A-Za-z]|\d+)\s+score|decided|draws)"
_RANGE = re.compile(rf"^{_SUBJECT}\s+in\s+{_NUMBER}\s*\.\.\s*{_NUMBER}$")
_COMPARE = re.compile(rf"^{_SUBJECT}\s*(>=|<=|>|<)\s*{_NUMBER}$")
_BEATS = re.compile(r"^([A-Za-z]|\d+)\s+beats\s+([A-Za-z]|\d+)$")


class ConfidenceSequence:
    """A 95% confidence sequence for the mean of outcomes in [0, 1] (Robbins' normal mixture, intersected as it goes)."""

    def __init__(self, alpha: float = ALPHA, rho: float = RHO) -> None:
        self.alpha = alpha
        self.rho = rho
        self.games = 0
        self.total = 0.0
        self.low = 0.0
        self.high = 1.0

    def add(self, outcome: float) -> None:
        """Count one game's outcome (in [0, 1]) and narrow the interval."""
        self.games += 1
        self.total += outcome
        half = self.radius(self.games)
        mean = self.total / self.games
        self.low = max(self.low, mean - half)
        self.high = min(self.high, mean + half)

    def radius(self, games: int) -> float:
        """Half the interval's width after ``games`` games (before intersecting)."""
        spread = games / 4 + self.rho
        return math.sqrt(spread * math.log(spread / (self.rho * self.alpha**2))) / games

    @property
    def mean(self) -> float:
        return self.total / self.games if self.games else math.nan


@dataclass(frozen=True, slots=True)
class Question:
    """What ``until`` asks: a share of the games (``outcome`` of a row, in [0, 1]) inside ``[low, high]`` or not.

    ``open_low``/``open_high``: whether the bound itself is outside the region (``> 0.5``).
    """

    text: str
    subject: str
    outcome: Outcome
    low: float
    high: float
    open_low: bool = False
    open_high: bool = False

    def verdict(self, low: float, high: float) -> bool | None:
        """True when the interval ``[low, high]`` lies inside the region, False when outside it, None while it straddles."""
        above_low = low > self.low if self.open_low else low >= self.low
        below_high = high < self.high if self.open_high else high <= self.high
        if above_low and below_high:
            return True
        misses_low = high <= self.low if self.open_low else high < self.low
        misses_high = low >= self.high if self.open_high else low > self.high
        return False if misses_low or misses_high else None


@dataclass(slots=True)
class Answer:
    """Where a stopping rule stands: the interval after ``games`` games and the verdict (None: not answered yet)."""

    question: Question
    sequence: ConfidenceSequence = field(default_factory=ConfidenceSequence)
    verdict: bool | None = None
    games: int = 0

    def add(self, *rows: Row) -> bool | None:
        """Count one game, or the games of one seed as one outcome (their mean); returns the verdict (kept once given)."""
        if self.verdict is None and rows:
            self.sequence.add(sum(self.question.outcome(row) for row in rows) / len(rows))
            self.games += len(rows)
            self.verdict = self.question.verdict(self.sequence.low, self.sequence.high)
        return self.verdict

    def text(self) -> str:
        """The answer in a line: the question, the verdict and after how many games, the estimate and its interval."""
        seq = self.sequence
        figures = f"{self.question.subject} {seq.mean:.3f} (95% confidence sequence {seq.low:.3f}-{seq.high:.3f})"
        if self.verdict is None:
            return f"until {self.question.text!r}: not answered after {self.games:,} games; {figures}"
        said = "yes" if self.verdict else "no"
        return f"until {self.question.text!r}: {said}, answered after {self.games:,} games; {figures}"


def parse_until(text: str, players: int) -> Question:
    """The question ``text`` asks (a ValueError saying what is understood if it cannot be read)."""
    cleaned = " ".join(text.split())
    beats = _BEATS.match(cleaned)
    if beats:
        winner, loser = (_entry(word, players) for word in beats.groups())
        subject = f"player {_letter(winner)} beats {_letter(loser)}"
        return Question(cleaned, subject, _beats(winner, loser), 0.5, 1.0, open_low=True)
    ranged = _RANGE.match(cleaned)
    if ranged:
        subject, outcome = _subject(ranged, players)
        low, high = float(ranged.group(5)), float(ranged.group(6))
        if not 0 <= low <= high <= 1:
            raise ValueError(f"until {text!r}: the range should be within 0..1, low first")
        return Question(cleaned, subject, outcome, low, high)
    compared = _COMPARE.match(cleaned)
    if compared:
        subject, outcome = _subject(compared, players)
        op, bound = compared.group(5), float(compared.group(6))
        if not 0 <= bound <= 1:
            raise ValueError(f"until {text!r}: a share is between 0 and 1")
        if op.startswith(">"):
            return Question(cleaned, subject, outcome, bound, 1.0, open_low=op == ">")
        return Question(cleaned, subject, outcome, 0.0, bound, open_high=op == "<")
    raise ValueError(
        f"until {text!r} is not understood: try 'seat 0 score in 0.45..0.55', 'B beats A', 'decided >= 0.8', "
        "'seat 1 wins > 0.5', 'player A score < 0.4' or 'draws <= 0.1'"
    )


def _subject(found: re.Match[str], players: int) -> tuple[str, Outcome]:
    """The share a matched question is about, and each game's outcome for it."""
    whole = found.group(1)
    if whole == "decided":
        return "decided in play", lambda row: float(row["ended_by"] == "play")
    if whole == "draws":
        return "draws", lambda row: float(all(r == 0 for r in row["returns"]))
    if found.group(2) is not None:
        seat = int(found.group(2))
        if seat >= players:
            raise ValueError(f"until {whole!r}: there is no seat {seat} in a game of {players}")
        if found.group(3) == "wins":
            return f"seat {seat} wins", lambda row: float(row["returns"][seat] > 0)
        return f"seat {seat} score", lambda row: _score(row["returns"][seat])
    entry = _entry(found.group(4), players)
    return f"player {_letter(entry)} score", lambda row: _score(row["returns"][list(row["entries"]).index(entry)])


def _beats(winner: int, loser: int) -> Outcome:
    def outcome(row: Row) -> float:
        entries = list(row["entries"])
        mine, theirs = row["returns"][entries.index(winner)], row["returns"][entries.index(loser)]
        return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5

    return outcome


def _score(value: float) -> float:
    return 1.0 if value > 0 else 0.0 if value < 0 else 0.5


def _entry(word: str, players: int) -> int:
    """A line-up entry named by its letter (A first) or number."""
    entry = int(word) if word.isdigit() else ord(word.upper()) - ord("A")
    if not 0 <= entry < players:
        raise ValueError(f"until: there is no player {word!r} in a line-up of {players} (A to {_letter(players - 1)})")
    return entry


def _letter(entry: int) -> str:
    return chr(ord("A") + entry)


class InOrder:
    """Feeds rows to an :class:`Answer` in plan order (game index), holding back games that finished early.

    Games finish out of order on several processes; a rule fed in the order
    games finish would favour short games, so a game counts only once every
    game planned before it has. ``group``: how many consecutive games make one
    outcome (a paired run's rotations of one seed; 1 otherwise).
    """

    def __init__(self, answer: Answer, group: int = 1) -> None:
        self.answer = answer
        self.group = group
        self.next = 0
        self.waiting: dict[int, Row] = {}

    def add(self, row: Row) -> bool | None:
        """Take a finished game; returns the verdict once the games so far in plan order (0, 1, 2, ...) give one."""
        self.waiting[int(row["game_index"])] = row
        following = range(self.next, self.next + self.group)
        while self.answer.verdict is None and all(g in self.waiting for g in following):
            self.answer.add(*(self.waiting.pop(g) for g in following))
            self.next += self.group
            following = range(self.next, self.next + self.group)
        return self.answer.verdict
