"""The kit a game's words start from: readers, how a seat is named, the shared lines, the end in words.

Each game's ``words`` module tells an action from two picture views of one
seat, ``describe(before, notation, after)``, and takes from here what every
game says alike, so the games say it one way:

* readers that never fail on a missing or odd value (:func:`as_int`,
  :func:`as_list`, :func:`as_map`, :func:`as_text`), a seat's entry in a
  view's list (:func:`entry`, :func:`entries`) and a seat's hand
  (:func:`seat_hand`), and text helpers (:func:`plural`,
  :func:`join_words`, :func:`seats_named`);
* how a seat is named in a line: :func:`who` with the game's :data:`Naming`,
  a small function (:func:`by_letter`: ``A (seat 0)``, :func:`by_ship`:
  ``Ship A (seat 0)``, or the game's own, such as Celestials' characters);
  :data:`ship_who` is ``who`` by ship, and :func:`names` names seats in a row;
* the lines of a turn's hand-over: :func:`new_events`, :func:`cards_gained`,
  :func:`round_line` (``Round 3 of 12 begins.``), :func:`next_line`
  (``B (seat 1) is next.``);
* the end in words: :func:`ended`, :func:`winners`, :func:`seat_count` and
  :func:`outcome_lines` (``Game over: ...`` and who won).

Every helper that reads the two views takes them in one order: ``before``,
then ``after``. The readers never fail on a missing or odd value, because the
words are made from views that may come from a file or an older version.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from types import MappingProxyType
from typing import Any

#: The seats' letters, as every picture and every line shows them.
SEAT_MARKS = ("A", "B", "C", "D")
#: The view a naming reads when the caller has none.
NO_VIEW: Mapping[str, Any] = MappingProxyType({})

#: How a game names a seat (0 or more) in a line: from the seat, a view (what
#: the view says of that seat, such as its character) and whether the name
#: starts the sentence.
Naming = Callable[[int, Mapping[str, Any], bool], str]


# -- readers that never fail on a missing or odd value --------------------------------------------
def as_int(value: object) -> int | None:
    """``value`` when it is an int (not a bool), else None."""
    return value if type(value) is int else None


def as_list(value: object) -> list[Any]:
    """``value`` as a list when it is a list or tuple, else empty."""
    return list(value) if isinstance(value, list | tuple) else []


def as_map(value: object) -> Mapping[str, Any]:
    """``value`` when it is a mapping, else empty."""
    return value if isinstance(value, Mapping) else {}


def as_text(value: object) -> str:
    """``value`` when it is text, else empty."""
    return value if isinstance(value, str) else ""


def entry(view: Mapping[str, Any], key: str, seat: int | None) -> Mapping[str, Any]:
    """Seat ``seat``'s entry in the view's list ``key`` (``players``, ``ships``), or empty."""
    items = as_list(view.get(key))
    return as_map(items[seat]) if seat is not None and 0 <= seat < len(items) else {}


def seat_hand(view: Mapping[str, Any], seat: int | None) -> list[str] | None:
    """The cards in the hand of seat ``seat``'s entry in ``players``, when the view shows them (None when it does not)."""
    hand = entry(view, "players", seat).get("hand")
    return [card for card in hand if isinstance(card, str)] if isinstance(hand, list) else None


def entries(view: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """Every entry of the view's list ``key``, each a mapping (an odd one as empty)."""
    return [as_map(item) for item in as_list(view.get(key))]


# -- text ---------------------------------------------------------------------------------------------
def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 point``, ``2 points`` (``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def join_words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def mark(seat: int) -> str:
    """A seat's letter: ``A`` for seat 0."""
    return SEAT_MARKS[seat % len(SEAT_MARKS)]


def seats_named(text: str, pattern: re.Pattern[str], prefix: str = "") -> str:
    """``text`` with every seat number ``pattern`` finds (its first group) written as its letter after ``prefix``."""
    return pattern.sub(lambda m: prefix + mark(int(m.group(1))), text)


# -- how a seat is named ------------------------------------------------------------------------------
def by_letter(seat: int, view: Mapping[str, Any], start: bool) -> str:
    """``A (seat 0)``: the naming of Connected Worlds and Constellations."""
    return f"{mark(seat)} (seat {seat})"


def by_ship(seat: int, view: Mapping[str, Any], start: bool) -> str:
    """``Ship A (seat 0)`` (``ship A (seat 0)`` inside a sentence): a seat that flies a ship."""
    return f"{'Ship' if start else 'ship'} {mark(seat)} (seat {seat})"


def who(seat: int | None, view: Mapping[str, Any] = NO_VIEW, *, naming: Naming = by_letter, start: bool = True) -> str:
    """A seat as a line names it, by the game's ``naming`` (``The game`` for no seat; ``start``: it opens the sentence)."""
    if seat is None or seat < 0:
        return "The game" if start else "the game"
    return naming(seat, view, start)


def names(seats: Iterable[int], view: Mapping[str, Any] = NO_VIEW, *, naming: Naming = by_letter) -> str:
    """``A (seat 0) and C (seat 2)``: seats named in a row, the first opening the sentence."""
    return join_words([who(seat, view, naming=naming, start=i == 0) for i, seat in enumerate(seats)])


#: A seat that flies a ship, as Orbital Combat and Streamlines name it: ``Ship A (seat 0)``
#: (``ship A (seat 0)`` inside a sentence: ``ship_who(0, start=False)``).
ship_who = partial(who, naming=by_ship)


# -- a turn's hand-over -------------------------------------------------------------------------------
def new_events(before: Mapping[str, Any], after: Mapping[str, Any], most: int | None = None) -> list[str]:
    """The events in ``after`` that are not in ``before``.

    A game keeps the last few events, so those that survive are a tail of
    ``before``'s list at the head of ``after``'s: the longest such overlap
    (of at most ``most`` events, when given) is removed.
    """
    old = [e for e in as_list(before.get("events")) if isinstance(e, str)]
    new = [e for e in as_list(after.get("events")) if isinstance(e, str)]
    longest = min(len(old), len(new), len(old) if most is None else most)
    for k in range(longest, 0, -1):
        if old[len(old) - k :] == new[:k]:
            return new[k:]
    return new


def cards_gained(before: Iterable[object], after: Iterable[object], left: str | None = None) -> list[str]:
    """The cards in the hand ``after`` that were not in ``before`` (less the card ``left`` that left it), sorted."""
    remaining = Counter(card for card in before if isinstance(card, str))
    if left is not None and remaining[left] > 0:
        remaining[left] -= 1
    return sorted((Counter(card for card in after if isinstance(card, str)) - remaining).elements())


def round_line(before: Mapping[str, Any], after: Mapping[str, Any], limit_key: str, first: str = "") -> str:
    """``Round 3 of 12 begins.`` (``first`` before the stop) when ``after`` is in a later round; else empty."""
    old, new = as_int(before.get("round")), as_int(after.get("round"))
    if old is None or new is None or new <= old:
        return ""
    limit = as_int(after.get(limit_key))
    return f"Round {new}{f' of {limit}' if limit else ''} begins{first}."


def next_line(seat: int | None, after: Mapping[str, Any], naming: Naming = by_letter) -> str:
    """``B (seat 1) is next.`` when another seat than ``seat`` moves in ``after``; else empty."""
    nxt = as_int(after.get("to_move"))
    return f"{who(nxt, after, naming=naming)} is next." if nxt is not None and nxt != seat else ""


# -- the end in words ---------------------------------------------------------------------------------
def outcome_of(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The view's outcome, when the game is over (a game's own view may carry it as ``over``: Connected Worlds')."""
    outcome = view.get("outcome", view.get("over"))
    return outcome if isinstance(outcome, Mapping) else None


def ended(before: Mapping[str, Any], after: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The outcome the action brought: ``after``'s, when ``before`` had none."""
    return outcome_of(after) if outcome_of(before) is None else None


def winners(outcome: Mapping[str, Any]) -> list[int]:
    """The winning seats, in the outcome's order."""
    return [w for w in as_list(outcome.get("winners")) if as_int(w) is not None]


def seat_count(view: Mapping[str, Any], key: str) -> int:
    """How many seats play: the length of the view's list ``key`` (``players``, ``ships``), or ``players_count``."""
    return len(as_list(view.get(key))) or as_int(view.get("players_count")) or 0


def game_over_line(outcome: Mapping[str, Any], reason: Callable[[str], str] = str) -> str:
    """``Game over: <reason>.`` (the reason worded by ``reason``), or ``Game over.``."""
    said = reason(as_text(outcome.get("reason")))
    return f"Game over: {said}." if said else "Game over."


def result_line(won: Sequence[int], players: int, view: Mapping[str, Any] = NO_VIEW, naming: Naming = by_letter, points: str = "") -> str:
    """Who won: ``A (seat 0) wins.``, ``... share the win.``, ``The game is a draw.``; a lone player wins or loses.

    ``points`` follows the winners' names (`` with 12 points``).
    """
    if players == 1:
        return f"{who(0, view, naming=naming)} {'wins' if won else 'loses'}."
    if not won or len(won) == players:
        return "The game is a draw."
    if len(won) == 1:
        return f"{who(won[0], view, naming=naming)} wins{points}."
    return f"{names(won, view, naming=naming)} share the win{points}."


def team_line(won: Sequence[int]) -> str:
    """The end of a game played by one team: ``The team wins.`` or ``The team loses.``."""
    return "The team wins." if won else "The team loses."


def winners_points(view: Mapping[str, Any], won: Sequence[int]) -> str:
    """`` with 12 points``: the first winner's score in the view's ``scores`` (empty when the view has none)."""
    scores = as_list(view.get("scores"))
    best = as_int(scores[won[0]]) if won and 0 <= won[0] < len(scores) else None
    return f" with {plural(best, 'point')}" if best is not None else ""


def outcome_lines(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    players: int,
    *,
    naming: Naming = by_letter,
    reason: Callable[[str], str] = str,
    team: bool = False,
    scored: bool = False,
) -> list[str]:
    """The end in words, when the action ended the game: ``Game over: <reason>.``, then who won.

    ``players`` is how many seats play (a draw is every seat winning);
    ``reason`` words the game's reason; ``team``: the seats play as one team;
    ``scored``: the winners' points follow their names.
    """
    outcome = ended(before, after)
    if outcome is None:
        return []
    won = winners(outcome)
    if team:
        return [game_over_line(outcome, reason), team_line(won)]
    points = winners_points(after, won) if scored else ""
    return [game_over_line(outcome, reason), result_line(won, players, after, naming, points)]
