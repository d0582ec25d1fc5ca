"""Celestials card usage: which cards are played when drawn, which phases are entered, who wins.

Plays mirror games (the same computer player on both seats; seat 0 is always
the Sun) and reports, for every card of both decks:

- ``drawn``: games in which the card was in its owner's hand at some point;
- ``used``: of those, games in which it was played (an Advance Phase card: an
  ``advance``) or, on the board, activated; the target is at least 25%;
- ``played``, ``activated`` and ``discarded``: how often, summed over the games;

for every phase: the share of games in which its owner entered it (the first
phase counts as entered; the target is 60%) and the mean number of turns spent
in it; the Sun's and the Moon's wins with 95% Wilson intervals; and the pairs of
cards of the two decks that differ only in numbers (the same type, the same
default attack or not, and the same effects on the same targets in each list).

    .venv/bin/python scripts/card_usage.py --games 200 --agent mcts:iterations=150,depth=10 --jobs 2
    .venv/bin/python scripts/card_usage.py --games 200 --agent greedy --json /tmp/usage.json

Game ``g`` has seed ``SEED + g``; its players are seeded from it, so a run repeats exactly
(and a game replayed alone, ``--seed g --games 1``, gives the same tally). ``--games-file``
appends each game's tally (with its seed) as the game ends, flushed, so a long run stopped
early still reports on every finished game with ``--load``:

    nice -n 10 .venv/bin/python scripts/card_usage.py --games 1000 --agent mcts:iterations=50,depth=10 --jobs 1 --games-file usage.jsonl
    .venv/bin/python scripts/card_usage.py --load usage.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TextIO

import astrarium
from astrarium.agents import make_agent
from astrarium.core.stats import wilson_interval
from astrarium.games.celestials import actions as A
from astrarium.games.celestials.cards import Card, Deck, Kind
from astrarium.games.celestials.state import CelestialsState

#: The balance targets (docs/balance/celestials.md): a card is used in at least this share of the games it is drawn in;
#: a phase is entered in at least this share of games; each side wins within this band.
USAGE_TARGET = 0.25
PHASE_TARGET = 0.60
WIN_BAND = (0.45, 0.55)


@dataclass
class GameTally:
    """What one game did, per seat: card keys drawn, used, played, activated, discarded; phases entered; turns per phase."""

    winners: tuple[int, ...] = ()
    knockout: bool = False
    seed: int = -1
    drawn: list[set[str]] = field(default_factory=lambda: [set(), set()])
    used: list[set[str]] = field(default_factory=lambda: [set(), set()])
    played: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    activated: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    discarded: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    entered: list[set[str]] = field(default_factory=lambda: [set(), set()])
    turns: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])


def _note_hands(state: CelestialsState, tally: GameTally) -> None:
    catalog = state.rules.catalog
    for seat in (0, 1):
        for c in state.hands[seat]:
            tally.drawn[seat].add(catalog[c].key)
        tally.entered[seat].add(state.phase_name(seat))


def play_game(seed: int, spec: str, options: dict[str, Any]) -> GameTally:
    """One mirror game of ``spec`` on both seats, tallied."""
    game = astrarium.get_game("celestials")
    state: CelestialsState = game.new_game(2, seed, options)  # type: ignore[assignment]
    agents = [make_agent(spec, seed=seed * 1000 + seat, game=game.id) for seat in (0, 1)]
    tally = GameTally(seed=seed)
    turn_seen = -1
    while not state.is_over:
        _note_hands(state, tally)
        if state.turns_done != turn_seen and not state.votes:
            turn_seen = state.turns_done
            tally.turns[state.turn][state.phase_name(state.turn)] += 1
        seat = state.current_player
        assert seat is not None
        action = agents[seat].choose(state)
        kind = type(action)
        if kind is A.Play:
            tally.played[seat][action.card] += 1
            tally.used[seat].add(action.card)
        elif kind is A.Advance:
            tally.played[seat]["advance"] += 1
            tally.used[seat].add("advance")
        elif kind is A.Activate:
            card = state.card_at(action.at)
            assert card is not None
            tally.activated[seat][card.key] += 1
            tally.used[seat].add(card.key)
        elif kind is A.Discard:
            tally.discarded[seat][action.card] += 1
        state.apply(action)
    _note_hands(state, tally)
    outcome = state.outcome
    assert outcome is not None
    tally.winners = tuple(outcome.winners)
    tally.knockout = not outcome.reason.startswith("turn limit")
    return tally


def _play_one(args: tuple[int, str, dict[str, Any]]) -> GameTally:
    return play_game(*args)


def tally_to_json(t: GameTally) -> dict[str, Any]:
    """One game's tally as a JSON line (sets as sorted lists)."""
    return {
        "seed": t.seed,
        "winners": list(t.winners),
        "knockout": t.knockout,
        "drawn": [sorted(x) for x in t.drawn],
        "used": [sorted(x) for x in t.used],
        "played": [dict(x) for x in t.played],
        "activated": [dict(x) for x in t.activated],
        "discarded": [dict(x) for x in t.discarded],
        "entered": [sorted(x) for x in t.entered],
        "turns": [dict(x) for x in t.turns],
    }


def tally_from_json(d: dict[str, Any]) -> GameTally:
    """A tally saved by ``tally_to_json`` (lines saved before the seed was kept read as seed -1)."""
    return GameTally(
        tuple(d["winners"]),
        bool(d["knockout"]),
        int(d.get("seed", -1)),
        [set(x) for x in d["drawn"]],
        [set(x) for x in d["used"]],
        [Counter(x) for x in d["played"]],
        [Counter(x) for x in d["activated"]],
        [Counter(x) for x in d["discarded"]],
        [set(x) for x in d["entered"]],
        [Counter(x) for x in d["turns"]],
    )


def shape(card: Card) -> tuple[Any, ...]:
    """A card with its numbers taken away: type, default attack or not, and each effect list as (effect, target) pairs."""

    def steps(listed: tuple[Any, ...] | None) -> tuple[tuple[str, str], ...] | None:
        return None if listed is None else tuple((s.effect.value, s.target.value) for s in listed)

    attacks = card.kind is not Kind.SPELL and card.on_activate is None and card.damage > 0
    return (card.kind.value, attacks, steps(card.on_play), steps(card.on_activate), steps(card.on_turn_start))


def reskins(sun: Deck, moon: Deck) -> list[tuple[str, str]]:
    """Pairs (Sun card, Moon card) that differ only in numbers (and names and phases)."""
    return [(a.key, b.key) for a in sun.cards[1:] for b in moon.cards[1:] if shape(a) == shape(b)]


def summarise(tallies: list[GameTally], decks: tuple[Deck, Deck]) -> dict[str, Any]:
    """The report as data: cards, phases, wins, reskins and whether each target is met."""
    n = len(tallies)
    cards: list[dict[str, Any]] = []
    for seat, deck in enumerate(decks):
        for card in deck.cards:
            drawn = sum(1 for t in tallies if card.key in t.drawn[seat])
            used = sum(1 for t in tallies if card.key in t.drawn[seat] and card.key in t.used[seat])
            cards.append(
                {
                    "side": deck.character,
                    "card": card.key,
                    "drawn": drawn,
                    "used": used,
                    "rate": used / drawn if drawn else None,
                    "played": sum(t.played[seat][card.key] for t in tallies),
                    "activated": sum(t.activated[seat][card.key] for t in tallies),
                    "discarded": sum(t.discarded[seat][card.key] for t in tallies),
                }
            )
    phases: list[dict[str, Any]] = []
    for seat, deck in enumerate(decks):
        for phase in deck.phases:
            entered = sum(1 for t in tallies if phase.name in t.entered[seat])
            turns = sum(t.turns[seat][phase.name] for t in tallies)
            phases.append(
                {
                    "side": deck.character,
                    "phase": phase.name,
                    "kind": phase.kind.value,
                    "entered": entered,
                    "rate": entered / n if n else 0.0,
                    "turns_per_game": turns / n if n else 0.0,
                }
            )
    sun = sum(1 for t in tallies if t.winners == (0,))
    moon = sum(1 for t in tallies if t.winners == (1,))
    pairs = reskins(*decks)
    low_cards = [c["card"] for c in cards if isinstance(c["rate"], float) and c["rate"] < USAGE_TARGET]
    low_phases = [p["phase"] for p in phases if isinstance(p["rate"], float) and p["rate"] < PHASE_TARGET]
    return {
        "games": n,
        "sun_wins": sun,
        "moon_wins": moon,
        "draws": n - sun - moon,
        "sun_ci": wilson_interval(sun, n),
        "moon_ci": wilson_interval(moon, n),
        "knockouts": sum(1 for t in tallies if t.knockout),
        "advances": sum(t.played[s]["advance"] for t in tallies for s in (0, 1)),
        "cards": cards,
        "phases": phases,
        "reskins": pairs,
        "targets": {
            "every card used in at least 25% of the games it is drawn in": not low_cards,
            "no two cards of the two decks differ only in numbers": not pairs,
            "every phase entered in at least 60% of games": not low_phases,
            "Sun and Moon each win 45-55%": n > 0 and WIN_BAND[0] <= sun / n <= WIN_BAND[1] and WIN_BAND[0] <= moon / n <= WIN_BAND[1],
        },
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def report(summary: dict[str, Any]) -> str:
    """The summary as text tables."""
    n = summary["games"]
    out = [f"{n} games; advances {summary['advances']}; knock-outs {summary['knockouts']} ({_pct(summary['knockouts'] / max(n, 1))})"]
    for side, key in (("Sun", "sun"), ("Moon", "moon")):
        lo, hi = summary[f"{key}_ci"]
        out.append(f"{side} wins {summary[f'{key}_wins']} ({_pct(summary[f'{key}_wins'] / max(n, 1))}, 95% CI {_pct(lo)}..{_pct(hi)})")
    out.append(f"draws {summary['draws']}")
    out.append("")
    out.append("| side | card | drawn in | used in | used when drawn | played | activated | discarded |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for c in summary["cards"]:
        rate = "-" if c["rate"] is None else _pct(c["rate"])
        out.append(
            f"| {c['side']} | {c['card']} | {c['drawn']} | {c['used']} | {rate} | {c['played']} | {c['activated']} | {c['discarded']} |"
        )
    out.append("")
    out.append("| side | phase | kind | entered in | share of games | turns per game |")
    out.append("| --- | --- | --- | --- | --- | --- |")
    for p in summary["phases"]:
        out.append(f"| {p['side']} | {p['phase']} | {p['kind']} | {p['entered']} | {_pct(p['rate'])} | {p['turns_per_game']:.1f} |")
    out.append("")
    out.append("cards of the two decks that differ only in numbers: " + (", ".join(f"{a} = {b}" for a, b in summary["reskins"]) or "none"))
    for target, met in summary["targets"].items():
        out.append(f"{'met' if met else 'NOT met'}: {target}")
    return "\n".join(out)


def _collect(finished: Iterable[GameTally], tallies: list[GameTally], sink: TextIO | None) -> None:
    """Keep each finished game's tally, and append it to the games file at once (flushed)."""
    for tally in finished:
        tallies.append(tally)
        if sink:
            sink.write(json.dumps(tally_to_json(tally)) + "\n")
            sink.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--agent", default="mcts:iterations=150,depth=10", help="the player on both seats (a seat spec)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="a game option, NAME=VALUE")
    parser.add_argument("--json", default="", help="also write the report as JSON to this file")
    parser.add_argument("--games-file", default="", help="append each game's tally to this JSON-lines file as it ends")
    parser.add_argument("--load", action="append", default=[], help="report on the tallies saved in these files instead of playing")
    args = parser.parse_args(argv)
    game = astrarium.get_game("celestials")
    options = game.parse_options(dict(o.split("=", 1) for o in args.option))
    start = time.perf_counter()
    tallies: list[GameTally] = []
    if args.load:
        for name in args.load:
            with open(name, encoding="utf-8") as f:
                tallies += [tally_from_json(json.loads(line)) for line in f if line.strip()]
        args.games = len(tallies)
    else:
        work = [(args.seed + g, args.agent, options) for g in range(args.games)]
        sink = open(args.games_file, "a", encoding="utf-8") if args.games_file else None  # noqa: SIM115 - kept open while games end
        try:
            # One job plays in this process; either way each game's line is written and flushed as it ends,
            # so a run stopped early leaves every finished game in the file for --load.
            if args.jobs <= 1:
                finished: Iterator[GameTally] = (_play_one(w) for w in work)
                _collect(finished, tallies, sink)
            else:
                with ProcessPoolExecutor(args.jobs) as pool:
                    _collect(pool.map(_play_one, work), tallies, sink)
        finally:
            if sink:
                sink.close()
    first: CelestialsState = game.new_game(2, args.seed, options)  # type: ignore[assignment]
    summary = summarise(tallies, first.rules.decks)
    if args.load:
        print(f"tallies saved in {', '.join(args.load)}")
    else:
        print(f"agent {args.agent} on both seats, seeds {args.seed}..{args.seed + args.games - 1}, options {options}")
    print(report(summary))
    print(f"{time.perf_counter() - start:.0f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
