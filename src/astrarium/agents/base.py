"""The agent protocol: a computer player chooses an action for the seat to move."""

from __future__ import annotations

import importlib
import inspect
import math
from collections.abc import Callable
from typing import Any, Protocol, cast, runtime_checkable

from astrarium.core.contract import LEVEL_NAMES
from astrarium.core.errors import ContractError, short
from astrarium.core.game import State
from astrarium.core.learning import encoder_for


@runtime_checkable
class Agent(Protocol):
    """A player. Built with a seed and keyword options; ``choose`` returns a legal action.

    An agent may look at ``state.legal_actions()`` and ``state.view(seat)`` for the
    seat it plays; it must not read hidden parts of the state unless it was built
    with ``perfect_information=True`` (for experiments only).

    A player written for some games only (a fixed strategy of one game) says so
    with a class attribute ``games``, a tuple of game ids; :func:`make_agent`
    then refuses it for any other game before play starts. Without it, a player
    plays every game.

    A player that looks for whole actions among the legal ones (a scripted plan
    that picks a whole move) says so with a class attribute ``chooses_whole = True``;
    :func:`make_agent` then wraps it in :class:`WholeChoices`, so that it still
    plays where a game's options split a choice into parts.
    """

    name: str

    def choose(self, state: State) -> Any: ...


AgentFactory = Callable[..., Agent]
_AGENTS: dict[str, AgentFactory] = {}


_game_players_registered = False


def register_agent(name: str, factory: AgentFactory) -> None:
    _AGENTS[name] = factory


def resolve_player(game: str, name: str, reference: str) -> AgentFactory:
    """The scripted player a game declares as ``name`` -> ``"module:attribute"`` (``parts.players``), imported.

    A reference that does not import, names nothing, names no player or a
    player of another name raises ContractError naming the game and the player.
    """
    part = f"players[{name!r}]"
    module_name, _, attribute = reference.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ContractError(game, part, f"{reference!r} does not import: {short(str(exc))}") from exc
    try:
        factory = getattr(module, attribute)
    except AttributeError:
        raise ContractError(game, part, f"{reference!r}: the module {module_name} has no {attribute!r}") from None
    if not callable(factory):
        raise ContractError(game, part, f"{reference!r} is a {type(factory).__name__}, not a player class or factory")
    called = getattr(factory, "name", name)
    if called != name:
        raise ContractError(game, part, f"{reference!r} is the player {short(str(called), 40)!r}, not {name!r}")
    return cast(AgentFactory, factory)


def _agents() -> dict[str, AgentFactory]:
    """Every kind of player by name; the games' scripted players are registered the first time one is asked for."""
    global _game_players_registered
    if not _game_players_registered:
        from astrarium.core.registry import get_game, list_games

        found = {
            name: resolve_player(game_id, name, reference)
            for game_id in list_games()
            for name, reference in get_game(game_id).parts.players.items()
        }
        for name, factory in found.items():
            register_agent(name, factory)
        _game_players_registered = True
    return _AGENTS


def agent_games(name: str) -> tuple[str, ...] | None:
    """The games the kind of player ``name`` is written for (None: every game)."""
    games = getattr(_agents().get(name), "games", None)
    return tuple(games) if games is not None else None


def agent_names(game: str | None = None) -> list[str]:
    """The kinds of player, all of them or those that can play ``game``."""
    return sorted(name for name in _agents() if game is None or game in (agent_games(name) or (game,)))


#: The longest player spec accepted, in characters (``mcts:iterations=2000,seconds=1`` is 31).
MAX_SPEC_CHARS = 200


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=2000,seconds=1"`` -> ``("mcts", {"iterations": 2000, "seconds": 1})``.

    Values that read as integers or numbers become numbers; true/false become
    booleans. A number that is not finite (``nan``, ``inf``, ``1e999``) is
    refused here, since no option means anything with it; an option given twice
    is refused rather than silently taking the last.
    """
    if not isinstance(spec, str):
        raise ValueError(f"a player spec is text such as 'mcts:iterations=500', not {type(spec).__name__}")
    if len(spec) > MAX_SPEC_CHARS:
        raise ValueError(f"player spec {short(spec, 40)!r} is longer than {MAX_SPEC_CHARS} characters")
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise ValueError(f"no player kind in {short(spec)!r}")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"player option {short(part, 40)!r} in {short(spec)!r} should look like name=value")
        if key in options:
            raise ValueError(f"player option {short(key, 40)!r} is given twice in {short(spec)!r}")
        options[key] = _parse_value(key, raw.strip())
    return name, options


def _parse_value(key: str, raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(raw)
    except ValueError:
        pass
    try:
        number = float(raw)
    except ValueError:
        return raw
    if not math.isfinite(number):
        raise ValueError(f"player option {short(key, 40)}={short(raw, 40)!r}: not a finite number")
    return number


def agent_options(name: str) -> list[str] | None:
    """The option names the kind of player ``name`` takes (None: it takes any, or it is not known)."""
    factory = _agents().get(name)
    if factory is None:
        return None
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # a factory without a signature (a builtin): let it check its own options
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    named = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in parameters if p.name != "seed" and p.kind in named]


def make_agent(spec: str, seed: int = 0, game: str | None = None) -> Agent:
    """Build an agent from a spec such as ``random`` or ``mcts:iterations=500``, to play ``game`` if given.

    Every problem is a ValueError that names the option: an unknown kind, a
    kind written for other games, an option the kind does not take (the
    message lists the ones it does), or a value out of range (each agent checks
    its own values).
    """
    name, options = parse_agent_spec(spec)
    factory = _agents().get(name)
    if factory is None:
        known = ", ".join(agent_names(game))
        where = f" for {short(game, 40)}" if game is not None else ""
        levels = ", ".join(LEVEL_NAMES)
        raise ValueError(f"unknown player kind {short(repr(name), 42)}; the levels are {levels}; the other players{where}: human, {known}")
    games = agent_games(name)
    if game is not None and games is not None and game not in games:
        raise ValueError(f"{name} plays only {', '.join(games)}, not {short(game, 40)}")
    if "seed" in options:
        raise ValueError(f"{name}: seed is not a player option (each player's seed comes from the game's seed)")
    allowed = agent_options(name)
    if allowed is not None:
        unknown = [key for key in options if key not in allowed]
        if unknown:
            takes = f"its options are {', '.join(allowed)}" if allowed else "it takes no options"
            raise ValueError(f"{name} has no option {short(unknown[0], 40)!r}; {takes}")
    agent = factory(seed=seed, **options)
    return WholeChoices(agent) if getattr(factory, "chooses_whole", False) else agent


class WholeChoices:
    """A player of whole actions, playing its choice a part at a time where the game's options split it into parts.

    A game's learning part may split a choice into parts (Connected Worlds under
    ``choices = steps``: ``move CARD``, then ``at HEX``, then ``piece u2``); its
    encoder then says which whole actions the position's parts can still make
    (``whole_actions(state)``, None where the choice is not split) and the parts
    of one (``parts(action)``, notations in order). The player chooses among
    those whole actions (the position is shown to it with them as its legal
    actions), and the first of its choice's parts that the position offers is
    played (the parts already chosen are offered no more). Where someone else
    began an action it would not play (a search trying each part, a person who
    hands the seat over), it finishes it the first way offered. Where nothing is
    split it chooses as it always does.
    """

    def __init__(self, player: Agent) -> None:
        self.player = player
        self.name = player.name
        self._options: Any = None
        self._encoder: Any = None

    def __getattr__(self, name: str) -> Any:
        player = self.__dict__.get("player")
        if player is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(player, name)

    def choose(self, state: State) -> Any:
        encoder = self._splitting(state)
        whole = None if encoder is None else encoder.whole_actions(state)
        if whole is None:
            return self.player.choose(state)
        action = self.player.choose(cast(State, _WholeActions(state, whole)))
        if action not in whole:  # a plan that would rather do something else than finish an action begun before
            action = whole[0]
        offered = {str(a): a for a in state.legal_actions()}
        for part in encoder.parts(action):
            found = offered.get(part)
            if found is not None:
                return found
        raise ValueError(f"{self.name} chose {short(str(action))!r}, which no part offered here begins or goes on")

    def _splitting(self, state: State) -> Any:
        """The encoder of ``state``'s configuration when it splits choices into parts, else None (found once per options)."""
        if state.options is not self._options:
            self._options = state.options
            self._encoder = _splitting_encoder(state)
        return self._encoder


def _splitting_encoder(state: State) -> Any:
    """The learning encoder of ``state``'s configuration if it offers ``whole_actions`` and ``parts``; None otherwise."""
    if state.game.parts.learning is None:
        return None
    try:
        encoder = encoder_for(state.game, state.players, state.options)
    except ContractError:  # a configuration the learning part does not encode: its choices are whole
        return None
    if callable(getattr(encoder, "whole_actions", None)) and callable(getattr(encoder, "parts", None)):
        return encoder
    return None


class _WholeActions:
    """A position as a player of whole actions sees it: the whole actions as its legal ones, the rest the position's own."""

    __slots__ = ("_state", "_whole")

    def __init__(self, state: State, whole: list[Any]) -> None:
        self._state = state
        self._whole = whole

    def legal_actions(self) -> list[Any]:
        return list(self._whole)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._state, name)
