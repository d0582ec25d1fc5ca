"""The contract: what a game provides besides its ``State`` rules, declared on the game and checked when it registers.

A game class sets ``parts = Parts(...)`` from explicit imports of its own
modules (its picture, words, text board, help texts, judgement) and data about
how the computer players play it (levels, search settings, guide, scripted
players). Nothing is found by a module's or a function's name: the ``Game``
methods (``render_svg``, ``describe``, ``cards``, ...) and ``State.render_fit``
read these parts, and :func:`check_contract` refuses a game whose parts are
missing, of the wrong type or callable the wrong way, naming the game and the
part (:class:`~astrarium.core.errors.ContractError`).

Every field of :class:`Parts` but ``level_summaries``, ``metrics`` and ``learning`` must be
given: a part a game does not have is declared ``None`` (or empty), never left out.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from astrarium.core.errors import ContractError, short
from astrarium.core.options import Option

#: The levels a person chooses among, easiest first; every game maps each to a player spec.
LEVEL_NAMES: tuple[str, ...] = ("easy", "medium", "hard")
#: A player's name as typed (``cw-general``) and a reference to its code (``astrarium.agents.scripted_connected:GeneralPlayer``).
_PLAYER_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_REFERENCE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")

#: A picture view (``State.picture_view``) to an SVG document, or to the pieces it is joined from.
RenderSvg = Callable[[Mapping[str, Any]], str]
RenderSvgParts = Callable[[Mapping[str, Any]], list[str]]
#: An action's notation to the click tokens it decomposes into.
ActionTokens = Callable[[str], list[str]]
#: An action and what it caused, in words, from two picture views of one seat (before and after).
Describe = Callable[[Mapping[str, Any], str, Mapping[str, Any]], list[str]]
#: Card or piece texts by name, for a game in progress (its designer's tables) or, given None, the shipped ones.
Texts = Callable[[Any], Mapping[str, str]]


class Render(Protocol):
    """The full-size text board (the layout that fits 120x40): ``render(state, seat)`` -> Rich markup."""

    def __call__(self, state: Any, seat: int | None = None, /) -> str: ...


class Explain(Protocol):
    """Why ``action`` is not legal in the game's own state, in a player's words."""

    def __call__(self, state: Any, action: Any, /) -> str: ...


class RenderFit(Protocol):
    """The text board that fits a terminal's space: ``render_fit(state, seat, width=, height=)`` -> Rich markup."""

    def __call__(self, state: Any, seat: int | None = None, /, *, width: int, height: int) -> str: ...


#: A finished game's own measurements by name (``hull_0``, ``turns``), read from its final state: the lab's ``metric_<name>`` columns.
Metrics = Callable[[Any], Mapping[str, float | None]]


class Evaluate(Protocol):
    """A heuristic value in [-1, 1] of the game's own state for ``seat``."""

    def __call__(self, state: Any, seat: int, /) -> float: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Picture:
    """How a game draws a position and how a click on it becomes an action (the game's ``svg`` module).

    ``render_svg_parts`` (optional) returns the pieces ``render_svg`` joins, for
    a game that caches them; ``button_tokens`` are the tokens a client offers as
    buttons because the picture does not draw them (verbs such as ``end``).
    """

    render_svg: RenderSvg
    action_tokens: ActionTokens
    button_tokens: frozenset[str]
    render_svg_parts: RenderSvgParts | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Help:
    """What a card or a piece does, in words (the game's ``help`` module): ``cards`` and ``things`` by name."""

    cards: Texts | None
    things: Texts | None


class ActionSpace(Protocol):
    """A game's fixed action space: every action the game can ever offer has one index in ``range(size)``.

    ``index(action)`` is that index (a ``ValueError`` for an action outside the
    space); ``action(i, state)`` is the legal action of ``state`` whose index is
    ``i`` (an ``IllegalAction`` when no legal action has it). Two legal actions
    of one state never share an index. ``labels[i]`` names index ``i`` (the
    notation of its actions, for docs and debugging).

    A space may also offer ``mask_of(legal)``: the mask of a state's legal
    actions as the state keeps them (a list to read, never to change), for a
    game whose rules hand out the same lists again and again; it must equal
    the mask built one index at a time (``core.learning.legal_action_mask``).
    """

    @property
    def size(self) -> int: ...

    @property
    def labels(self) -> tuple[str, ...]: ...

    def index(self, action: Any, /) -> int: ...

    def action(self, index: int, state: Any, /) -> Any: ...


class Encoder(Protocol):
    """A game's encoding for learning agents, for one player count and one set of options (``core.learning``).

    ``observe(view, seat)`` turns ``state.view(seat)`` (what that seat may see,
    and nothing else) into a float32 array of ``observation_shape``, seen from
    ``seat`` (its own things first); ``observe_global(full_view)`` turns
    ``state.full_view()`` into a float32 array of ``global_shape`` (for
    centralised critics: hidden parts included, never for a player's policy).
    """

    @property
    def actions(self) -> ActionSpace: ...

    @property
    def observation_shape(self) -> tuple[int, ...]: ...

    @property
    def global_shape(self) -> tuple[int, ...]: ...

    def observe(self, view: Mapping[str, Any], seat: int, /) -> Any: ...

    def observe_global(self, full_view: Mapping[str, Any], /) -> Any: ...


class EncoderOf(Protocol):
    """The game's :class:`Encoder` for a player count and resolved options (built once per configuration, then cached)."""

    def __call__(self, players: int, options: Mapping[str, Any], /) -> Encoder: ...


class IsOut(Protocol):
    """Whether ``seat`` takes no more part in the game's own ``state`` (a destroyed ship): public facts only."""

    def __call__(self, state: Any, seat: int, /) -> bool: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Learning:
    """How learning agents see a game (the game's ``learning`` module): its encoder and, optionally, who is out.

    ``encoder(players, options)`` builds the fixed action space and the
    observation tensors for one configuration; ``is_out(state, seat)`` says a
    seat takes no more part (None: no seat is ever out before the end).
    """

    encoder: EncoderOf
    is_out: IsOut | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Parts:
    """Everything a game provides besides its State's rules. Declared once, on the game class, as ``parts``.

    * ``picture``: how positions are drawn and clicked (None: a game without pictures);
    * ``describe``: an action in words, for every event log (None: the mover and the notation);
    * ``render``: the full-size text board ``State.render`` draws (None: the game's State overrides ``render``);
    * ``render_fit``: the text board that fits a terminal's space (None: ``State.render``);
    * ``help``: card and piece texts (None: a game without any);
    * ``explain``: why an action is not legal, read through ``State.explain_illegal``, the game's
      ``explain`` module (None: the State's method is the whole of it);
    * ``evaluate``: the judgement computer players read through ``State.evaluate``, the game's
      ``evaluate`` module (None: the State's method is the whole of it);
    * ``levels``: ``easy``, ``medium`` and ``hard``, each a player spec (data only; the agents build them),
      and ``level_summaries``: what a level plays, in a person's words, where the game's own differs;
    * ``search``: the search players' settings for the game (``depth=10``), without a budget;
    * ``guide``: the player spec a search takes as its guide by default (None: unguided);
    * ``players``: the game's scripted players, name -> ``"module:attribute"`` of their code (resolved by
      the agents when first asked for a player);
    * ``metrics``: the game's own measurements of a finished game, name -> number, from its final state
      (None: none; the lab writes each as a ``metric_<name>`` column of ``games.parquet``);
    * ``learning``: the fixed action space and observation tensors for learning agents (None: the game
      offers none; ``Game.action_space`` and the ``astrarium.rl`` adapters then raise ``ContractError``).
    """

    picture: Picture | None
    describe: Describe | None
    render_fit: RenderFit | None
    help: Help | None
    evaluate: Evaluate | None
    levels: Mapping[str, str]
    search: str
    guide: str | None
    players: Mapping[str, str]
    level_summaries: Mapping[str, str] = field(default_factory=dict)
    metrics: Metrics | None = None
    render: Render | None = None
    explain: Explain | None = None
    learning: Learning | None = None

    @classmethod
    def rules_only(cls, *, hidden_or_chance: bool) -> Parts:
        """The parts of a game that is its rules alone (a test's or a benchmark's game), declared as such.

        No picture, words, text board, help or judgement of its own (the
        ``Game`` and ``State`` methods' plain answers stand in), the usual
        levels with the searches' default settings, no guide, no scripted players.
        """
        levels = search_levels("", hidden_or_chance=hidden_or_chance)
        return cls(picture=None, describe=None, render_fit=None, help=None, evaluate=None, levels=levels, search="", guide=None, players={})


def search_levels(search: str, *, hidden_or_chance: bool) -> dict[str, str]:
    """The usual levels: ``easy`` looks one action ahead, ``medium`` searches 0.3 s and ``hard`` 2 s a move.

    Both searches take the game's ``search`` settings; ``hard`` is the
    information-set search (``ismcts``) in a game with secrets or chance,
    plain UCT (``mcts``) elsewhere.
    """
    extra = f"{search}," if search else ""
    hard = "ismcts" if hidden_or_chance else "mcts"
    return {"easy": "greedy", "medium": f"mcts:{extra}seconds=0.3", "hard": f"{hard}:{extra}seconds=2"}


#: What ``easy`` of :func:`lookahead_levels` plays, in the words a person reads in the menu.
SLIPPING_EASY = "answers at once; half its moves the best-looking, half at random"


def lookahead_levels(hard: str, medium: str = "greedy") -> dict[str, str]:
    """Levels that step down from one step of lookahead, for a game where it already plays well.

    ``medium`` is that lookahead (``greedy``, or the player given, such as the
    lookahead slipping less often than ``easy``), ``easy`` the same lookahead
    slipping to a random legal move half the time, ``hard`` the player given.
    """
    return {"easy": "greedy:epsilon=0.5", "medium": medium, "hard": hard}


# -- the checks registration runs ------------------------------------------------------------------------------------
class Declared(Protocol):
    """What the checks read of a game (a ``core.game.Game``): its id, its options and, if it declares them, its parts."""

    @property
    def id(self) -> str: ...

    @property
    def options(self) -> tuple[Option, ...]: ...


def check_contract(game: Declared) -> Parts:
    """``game``'s parts, checked: every part present and of its type, every hook callable as the core calls it.

    Also checks the flags of the game's options (``names_file`` only on text).
    Raises :class:`ContractError` naming the game and the part.
    """
    game_id = str(game.id)
    try:
        parts = game.parts  # type: ignore[attr-defined]  # a game without parts is what this refuses
    except AttributeError:
        raise ContractError(game_id, "parts", f"{type(game).__name__} declares no parts (set parts = Parts(...) on the class)") from None
    if not isinstance(parts, Parts):
        raise ContractError(game_id, "parts", f"expected a Parts, got {_kind(parts)}")
    _check_picture(game_id, parts.picture)
    _optional_hook(game_id, "describe", parts.describe, {}, "before", "notation", "after")
    _optional_hook(game_id, "render", parts.render, {}, "state", None)
    _optional_hook(game_id, "render_fit", parts.render_fit, {"width": 80, "height": 18}, "state", None)
    _check_help(game_id, parts.help)
    _optional_hook(game_id, "evaluate", parts.evaluate, {}, "state", 0)
    _optional_hook(game_id, "explain", parts.explain, {}, "state", "action")
    _check_levels(game_id, parts.levels, parts.level_summaries)
    _check_search(game_id, parts.search)
    if parts.guide is not None and not _text(parts.guide):
        raise ContractError(game_id, "guide", f"expected a player spec or None, got {_kind(parts.guide)}")
    _check_players(game_id, parts.players)
    _optional_hook(game_id, "metrics", parts.metrics, {}, "state")
    _check_learning(game_id, parts.learning)
    for option in game.options:
        if option.names_file and option.kind is not str:
            kind = option.kind.__name__
            problem = f"names_file is set on an option of kind {kind}; only text can name a file"
            raise ContractError(game_id, f"option {option.name!r}", problem)
    return parts


def _kind(value: object) -> str:
    return short(repr(value), 60) if isinstance(value, str | int | float | bool | None) else type(value).__name__


def _text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _hook(game_id: str, part: str, value: object, keywords: Mapping[str, object], *args: object) -> None:
    """Refuse ``value`` unless it is a function that takes ``args`` and ``keywords`` as the core passes them."""
    if not callable(value):
        raise ContractError(game_id, part, f"expected a function, got {_kind(value)}")
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):  # a builtin or compiled function without a readable signature is taken on trust
        return
    try:
        signature.bind(*args, **keywords)
    except TypeError as exc:
        shape = ", ".join([*map(str, args), *(f"{k}=" for k in keywords)])
        name = getattr(value, "__name__", "the hook")
        raise ContractError(game_id, part, f"{name}{signature} cannot be called as ({shape}): {exc}") from None


def _optional_hook(game_id: str, part: str, value: object, keywords: Mapping[str, object], *args: object) -> None:
    if value is not None:
        _hook(game_id, part, value, keywords, *args)


def _check_picture(game_id: str, picture: object) -> None:
    if picture is None:
        return
    if not isinstance(picture, Picture):
        raise ContractError(game_id, "picture", f"expected a Picture or None, got {_kind(picture)}")
    _hook(game_id, "picture.render_svg", picture.render_svg, {}, "view")
    _hook(game_id, "picture.action_tokens", picture.action_tokens, {}, "notation")
    _optional_hook(game_id, "picture.render_svg_parts", picture.render_svg_parts, {}, "view")
    tokens = picture.button_tokens
    if not isinstance(tokens, frozenset) or not all(_text(t) for t in tokens):
        raise ContractError(game_id, "picture.button_tokens", f"expected a frozenset of words, got {_kind(tokens)}")


def _check_help(game_id: str, found: object) -> None:
    if found is None:
        return
    if not isinstance(found, Help):
        raise ContractError(game_id, "help", f"expected a Help or None, got {_kind(found)}")
    _optional_hook(game_id, "help.cards", found.cards, {}, None)
    _optional_hook(game_id, "help.things", found.things, {}, None)


def _check_learning(game_id: str, found: object) -> None:
    if found is None:
        return
    if not isinstance(found, Learning):
        raise ContractError(game_id, "learning", f"expected a Learning or None, got {_kind(found)}")
    _hook(game_id, "learning.encoder", found.encoder, {}, 2, {})
    _optional_hook(game_id, "learning.is_out", found.is_out, {}, "state", 0)


def _check_levels(game_id: str, levels: object, summaries: object) -> None:
    if not isinstance(levels, Mapping):
        raise ContractError(game_id, "levels", f"expected a mapping of {', '.join(LEVEL_NAMES)} to player specs, got {_kind(levels)}")
    missing = [name for name in LEVEL_NAMES if name not in levels]
    if missing:
        raise ContractError(game_id, "levels", f"{', '.join(missing)} missing (every game names a player for {', '.join(LEVEL_NAMES)})")
    for name, spec in levels.items():
        if name not in LEVEL_NAMES:
            raise ContractError(game_id, "levels", f"{short(str(name), 40)!r} is no level (the levels are {', '.join(LEVEL_NAMES)})")
        if not _text(spec):
            raise ContractError(game_id, f"levels[{name!r}]", f"expected a player spec, got {_kind(spec)}")
    if not isinstance(summaries, Mapping):
        raise ContractError(game_id, "level_summaries", f"expected a mapping of levels to lines, got {_kind(summaries)}")
    for name, line in summaries.items():
        if name not in LEVEL_NAMES or not _text(line):
            raise ContractError(game_id, "level_summaries", f"{short(str(name), 40)!r}: expected a level and a line of text")


def _check_search(game_id: str, search: object) -> None:
    if not isinstance(search, str):
        raise ContractError(game_id, "search", f"expected player options as text (depth=10), got {_kind(search)}")
    for item in filter(None, (p.strip() for p in search.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise ContractError(game_id, "search", f"{short(item, 40)!r} should look like name=value")


def _check_players(game_id: str, players: object) -> None:
    if not isinstance(players, Mapping):
        raise ContractError(game_id, "players", f"expected a mapping of player names to 'module:attribute', got {_kind(players)}")
    for name, reference in players.items():
        if not isinstance(name, str) or not _PLAYER_NAME.fullmatch(name):
            raise ContractError(game_id, "players", f"{_kind(name)} is no player name (lower-case words joined by hyphens)")
        if not isinstance(reference, str) or not _REFERENCE.fullmatch(reference):
            raise ContractError(game_id, f"players[{name!r}]", f"expected 'module:attribute', got {_kind(reference)}")
