"""Helpers shared by the tests: random play and position sampling over the core API."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from importlib import util
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import settings

import astrarium
from astrarium.core import Rng, State
from astrarium.testing import play_randomly as play_randomly  # the checks' random play, shared
from astrarium.testing import sample_positions as sample_positions

#: The hypothesis profiles and their examples a test (tests/conftest.py loads the one HYPOTHESIS_PROFILE names):
#: ``quick`` for ``make test``, ``full`` for ``make test-slow`` (every property test at its full count), ``thorough`` by hand.
PROFILE_EXAMPLES = {"quick": 10, "full": 40, "thorough": 400}


def examples(full: int) -> int:
    """A property test's examples: ``full`` under the ``full`` profile, scaled as the loaded profile is (never below 3)."""
    scaled = round(full * settings.default.max_examples / PROFILE_EXAMPLES["full"])
    return max(scaled, min(full, 3))


def play_rotated(game_id: str, line_up: list[str], seed: int, options: dict[str, object] | None = None) -> State:
    """Game ``seed`` of a two-player arena run, played as the arena plays it.

    Line-up entry k sits at seat (k + seed) mod 2 and its player is built with
    seed ``seed * 1000 + k``, so a slow test replays exactly the games of the
    measurement its rules document quotes.
    """
    from astrarium import get_game
    from astrarium.agents import make_agent

    seats = [line_up[(seat - seed) % 2] for seat in range(2)]
    entries = [(seat - seed) % 2 for seat in range(2)]
    agents = [make_agent(spec, seed * 1000 + entry) for spec, entry in zip(seats, entries, strict=True)]
    state = get_game(game_id).new_game(2, seed, dict(options or {}))
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat].choose(state))
    return state


def feed(digest: Any, value: Any) -> None:
    """Add a JSON value to a running digest (keys sorted, so equal values always hash alike)."""
    digest.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())
    digest.update(b"\n")


def game_digest(game_id: str, players: int, options: dict[str, Any], seed: int, resample: tuple[int, int] = (9, 4)) -> str:
    """The digest of one seeded random game: what every position offers and shows, and how it ends.

    Actions are chosen by a seeded generator from the legal list; every fifth
    one is given as its notation (so parsing is part of the game), the others
    as the legal list's own object. A re-sampled world is hashed at every move
    ``m`` with ``m % resample[0] == resample[1]`` (the recorded digests were
    made with these moves, so each suite keeps its own).
    """
    state = astrarium.get_game(game_id).new_game(players, seed, options)
    chooser = Rng(1_000_003 * (seed + 1))
    digest = hashlib.sha256()
    every, at = resample
    move = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        feed(digest, [str(a) for a in legal])
        feed(digest, state.full_view())
        feed(digest, state.view(seat))
        feed(digest, state.evaluate(seat))
        if move % every == at:
            feed(digest, state.determinize(seat, Rng(seed * 7919 + move)).full_view())
        action = legal[chooser.below(len(legal))]
        state.apply(str(action) if move % 5 == 0 else action)
        move += 1
    feed(digest, state.full_view())
    feed(digest, state.to_record())
    feed(digest, state.returns())
    return digest.hexdigest()[:16]


def answers(lines: list[str]) -> Callable[[str], str]:
    """A scripted person at a prompt: each prompt gets the next line; past the end, the input ends (EOFError)."""
    feed = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return ask


def load_script(name: str) -> ModuleType:
    """A measurement script of scripts/ (``name`` without ``.py``) loaded as a module, for tests that share its code."""
    path = Path(__file__).resolve().parent.parent / "scripts" / f"{name}.py"
    spec = util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = util.module_from_spec(spec)
    sys.modules[name] = module  # a script's dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


#: Where browser tests keep their pages and screenshots.
BROWSER_ARTIFACTS = Path(__file__).resolve().parent.parent / "build" / "test-artifacts"


def open_offline(browser: Any, html: str, name: str, csp: str | None = None, ready: str | None = None) -> tuple[Any, list[str], list[str]]:
    """A page opened in the browser with every request but its own failed: from a file in BROWSER_ARTIFACTS, or served under ``csp``.

    Returns the page, the console errors and the requests it tried; waits for the selector ``ready`` when given.
    """
    BROWSER_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = BROWSER_ARTIFACTS / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    address = path.as_uri() if csp is None else "http://replay.invalid/replay.html"
    page = browser.new_page(viewport={"width": 900, "height": 1100})
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def route(handled: Any) -> None:
        url = handled.request.url
        if url == address and csp is None:
            handled.continue_()
        elif url == address:
            handled.fulfill(status=200, body=html, headers={"content-type": "text/html; charset=utf-8", "content-security-policy": csp})
        else:
            requests.append(url)
            handled.abort()

    page.route("**/*", route)
    page.goto(address)
    if ready is not None:
        page.wait_for_selector(ready, timeout=20_000)
    return page, errors, requests


class RecordedDigests:
    """Short digests of seeded games kept in a JSON file of ``tests/data``: one digest a game, so a difference names its seed.

    ``cases`` maps a case's name to its settings, the number of games at ``games_at``; ``digest(name, seed)`` makes one
    game's digest. Tests compare with :meth:`check`; ``record`` writes the file again (run by hand, only for a
    deliberate change).
    """

    def __init__(self, path: Path, cases: dict[str, tuple[Any, ...]], digest: Callable[[str, int], str], games_at: int = 3) -> None:
        self.path, self.cases, self.digest, self.games_at = path, cases, digest, games_at

    def games(self, name: str) -> int:
        return int(self.cases[name][self.games_at])

    def computed(self, name: str) -> list[str]:
        return [self.digest(name, seed) for seed in range(self.games(name))]

    def recorded(self) -> dict[str, list[str]]:
        return json.loads(self.path.read_text(encoding="utf-8"))

    def check(self, name: str, what: str, seeds: range | None = None) -> None:
        """Assert that every game of case ``name`` (those of ``seeds``, if given) gives its recorded digest.

        ``what`` says what differs, the message naming the seed.
        """
        expected = self.recorded()[name]
        assert len(expected) == self.games(name)
        for seed in seeds if seeds is not None else range(self.games(name)):
            mine = self.digest(name, seed)
            assert mine == expected[seed], f"{name}: {what} of the game with seed {seed} differ from the recorded ones"

    def split(self, name: str, share: float = 0.25) -> tuple[range, range]:
        """The seeds of case ``name`` in two parts: the first ``share`` of them (at least one), and the rest."""
        games = self.games(name)
        first = max(1, round(games * share))
        return range(first), range(first, games)

    def record(self, argv: list[str]) -> None:
        """The ``--record`` command of a test module: write the digests of every case."""
        if argv != ["--record"]:
            sys.exit(f"usage: python {sys.argv[0]} --record")
        print(f"recording from {astrarium.__file__}")
        data = {name: self.computed(name) for name in sorted(self.cases)}
        self.path.parent.mkdir(exist_ok=True)
        self.path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"recorded {sum(map(len, data.values()))} games in {len(data)} cases to {self.path}")


def play_told(game_id: str, players: int, seed: int, steps: int, seat: int = 0) -> tuple[State, list[str]]:
    """Up to ``steps`` random moves (seeded) and every line of the log ``seat`` was told on the way."""
    game = astrarium.get_game(game_id)
    state = game.new_game(players, seed)
    rng = Rng(seed)
    lines: list[str] = []
    for _ in range(steps):
        if state.is_over:
            break
        before = state.picture_view(seat)
        notation = str(rng.choice(state.legal_actions()))
        state.apply(notation)
        lines += game.describe(before, notation, state.picture_view(seat))
    return state, lines


def cw_piece(kind: str, at: str, owner: int, strength: int) -> str:
    """A Connected Worlds scenario's base or unit, as the TOML a scenario option takes."""
    return f'[[{kind}]]\nat = "{at}"\nowner = {owner}\nstrength = {strength}\n'


#: Connected Worlds hands and decks of a two-player scenario in which every kind of card can be played (the
#: decomposed choices' tests and their encoding's).
CW_HANDS = """
[[player]]
hand = ["harvester", "portal", "assault-team", "excavater", "engineers"]
deck = ["harvester", "harvester", "scientists", "assault-team", "standard-base"]
[[player]]
hand = ["harvester", "harvester", "portal", "scientists", "engineers"]
deck = ["harvester", "scientists", "engineers", "assault-team", "standard-base"]
"""
