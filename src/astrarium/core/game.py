"""The one game API every astrarium game implements.

A game is two classes:

* a :class:`Game` subclass that says what the game is (id, title, player
  counts, options, what is hidden, a bound on its length) and builds states;
* a :class:`State` subclass that holds one position and the rules that move it
  on: the legal actions, how an action changes the position, what each seat
  may see.

Actions are frozen, hashable values whose ``str()`` is their canonical text
notation; ``State.apply`` accepts either. Everything else (terminal play,
computer players, records, tests) is written once against this API.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from typing import Any, ClassVar, cast

from mypy_extensions import mypyc_attr

from astrarium.core.contract import Parts
from astrarium.core.errors import ContractError, IllegalAction, OptionError, short
from astrarium.core.layout import BOARD_HEIGHT, BOARD_WIDTH
from astrarium.core.options import Option, resolve_options
from astrarium.core.outcome import Outcome
from astrarium.core.rng import Rng

RECORD_FORMAT = "astrarium-record"
RECORD_VERSION = 1
#: The longest action notation ``apply`` reads (the longest real one is under 100 characters).
MAX_NOTATION_CHARS = 500

Action = Hashable
"""An action: any frozen, hashable value whose ``str()`` is its canonical notation."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A solo challenge a game ships as data: a start, a goal, a move budget.

    ``options`` are passed to ``new_game`` (one player) to set the position up;
    ``moves`` is how many actions the player may take; ``shortest`` is the length
    of the shortest known solution, proved by the game's solver.
    """

    number: int
    name: str
    goal: str
    options: Mapping[str, Any]
    moves: int
    shortest: int
    difficulty: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def header(self) -> list[str]:
        """The lines a front end shows above the puzzle: the game's own (``extra["header"]``), else the goal and budget."""
        lines = self.extra.get("header")
        if isinstance(lines, list | tuple) and lines:
            return [str(line) for line in lines]
        return [f"Goal: {self.goal}", f"Moves allowed: {self.moves} (the shortest known solution takes {self.shortest})."]


# Game and State are compiled in the compiled build (hatch_build.py), and every game subclasses them
# in Python, hence allow_interpreted_subclasses. They take ABCMeta as their metaclass instead of
# inheriting from abc.ABC: a compiled class with any interpreted base (ABC is one) gets a __dict__
# and a __weakref__ slot, and on Python 3.11 mypyc's generated traverse and clear functions treat
# the weak-reference list as an owned reference (they visit it and decref it) while its dealloc
# never clears the weak references. A weak reference to a state (hypothesis keeps some to the
# values it draws) was then freed once too often, and the garbage collector crashed later.
# tests/test_build.py keeps weak references to states to guard against it.
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(metaclass=ABCMeta):
    """What a game is. Subclasses set the class attributes and ``state_class``."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    #: True when some seat cannot see everything (hands, deck order, ...).
    hidden_information: ClassVar[bool] = False
    #: What the rules hide, in words (for docs and the conformance tests).
    hidden: ClassVar[tuple[str, ...]] = ()
    #: True when all seats play together and share one result.
    cooperative: ClassVar[bool] = False
    #: True when the game draws on chance after setup (shuffles, draws).
    chance: ClassVar[bool] = False
    #: One line on the action notation, shown by the CLI.
    notation_help: ClassVar[str] = ""
    #: The State subclass that implements the rules.
    state_class: ClassVar[type[State]]
    #: The Python package holding the game (its rules.md lives there).
    package: ClassVar[str] = ""
    #: What the game provides besides its State's rules: picture, words, help, levels, ... (``core.contract``).
    parts: ClassVar[Parts]

    # -- description -------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise OptionError(name, f"{self.id} has no such option")

    def parse_options(self, pairs: Mapping[str, str]) -> dict[str, Any]:
        """Options given as text (``name -> "value"``), as from a command line."""
        return {name: self.option(name).parse(text) for name, text in pairs.items()}

    @abstractmethod
    def max_moves(self, players: int, options: Mapping[str, Any]) -> int:
        """An upper bound on the number of actions in one game (the game always ends by then)."""

    def rules_text(self) -> str:
        """The rules as implemented (the game's rules.md, shipped inside the package)."""
        return self._package_text("rules.md")

    def how_to_play(self) -> str:
        """A short "How to play" for a person who has never seen the game (the package's howto.md).

        The goal, a turn, how actions are typed and one worked example, in 15
        to 40 lines; the complete rules stay in :meth:`rules_text`. A game that
        ships no howto.md shows its complete rules instead.
        """
        if not self._package_name():  # a game written in a single module has no files beside it
            return self.rules_text()
        try:
            return self._package_text("howto.md")
        except FileNotFoundError:
            return self.rules_text()

    def _package_name(self) -> str:
        """The package holding the game's files ("" for a game written in a single module)."""
        if self.package:
            return self.package
        module = sys.modules[type(self).__module__]
        return module.__name__ if hasattr(module, "__path__") else (module.__package__ or "")

    def _package_text(self, name: str) -> str:
        return resources.files(self._package_name()).joinpath(name).read_text(encoding="utf-8")

    # -- the declared parts (core.contract) -----------------------------------
    def render_svg(self, view: Mapping[str, Any]) -> str:
        """The position as an SVG picture drawn from ``view`` alone (a ``State.picture_view``).

        Each game draws with its declared ``parts.picture`` (its ``svg``
        module); since the picture is made from one seat's view, it can never
        show what that seat may not see. A game without pictures raises
        :class:`ContractError`.
        """
        picture = self.parts.picture
        if picture is None:
            raise ContractError(self.id, "picture", "the game draws no pictures")
        return picture.render_svg(view)

    def render_svg_parts(self, view: Mapping[str, Any]) -> list[str] | None:
        """The picture of :meth:`render_svg` as the pieces it is joined from, or None for a game that draws in one go.

        A game whose picture caches its pieces (the board, rows, lines that
        repeat from one position to the next) declares ``render_svg_parts``; a
        server can then encode each repeated piece once instead of every whole
        picture. ``"".join(parts)`` is ``render_svg(view)``.
        """
        picture = self.parts.picture
        if picture is None or picture.render_svg_parts is None:
            return None
        return list(picture.render_svg_parts(view))

    def action_tokens(self, notation: str) -> list[str]:
        """The click tokens an action's notation decomposes into (a game without pictures: its words)."""
        picture = self.parts.picture
        return notation.split() if picture is None else list(picture.action_tokens(notation))

    def button_tokens(self) -> frozenset[str]:
        """Tokens a client offers as buttons because the picture does not draw them (verbs such as ``end``)."""
        picture = self.parts.picture
        return frozenset() if picture is None else picture.button_tokens

    def describe(self, before: Mapping[str, Any], notation: str, after: Mapping[str, Any]) -> list[str]:
        """An action in words, then what it caused, told from two picture views of one seat (before and after).

        Drawn from views only, so it can never tell a seat what that seat may
        not see (the card another player drew stays unnamed). Each game writes
        this in its ``words`` module, declared as ``parts.describe``; a game
        that declares none names the mover and the notation. Every front end
        (terminal recap, web event log, HTML replay) shows these lines.
        """
        words = self.parts.describe
        if words is not None:
            return list(words(before, notation, after))
        mover = before.get("to_move")
        who = f"Seat {mover}" if isinstance(mover, int) else "The game"
        return [f"{who}: {notation}"]

    # -- learning agents (core.learning, docs/learning.md) ----------------------------
    def action_space(self, players: int, options: Mapping[str, Any] | None = None) -> Any:
        """The fixed action space for ``players`` and ``options``: ``size``, ``labels``, ``index(action)``, ``action(i, state)``.

        From the game's declared ``parts.learning`` (``core.contract.ActionSpace``);
        a game without it raises :class:`ContractError` naming the game.
        """
        from astrarium.core.learning import encoder_for

        return encoder_for(self, players, options).actions

    def observation_shape(self, players: int, options: Mapping[str, Any] | None = None) -> tuple[int, ...]:
        """The shape of ``State.observation_tensor`` for ``players`` and ``options`` (the same for every seat)."""
        from astrarium.core.learning import encoder_for

        return tuple(encoder_for(self, players, options).observation_shape)

    def global_shape(self, players: int, options: Mapping[str, Any] | None = None) -> tuple[int, ...]:
        """The shape of ``State.global_tensor`` for ``players`` and ``options``."""
        from astrarium.core.learning import encoder_for

        return tuple(encoder_for(self, players, options).global_shape)

    # -- help for players ------------------------------------------------------
    def cards(self, state: State | None = None) -> dict[str, str]:
        """What each card does, by the name typed in actions (``solar-lion``); empty in a game without cards.

        With ``state``, the cards of that game (a designer's deck or card table
        given as an option); without, the shipped ones. Every front end shows
        these texts (the terminal's ``card NAME``, the web table).
        """
        found = self.parts.help
        return {} if found is None or found.cards is None else dict(found.cards(state))

    def things(self, state: State | None = None) -> dict[str, str]:
        """What each piece, square or term of the game is, by name (``black hole``, ``ring 4``)."""
        found = self.parts.help
        return {} if found is None or found.things is None else dict(found.things(state))

    def card_text(self, name: str, state: State | None = None) -> str:
        """What the card ``name`` does (ValueError naming close names when there is no such card)."""
        cards = self.cards(state)
        if not cards:
            raise ValueError(f"{self.title} has no cards; 'info THING' tells what a piece or square is")
        return _look_up(cards, name, "card", self.title)

    def info(self, thing: str, state: State | None = None) -> str:
        """What ``thing`` is: a piece, square or term of the game, or a card (ValueError naming close names)."""
        return _look_up({**self.cards(state), **self.things(state)}, thing, "card, piece or term", self.title)

    def puzzles(self) -> list[Puzzle]:
        """Solo puzzles shipped with the game, easiest first (none by default)."""
        return []

    def puzzle_of_the_day(self, day: date) -> Puzzle:
        """The puzzle for ``day``, the same for everyone all day (from a hash of the date; games may grade it by weekday)."""
        puzzles = self.puzzles()
        if not puzzles:
            raise ValueError(f"{self.id} has no puzzles")
        digest = hashlib.sha256(f"{self.id} {day.isoformat()}".encode()).digest()
        return puzzles[int.from_bytes(digest[:8], "big") % len(puzzles)]

    def puzzle_solved(self, puzzle: Puzzle, state: State) -> bool:
        """Whether ``state`` meets ``puzzle``'s goal (games with puzzles override this)."""
        raise NotImplementedError(f"{self.id} has no puzzles")

    # -- building states ---------------------------------------------------
    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or isinstance(players, bool):
            raise OptionError("players", f"expected a whole number, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                allowed = f"exactly {self.min_players}"
            else:
                allowed = f"{self.min_players} to {self.max_players}"
            raise OptionError("players", f"{self.title} is for {allowed} players, not {players}")

    def resolve_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults merged with ``options``; then the game's own cross-checks."""
        resolved = resolve_options(self.options, options, game_id=self.id)
        self.check_options(players, resolved)
        return resolved

    def check_options(self, players: int, options: dict[str, Any]) -> None:
        """Checks that involve several options or the player count; raise OptionError."""

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game for ``players`` seats; the same seed and options always give the same game."""
        self.check_players(players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise OptionError("seed", f"expected an integer, got {seed!r}")
        resolved = self.resolve_options(players, options)
        return self.state_class(self, players, seed, resolved)

    def __repr__(self) -> str:
        return f"<Game {self.id!r}: {self.title}, {self.min_players}-{self.max_players} players>"


# State is also serializable=True: without it, the __new__ of a compiled game state (a native subclass) runs
# __init__, which would set a new game up inside clone; with it, __new__ only allocates, as object.__new__
# does for a plain class. (It also gives pickle and copy.copy all the native fields.)
@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class State(metaclass=ABCMeta):
    """One position of a game, and the rules that move it on.

    Subclasses implement ``_setup``, ``current_player``, ``_legal_actions``,
    ``_apply``, ``view`` and ``render``; they end the game by setting
    ``self._outcome``. Where the default ``parse_action`` (look the text up among
    the legal actions) cannot say *why* a text is illegal, they override
    ``parse_action`` and ``explain_illegal``. For speed they override
    ``_copy_fields`` (what ``clone`` must copy deeply).
    """

    game: Game
    players: int
    seed: int
    options: Mapping[str, Any]
    rng: Rng

    # Attributes the base class manages; everything else belongs to the game.
    _BASE_FIELDS: ClassVar[frozenset[str]] = frozenset(
        {"game", "players", "seed", "options", "rng", "_actions", "_legal", "_legal_ids", "_outcome"}
    )

    def __init__(self, game: Game, players: int, seed: int, options: Mapping[str, Any]) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self.rng = Rng(seed)
        self._actions: list[Any] = []
        self._legal: list[Any] | None = None
        self._legal_ids: set[int] | None = None
        self._outcome: Outcome | None = None
        self._setup()

    # -- what a game implements ----------------------------------------------
    @abstractmethod
    def _setup(self) -> None:
        """Lay out the starting position from ``self.options``, drawing chance from ``self.rng``."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to act, or None once the game is over."""

    @abstractmethod
    def _legal_actions(self) -> list[Any]:
        """Every legal action, in a deterministic order; never empty while the game goes on."""

    @abstractmethod
    def _apply(self, action: Any) -> None:
        """Play a legal action (already checked) and move the position on."""

    @abstractmethod
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """A JSON-serialisable dict of what ``seat`` may see (None: a spectator)."""

    def render(self, seat: int | None = None) -> str:
        """The position for a terminal, as Rich markup, from ``seat``'s side (the layout that fits 120x40).

        Drawn by the game's declared ``parts.render`` (its ``render`` module's
        ``render(state, seat)``): the rules never import their own
        presentation. A game that declares none overrides this method.
        """
        board = self.game.parts.render
        if board is None:
            raise ContractError(self.game.id, "render", "no text board: declare parts.render or override State.render")
        return board(self, seat)

    def render_fit(self, seat: int | None = None, *, width: int = BOARD_WIDTH, height: int = BOARD_HEIGHT) -> str:
        """The position as Rich markup in at most ``height`` lines of at most ``width`` cells.

        A terminal front end passes what its screen has left once its own lines
        (the header, the prompt, the list of actions) are counted, so the board
        never wraps or scrolls out of sight. A game declares its ``render``
        module's ``render_fit(state, seat, width=, height=)`` as
        ``parts.render_fit`` to choose a compact layout on a small terminal; a
        game that declares none draws ``render(seat)``. Layouts are made to fit
        from 80x18 up (what an 80x24 terminal leaves the board); a smaller
        space gets the smallest layout, cut to fit.
        """
        fit = self.game.parts.render_fit
        if fit is None:
            return self.render(seat)
        return fit(self, seat, width=width, height=height)

    def full_view(self) -> dict[str, Any]:
        """Everything, hidden parts included (for records, debugging and tests; never for players)."""
        return self.view(None)

    def explain_illegal(self, action: Any) -> str:
        """Why ``action`` is not legal here, in a player's words.

        A game's reasons are its ``explain`` module's ``explain(state, action)``,
        declared as ``parts.explain``, or its State's override of this method.
        """
        reasons = self.game.parts.explain
        if reasons is not None:
            return reasons(self, action)
        return f"{short(str(action))} is not a legal action now"

    def parse_action(self, text: str) -> Any:
        """The action whose notation is ``text`` (raises IllegalAction when there is none).

        The default looks the text up among the legal actions, ignoring case and
        repeated spaces. Games with a notation that can name illegal actions
        override this to parse first, so ``explain_illegal`` can say which rule
        is broken.
        """
        wanted = " ".join(text.split()).lower()
        for action in self.legal_actions():
            if str(action).lower() == wanted:
                return action
        raise IllegalAction(f"{short(text.strip())!r} is not a legal action now; {self._legal_hint()}")

    def draws_chance(self) -> bool:
        """Whether this game, under its options, draws on chance after set-up: the game's ``chance``, unless the
        game overrides it for an option that brings chance in (a searching player then re-samples the future)."""
        return self.game.chance

    def determinize(self, seat: int | None, rng: Rng) -> State:
        """A copy in which what ``seat`` cannot see is re-sampled from ``rng``.

        The default re-seeds the copy's chance (enough for games whose only
        secret is what the future draws will be). Games with hands or ordered
        decks override it to re-deal what ``seat`` has not seen.
        """
        new = self.clone()
        new.rng = rng.spawn()
        return new

    def evaluate(self, seat: int) -> float:
        """A heuristic value of the position for ``seat`` in [-1, 1] (for computer players).

        A game's judgement is its ``evaluate`` module's ``evaluate(state, seat)``,
        declared as ``parts.evaluate``. Without one, the final return once the
        game is over, and 0 before.
        """
        judge = self.game.parts.evaluate
        if judge is not None:
            return judge(self, seat)
        if self._outcome is not None:
            return self.returns()[seat]
        return 0.0

    # -- learning agents (core.learning, docs/learning.md) ----------------------------
    def legal_action_mask(self) -> Any:
        """A numpy bool array over the game's action space: True exactly at the legal actions' indices.

        Every legal action has an index and every index set is legal (the
        space's ``action(i, state)`` gives it back). Empty of True once over.
        """
        from astrarium.core.learning import legal_action_mask

        return legal_action_mask(self)

    def observation_tensor(self, seat: int) -> Any:
        """``seat``'s observation as a numpy float32 array of ``game.observation_shape``, seen from that seat.

        Built from ``self.view(seat)`` alone, so two states the seat cannot
        tell apart (this one and a ``determinize(seat, rng)`` of it) give the
        same tensor.
        """
        from astrarium.core.learning import observation_tensor

        return observation_tensor(self, seat)

    def global_tensor(self) -> Any:
        """The whole position, hidden parts included, as a numpy float32 array (for centralised critics only)."""
        from astrarium.core.learning import global_tensor

        return global_tensor(self)

    def is_out(self, seat: int) -> bool:
        """Whether ``seat`` takes no more part in the game (a destroyed ship); False where the game has no such rule."""
        from astrarium.core.learning import is_out

        return is_out(self, seat)

    # -- the API the rest of astrarium uses -----------------------------------
    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def move_number(self) -> int:
        """How many actions have been applied since the start."""
        return len(self._actions)

    @property
    def history(self) -> list[str]:
        """The notations of the actions applied so far."""
        return [str(a) for a in self._actions]

    @property
    def actions(self) -> list[Any]:
        """The actions applied so far."""
        return list(self._actions)

    def legal_actions(self) -> list[Any]:
        """Every legal action for the seat to move, in a deterministic order (empty once over)."""
        return list(self._legal_kept())

    def _legal_kept(self) -> list[Any]:
        """The legal actions as this state keeps them (possibly shared with its copies and the rules' caches): read only."""
        legal = self._legal
        if legal is None:
            legal = [] if self._outcome is not None else self._legal_actions()
            self._legal = legal
        return legal

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` is one of the legal actions, exactly (same type and same field types)."""
        return self.legal_match(action) is not None

    def legal_match(self, action: Any) -> Any | None:
        """The legal action that ``action`` is, or None.

        Equality alone is not enough: ``1.0 == 1``, ``True == 1`` and an
        ``IntEnum`` equals its int, so an action built with fields of the wrong
        type would compare equal and then corrupt the state or the record. A
        match must have the same type and the same ``repr`` (which spells out
        every field's type); the legal list's own object is returned, so only
        the game's own actions are ever applied.

        An action taken from ``legal_actions()`` is found by identity first: a
        plain scan, which for lists of a few dozen actions costs less than
        building a set of ids for every position.
        """
        legal = self._legal
        if legal is None:
            self.legal_actions()
            legal = cast(list, self._legal)
        for candidate in legal:
            if candidate is action:
                return action
        kind = type(action)
        for candidate in legal:
            if type(candidate) is kind:
                try:
                    same = candidate == action and repr(candidate) == repr(action)
                except Exception:  # a crafted object whose comparison fails is simply not legal
                    same = False
                if same:
                    return candidate
        return None

    def apply(self, action: Any) -> None:
        """Play ``action`` (an action value or its notation) for the seat to move.

        An illegal or unreadable action raises :class:`IllegalAction` with a
        reason, and the state is left exactly as it was.
        """
        if self._outcome is not None:
            raise IllegalAction(f"the game is over ({self._outcome.reason}); no more actions")
        if isinstance(action, str):
            if len(action) > MAX_NOTATION_CHARS:
                raise IllegalAction(f"{short(action)!r} is not an action: a notation is at most {MAX_NOTATION_CHARS} characters")
            action = self.parse_action(action)
        found = self.legal_match(action)
        if found is None:
            raise IllegalAction(self.explain_illegal(action))
        self.apply_unchecked(found)

    def apply_unchecked(self, action: Any) -> None:
        """Play an action taken from this position's own ``legal_actions()``, without parsing or checking it.

        For searches that play millions of actions they have just read from the
        legal list; anything else (people, records, notations) goes through ``apply``.
        """
        self._apply(action)
        self._actions.append(action)
        self._legal = None

    def random_playout(self, rand: Callable[[], float], depth: int | None = None) -> int:
        """Play uniformly random legal actions until the end or ``depth`` actions; returns how many.

        ``rand()`` returns a float in [0, 1) (``random.Random().random`` or ``Rng.random``).
        The hot loop of search players: it skips the per-position cache and checks
        that ``apply`` needs for actions that come from outside.
        """
        played = 0
        limit = -1 if depth is None else depth
        generate = self._legal_actions
        play = self._apply
        record = self._actions.append
        while self._outcome is None and played != limit:
            legal = generate()
            action = legal[int(rand() * len(legal))]
            play(action)
            record(action)
            played += 1
        self._legal = None
        return played

    def returns(self) -> list[float]:
        """One number per seat.

        Competitive games: 1 for a win (shared wins too), -1 for a loss, 0 for
        everyone when every seat shares the result of a game of several players
        (a draw). Cooperative games: 1 for every seat on a win, -1 on a loss.
        0 for everyone while the game goes on.
        """
        outcome = self._outcome
        if outcome is None:
            return [0.0] * self.players
        winners = set(outcome.winners)
        if not self.game.cooperative and self.players > 1 and len(winners) == self.players:
            return [0.0] * self.players
        return [1.0 if seat in winners else -1.0 for seat in range(self.players)]

    def clone(self) -> State:
        """An independent copy: acting on it never changes this state.

        Written so that it also works in the compiled build, where ``State`` is
        a native class: its instances are made by the class's own ``__new__``
        (which skips ``__init__``, as ``object.__new__`` does for a plain
        class), its fields live in native slots rather than in ``__dict__``, so
        they are copied one by one, and so are those of a compiled game state
        (:func:`_native_fields`, by ``_share_native_fields``); an interpreted
        game state keeps its own fields in ``__dict__``.
        """
        cls = type(self)
        new = cls.__new__(cls)
        fields = getattr(self, "__dict__", None)
        if fields is not None:
            vars(new).update(fields)
        if _native_fields(cls):
            self._share_native_fields(new)
        new.game = self.game
        new.players = self.players
        new.seed = self.seed
        new.options = self.options
        new._legal = self._legal
        new._legal_ids = self._legal_ids
        new._outcome = self._outcome
        new.rng = self.rng.copy()
        new._actions = self._actions.copy()
        self._copy_fields(new)
        return new

    def _share_native_fields(self, new: State) -> None:
        """Give ``new`` this state's game fields kept in native slots (a compiled game state's), shared, not copied.

        ``clone`` calls it only for a compiled game state, before ``_copy_fields``
        (an interpreted game state's fields are in ``__dict__``, copied in one
        call). The default copies each field by name (:func:`_native_fields`),
        a generic attribute look-up and store per field; a compiled game state
        overrides it with direct stores of its own fields, a few instructions
        each (every field ``_native_fields`` lists must then be stored, or the
        copy would lack it).
        """
        for name in _native_fields(type(self)):
            if hasattr(self, name):
                setattr(new, name, getattr(self, name))

    def _copy_fields(self, new: State) -> None:
        """Give ``new`` its own copies of this state's mutable game fields.

        The default deep-copies every attribute the base class does not manage;
        games override it with cheaper copies of exactly what ``_apply`` mutates.
        """
        base = State._BASE_FIELDS
        memo: dict[int, Any] = {id(self.game): self.game, id(self.options): self.options}
        for name, value in getattr(self, "__dict__", {}).items():
            if name not in base:
                setattr(new, name, copy.deepcopy(value, memo))

    def to_record(self, public: bool = False) -> dict[str, Any]:
        """The game so far as JSON-serialisable data that :func:`astrarium.replay` rebuilds.

        A record holds the seed, so whoever has the record of an unfinished game
        can rebuild it and read every hand and every coming draw. With
        ``public=True`` the record is safe to share before the end: no seed, and
        instead the spectator's view of every position (``views[0]`` the start,
        ``views[n]`` after move n). A public record cannot be replayed, only
        shown position by position (``astrarium replay`` and the HTML replay do).
        """
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game.id,
            "players": self.players,
            "seed": self.seed,
            "options": json.loads(json.dumps(dict(self.options))),
            "actions": self.history,
        }
        if self._outcome is not None:
            record["result"] = {**self._outcome.to_json(), "returns": self.returns()}
        if public:
            del record["seed"]
            record["public"] = True
            record["views"] = self.public_views()
        return record

    def public_views(self) -> list[dict[str, Any]]:
        """The spectator's picture view of every position of this game so far, the start first."""
        again = self.game.new_game(self.players, self.seed, self.options)
        views = [again.picture_view(None)]
        for action in self._actions:
            again.apply_unchecked(action)
            views.append(again.picture_view(None))
        return views

    def picture_view(self, seat: int | None = None) -> dict[str, Any]:
        """``view(seat)`` plus the public facts a picture shows: who looks, who moves, the move number, the result."""
        view = self.view(seat)
        view["viewer"] = seat
        view["to_move"] = self.current_player
        view["move"] = len(self._actions)
        view["players_count"] = self.players
        view["outcome"] = None if self._outcome is None else self._outcome.to_json()
        return view

    def render_svg(self, seat: int | None = None) -> str:
        """This position as an SVG picture from ``seat``'s side (None: a spectator)."""
        return self.game.render_svg(self.picture_view(seat))

    # -- helpers for subclasses ----------------------------------------------
    def _legal_hint(self, limit: int = 8) -> str:
        legal = self.legal_actions()
        if not legal:
            return "there are no legal actions"
        shown = ", ".join(str(a) for a in legal[:limit])
        more = f" and {len(legal) - limit} more" if len(legal) > limit else ""
        return f"legal actions: {shown}{more}"

    def __repr__(self) -> str:
        status = f"over: {self._outcome.reason}" if self._outcome else f"seat {self.current_player} to act"
        return f"<{type(self).__name__} {self.game.id} seed={self.seed} move {self.move_number}, {status}>"


#: Per state class, the fields a compiled game state keeps in native slots besides the base class's (see ``State.clone``).
_NATIVE_FIELDS: dict[type, tuple[str, ...]] = {}


def _native_fields(cls: type) -> tuple[str, ...]:
    """The native fields of ``cls`` that ``State`` itself does not manage; empty unless a game's state class is compiled.

    mypyc lists every native field of a compiled class, inherited ones included,
    in the class attribute ``__mypyc_attrs__``; interpreted classes (and every
    class of the pure-Python build) have none of their own.
    """
    found = _NATIVE_FIELDS.get(cls)
    if found is None:
        names: tuple[str, ...] = getattr(cls, "__mypyc_attrs__", ())
        found = _NATIVE_FIELDS[cls] = tuple(n for n in names if n not in State._BASE_FIELDS and n != "__dict__")
    return found


def _name_key(name: str) -> str:
    """A name as compared: lower case, hyphens, underscores and runs of spaces as one space."""
    return " ".join(name.lower().replace("-", " ").replace("_", " ").split())


def _by_mark(texts: Mapping[str, str], wanted: str) -> str | None:
    """The name whose text begins with how the board marks it (``ESC on the board: ...`` answers ``ESC``)."""
    for key, text in texts.items():
        marks, sep, _ = text.partition(" on the board")
        if sep and wanted in {_name_key(mark) for mark in marks.replace(" or ", ",").split(",")}:
            return key
    return None


def _by_word(keys: Mapping[str, str], wanted: str) -> str | None:
    """The one name that holds ``wanted`` as a whole word (``offence`` answers ``offence position``), else None."""
    holding = [key for folded, key in keys.items() if wanted and wanted in folded.split()]
    return holding[0] if len(holding) == 1 else None


def _look_up(texts: Mapping[str, str], name: str, kind: str, title: str) -> str:
    """The text of ``name`` among ``texts`` (any case; ``solar lion`` finds ``solar-lion``), or a ValueError.

    The error suggests the nearest names, or lists them all when there are few,
    so a person who mistyped sees what to type.
    """
    import difflib

    wanted = _name_key(name)
    keys = {_name_key(key): key for key in texts}
    found = keys.get(wanted) or _by_mark(texts, wanted) or _by_word(keys, wanted)
    if found is not None:
        return f"{found}: {texts[found]}"
    close = difflib.get_close_matches(wanted, list(keys), n=4, cutoff=0.5)
    if not close:
        close = [k for k in keys if wanted and (wanted in k or k in wanted)][:4]
    if close:
        hint = "did you mean " + ", ".join(keys[k] for k in close) + "?"
    else:
        hint = "known: " + ", ".join(sorted(texts)) if len(texts) <= 30 else f"{len(texts)} names are known"
    raise ValueError(f"{title} has no {kind} called {short(name.strip(), 40)!r}; {hint}")
