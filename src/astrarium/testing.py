"""The conformance checks every game must pass, importable: by astrarium's tests, by ``astrarium check`` and by a designer's tests.

Each check is a function that raises :class:`CheckFailed` (an
``AssertionError``) saying what is wrong. A :class:`Check` runs either on one
seeded game of a player count (``per="game"``: random play ends within the
bound, the same seed gives the same game, records replay, notation round-trips,
illegal actions change nothing, clones are independent, views keep secrets,
the parts draw and describe every position) or once for the game
(``per="id"``: options and player counts are refused, a broken record names its
move, the rules document has its Decisions).

A designer's tests run all of them with :func:`conformance_tests`::

    @pytest.mark.parametrize("case", conformance_tests("my-game"), ids=str)
    def test_conformance(case: Case) -> None:
        case()

and :func:`run_checks` gives one verdict a check (``astrarium check GAME``).
Nothing here needs pytest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import astrarium
from astrarium.core import IllegalAction, OptionError, RecordError, Rng, State
from astrarium.core.errors import short
from astrarium.core.layout import markup_width

#: The garbage every game must refuse as an action.
NONSENSE = "xyzzy plugh 999"
#: The terminal sizes every text board must fit (width, height): an 80x24 terminal's board, and the full layout.
SCREENS = ((80, 18), (120, 34))


class CheckFailed(AssertionError):
    """A game broke a conformance check; the message says how."""


def expect(condition: object, message: str) -> None:
    """Raise :class:`CheckFailed` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise CheckFailed(message)


def refused(kind: type[Exception], what: str, call: Callable[..., object], *args: object, match: str = "") -> str:
    """The message of the ``kind`` error ``call(*args)`` raises (its text holding ``match``); CheckFailed when it raises none."""
    try:
        call(*args)
    except kind as exc:
        text = str(exc)
        expect(re.search(match, text), f"{what}: the error should mention {match!r}, it says {short(text, 120)!r}")
        return text
    raise CheckFailed(f"{what}: expected {kind.__name__}, nothing was raised")


# -- playing ------------------------------------------------------------------------------------------------------------------
def play_randomly(state: State, seed: int, steps: int | None = None) -> State:
    """Play random legal actions on ``state`` (in place) until it ends or ``steps`` actions were played."""
    rng = Rng(seed)
    played = 0
    while not state.is_over and (steps is None or played < steps):
        legal = state.legal_actions()
        expect(legal, f"no legal actions while the game is not over (move {state.move_number})")
        state.apply(rng.choice(legal))
        played += 1
    return state


def sample_positions(state: State, seed: int, count: int) -> list[State]:
    """Up to ``count`` positions from one random game, spread over its length (clones)."""
    rng = Rng(seed)
    positions = [state.clone()]
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        positions.append(state.clone())
    if len(positions) <= count:
        return positions
    step = len(positions) / count
    return [positions[int(i * step)] for i in range(count)]


def _new(game_id: str, players: int, seed: int) -> State:
    return astrarium.get_game(game_id).new_game(players, seed)


def _seats(players: int) -> list[int | None]:
    return [None, *range(players)]


def _sorted_json(state: State) -> str:
    return json.dumps(state.full_view(), sort_keys=True)


# -- the checks of one seeded game ----------------------------------------------------------------------------------------
def random_play_ends_within_the_bound(game_id: str, players: int, seed: int) -> None:
    """Random play ends before ``max_moves``, with a reason, and returns in [-1, 1] for every seat."""
    game = astrarium.get_game(game_id)
    state = game.new_game(players, seed)
    bound = game.max_moves(players, state.options)
    while not state.is_over:
        expect(state.current_player in range(players), f"current_player is {state.current_player!r} while the game goes on")
        expect(state.move_number < bound, f"the game passed its bound of {bound} moves")
        legal = state.legal_actions()
        expect(legal, "legal_actions() is empty while the game goes on")
        state.apply(Rng(seed + state.move_number).choice(legal))
    expect(state.current_player is None, "current_player is not None once the game is over")
    expect(state.legal_actions() == [], "legal_actions() is not empty once the game is over")
    expect(state.outcome is not None and state.outcome.reason, "the outcome gives no reason")
    returns = state.returns()
    fits = len(returns) == players and all(-1.0 <= r <= 1.0 for r in returns)
    expect(fits, f"returns() should be one number in [-1, 1] a seat: {returns}")


def same_seed_and_actions_give_the_same_game(game_id: str, players: int, seed: int) -> None:
    """Two games of one seed, given the same actions (one as objects, one as notation), show the same views."""
    a, b = _new(game_id, players, seed), _new(game_id, players, seed)
    rng = Rng(seed)
    for _ in range(60):
        expect(a.full_view() == b.full_view(), f"two games of seed {seed} differ at move {a.move_number}")
        expect(all(a.view(s) == b.view(s) for s in _seats(players)), f"a seat's view differs at move {a.move_number}")
        if a.is_over:
            break
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(str(action))


def record_round_trip(game_id: str, players: int, seed: int) -> None:
    """A record (through JSON) replays to the same history, position and result."""
    state = play_randomly(_new(game_id, players, seed), seed, seed % 81)
    record = json.loads(json.dumps(state.to_record()))
    again = astrarium.replay(record)
    expect(again.history == state.history, "the replayed history differs")
    expect(again.full_view() == state.full_view(), "the replayed position differs")
    expect(again.is_over == state.is_over and again.returns() == state.returns(), "the replayed result differs")


def notation_round_trips_and_views_are_json(game_id: str, players: int, seed: int) -> None:
    """Every legal action's notation parses back to it; every view is JSON; ``render`` is text."""
    for state in sample_positions(_new(game_id, players, seed), seed, 6):
        for action in state.legal_actions():
            notation = str(action)
            expect(notation and notation == notation.strip(), f"the notation {notation!r} is empty or padded")
            expect(state.parse_action(notation) == action, f"{notation!r} does not parse back to its action")
        for seat in _seats(players):
            json.dumps(state.view(seat))
            expect(isinstance(state.render(seat), str), "render() is not text")
        json.dumps(state.full_view())


def _names_a_legal_action(state: State, text: str, legal: list[Any]) -> bool:
    """Whether ``text`` is another spelling of a legal action here (Streamlines: ``move d5`` for the one path to d5)."""
    try:
        return state.parse_action(text) in legal
    except IllegalAction:
        return False


def illegal_action_raises_and_changes_nothing(game_id: str, players: int, seed: int) -> None:
    """Nonsense and actions legal elsewhere raise IllegalAction with a reason, and the position stays as it was."""
    positions = sample_positions(_new(game_id, players, seed), seed, 8)
    for i, state in enumerate(positions):
        before, history = _sorted_json(state), state.history
        refused(IllegalAction, f"applying {NONSENSE!r}", state.apply, NONSENSE)
        legal = state.legal_actions()
        # An action that is legal somewhere else in the game but not here.
        foreign = [a for p in positions[:i] + positions[i + 1 :] for a in p.legal_actions() if a not in legal]
        for action in foreign[:5]:
            what = f"applying {str(action)!r} at move {state.move_number}"
            expect(refused(IllegalAction, what, state.apply, action), f"{what}: the error says nothing")
            if not _names_a_legal_action(state, str(action), legal):
                refused(IllegalAction, what + " as text", state.apply, str(action))
        expect(_sorted_json(state) == before, f"a refused action changed the position at move {state.move_number}")
        expect(state.history == history and state.legal_actions() == legal, "a refused action changed the history or the legal actions")
    final = positions[-1]
    if final.is_over:
        refused(IllegalAction, "acting once the game is over", final.apply, "anything", match="over")


def clone_is_independent(game_id: str, players: int, seed: int) -> None:
    """Playing on a clone changes nothing in the original."""
    for state in sample_positions(_new(game_id, players, seed), seed, 5):
        before = _sorted_json(state)
        copy = state.clone()
        expect(copy.full_view() == state.full_view(), "a clone differs from its original")
        play_randomly(copy, seed, 20)
        expect(_sorted_json(state) == before, f"playing on a clone changed the original at move {state.move_number}")


def views_keep_what_the_rules_hide(game_id: str, players: int, seed: int) -> None:
    """A seat's view is the same in every world that differs only in what that seat cannot see.

    ``determinize(seat, rng)`` re-samples exactly what ``seat`` cannot see; if
    the view showed any of it, the views of two re-sampled worlds would differ.
    A game of perfect information has nothing to re-sample.
    """
    game = astrarium.get_game(game_id)
    changed = False
    for state in sample_positions(_new(game_id, players, seed), seed, 6):
        if state.is_over:
            continue
        for seat in _seats(players):
            view = state.view(seat)
            for k in range(3):
                world = state.determinize(seat, Rng(seed * 7 + k))
                expect(world.view(seat) == view, f"seat {seat}'s view leaks, or determinize changes what it sees")
                same_actions = world.legal_actions() == state.legal_actions()
                expect(same_actions or seat != state.current_player, "determinize changed the mover's actions")
                changed |= world.full_view() != state.full_view()
    if game.hidden_information:
        expect(game.hidden, "a game with hidden information says what it hides (Game.hidden)")
    else:
        expect(not changed, "a perfect-information game has nothing to re-sample but its chance")


def parts_draw_and_describe_every_position(game_id: str, players: int, seed: int) -> None:
    """The declared parts answer for every position: the picture is SVG, the words are lines, the board fits the screen."""
    game = astrarium.get_game(game_id)
    positions = sample_positions(_new(game_id, players, seed), seed, 5)
    for before, after in zip(positions, positions[1:], strict=False):
        for seat in dict.fromkeys((before.current_player, None)):  # the mover and a spectator (every seat: test_pictures)
            if game.parts.picture is not None:
                picture = before.render_svg(seat)
                expect(picture.startswith("<svg") and picture.endswith("</svg>"), "render_svg does not give an SVG document")
            for width, height in SCREENS:
                lines = before.render_fit(seat, width=width, height=height).split("\n")
                expect(len(lines) <= height, f"render_fit gives {len(lines)} lines for a height of {height}")
                widest = max(markup_width(line) for line in lines)
                expect(widest <= width, f"render_fit gives a line {widest} cells wide for a width of {width}")
        if after.history[: before.move_number] == before.history and after.move_number > before.move_number:
            notation = after.history[before.move_number]
            step = before.clone()
            step.apply(notation)
            lines = game.describe(before.picture_view(None), notation, step.picture_view(None))
            expect(lines and all(isinstance(line, str) and line for line in lines), f"describe gives no lines for {notation!r}")
    for texts in (game.cards(positions[0]), game.things(positions[0])):
        expect(all(isinstance(k, str) and isinstance(v, str) and v for k, v in texts.items()), "a help text is not a name and a line")


# -- the checks of the game as a whole ----------------------------------------------------------------------------------------
def determinize_changes_hidden_parts(game_id: str) -> None:
    """A game that says it hides information re-samples something when it determinizes."""
    game = astrarium.get_game(game_id)
    if not game.hidden_information:
        return
    for seed in range(20):
        for state in sample_positions(game.new_game(game.min_players, seed), seed, 6):
            if state.is_over:
                continue
            seat = state.current_player
            if any(state.determinize(seat, Rng(k)).full_view() != state.full_view() for k in range(4)):
                return
    raise CheckFailed("the game says it hides information, but determinize never re-sampled anything")


def bad_options_and_player_counts_are_refused(game_id: str) -> None:
    """An unknown option, too many or too few players and an option past its maximum raise OptionError naming them."""
    game = astrarium.get_game(game_id)
    refused(OptionError, "an unknown option", game.new_game, game.min_players, 0, {"no_such_option": 1}, match="no_such_option")
    refused(OptionError, "one player too many", game.new_game, game.max_players + 1, 0, match="players")
    refused(OptionError, "one player too few", game.new_game, game.min_players - 1, 0, match="players")
    for option in game.options:
        expect(option.default is None or option.validate(option.default) == option.default, f"option {option.name}'s default is refused")
        maximum = option.maximum
        if option.kind in (int, float) and maximum is not None:
            what = f"option {option.name} past its maximum"
            refused(OptionError, what, game.new_game, game.min_players, 0, {option.name: maximum + 1}, match=option.name)


def a_record_that_does_not_replay_names_the_move(game_id: str) -> None:
    """A record with a bad action, of another version or of an unknown game raises RecordError saying which."""
    game = astrarium.get_game(game_id)
    state = play_randomly(game.new_game(game.min_players, 3), 3, 4)
    record = state.to_record()
    record["actions"] = [*record["actions"][:2], NONSENSE]
    refused(RecordError, "a record with a bad third move", astrarium.replay, record, match="move 3")
    refused(RecordError, "a record of version 99", astrarium.replay, {**state.to_record(), "version": 99}, match="version")
    refused(RecordError, "a record of no game", astrarium.replay, {**state.to_record(), "game": "no-such-game"}, match="no game called")


def rules_document_has_decisions(game_id: str) -> None:
    """The rules document (rules.md) is Markdown with a title and a ``## Decisions`` section."""
    text = astrarium.get_game(game_id).rules_text()
    expect(text.startswith("#"), "rules.md does not start with a title (# ...)")
    expect("## Decisions" in text, "rules.md has no '## Decisions' section (why each rule is as it is)")


# -- the list of checks, and running them ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Check:
    """One conformance check: its name, its function, and whether it runs on seeded games or on the game as a whole."""

    name: str
    run: Callable[..., None]
    per: Literal["game", "id"]


def _check(run: Callable[..., None], per: Literal["game", "id"]) -> Check:
    return Check(run.__name__.replace("_", " "), run, per)


#: Every check, in the order ``astrarium check`` runs them.
CHECKS: tuple[Check, ...] = (
    *(
        _check(run, "game")
        for run in (
            random_play_ends_within_the_bound,
            same_seed_and_actions_give_the_same_game,
            record_round_trip,
            notation_round_trips_and_views_are_json,
            illegal_action_raises_and_changes_nothing,
            clone_is_independent,
            views_keep_what_the_rules_hide,
            parts_draw_and_describe_every_position,
        )
    ),
    *(
        _check(run, "id")
        for run in (
            determinize_changes_hidden_parts,
            bad_options_and_player_counts_are_refused,
            a_record_that_does_not_replay_names_the_move,
            rules_document_has_decisions,
        )
    ),
)


@dataclass(frozen=True, slots=True)
class Case:
    """One check on one game (and, for a check of seeded games, one player count and seed); calling it runs it."""

    check: Check
    game_id: str
    players: int = 0
    seed: int = 0

    def __call__(self) -> None:
        if self.check.per == "game":
            self.check.run(self.game_id, self.players, self.seed)
        else:
            self.check.run(self.game_id)

    def __str__(self) -> str:
        where = f"[{self.players} players, seed {self.seed}]" if self.check.per == "game" else ""
        return f"{self.check.run.__name__}{where}"


def conformance_tests(game_id: str, seeds: int = 5) -> list[Case]:
    """Every check of ``game_id`` as cases to run: those of seeded games for each player count and ``seeds`` seeds."""
    game = astrarium.get_game(game_id)
    counts = range(game.min_players, game.max_players + 1)
    cases: list[Case] = []
    for check in CHECKS:
        if check.per == "id":
            cases.append(Case(check, game.id))
        else:
            cases += [Case(check, game.id, players, seed) for players in counts for seed in range(seeds)]
    return cases


@dataclass(frozen=True, slots=True)
class Verdict:
    """A check's result over all its cases: how many ran, and the first failure (None: passed)."""

    check: Check
    cases: int
    failure: str | None


def run_checks(game_id: str, seeds: int = 5) -> Iterator[Verdict]:
    """Run every check on ``game_id``, yielding one verdict a check as it finishes (a failure names its case)."""
    cases = conformance_tests(game_id, seeds)
    for check in CHECKS:
        mine = [case for case in cases if case.check is check]
        failure = None
        for case in mine:
            try:
                case()
            except Exception as exc:  # a game may fail a check in any way: the verdict names the case and the error
                said = str(exc) if isinstance(exc, AssertionError) else f"{type(exc).__name__}: {exc}"
                where = f" ({case.players} players, seed {case.seed})" if check.per == "game" else ""
                failure = short(" ".join(said.split()) or type(exc).__name__, 300) + where
                break
        yield Verdict(check, len(mine), failure)
