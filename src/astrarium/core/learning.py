"""What learning agents read of a game: a fixed action space, legal-action masks and observation tensors.

A game offers these by declaring ``parts.learning = Learning(encoder=...)``
(``core.contract``), its ``learning`` module's ``encoder(players, options)``.
The ``Game`` and ``State`` methods (``action_space``, ``observation_shape``,
``legal_action_mask``, ``observation_tensor``, ``global_tensor``, ``is_out``)
call the functions here; a game without the part gets a ``ContractError``
naming it. docs/learning.md describes the API and every game's encoding.

numpy is imported inside the functions that build arrays, so the core runs
without it; it comes with the ``rl`` extra (``pip install astrarium[rl]``).

Helpers for encoders:

* :class:`NotationSpace`: an action space given as data, the notation of the
  action at each index (``rot a1``, ``play ryw/3``, ``end``); an action's
  index is its notation's place in that list;
* :class:`Segments`: a flat observation laid out as named segments, so an
  encoder writes each part by name and the docs can list the layout.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from astrarium.core.contract import ActionSpace, Encoder, Learning, Parts
from astrarium.core.errors import ContractError, IllegalAction, short

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


__all__ = [
    "NotationSpace",
    "Segments",
    "encoder_for",
    "global_tensor",
    "is_out",
    "learning_part",
    "legal_action_mask",
    "observation_tensor",
]

#: How many configurations' encoders stay cached (a configuration is a game, a player count and its options).
_CACHE_SIZE = 64


class NotationSpace:
    """An action space as data: ``labels[i]`` is the notation of the action at index ``i``.

    Every action the game can offer in the configuration must have its
    notation (``str(action)``) among the labels, and two different actions
    of one state never the same notation (a game's notation is canonical).
    """

    __slots__ = ("_by_label", "labels")

    def __init__(self, labels: Iterable[str]) -> None:
        self.labels: tuple[str, ...] = tuple(labels)
        self._by_label: dict[str, int] = {label: i for i, label in enumerate(self.labels)}
        if len(self._by_label) != len(self.labels):
            seen: set[str] = set()
            twice = next(label for label in self.labels if label in seen or seen.add(label))  # type: ignore[func-returns-value]
            raise ValueError(f"the action label {twice!r} appears twice")

    @property
    def size(self) -> int:
        """How many indices the space has (the mask's length, the policy's output size)."""
        return len(self.labels)

    def index(self, action: Any) -> int:
        """The index of ``action`` (an action value or its notation); ValueError for one outside the space."""
        found = self._by_label.get(str(action))
        if found is None:
            raise ValueError(f"{short(str(action))!r} is outside the action space ({self.size} actions)")
        return found

    def action(self, index: int, state: Any) -> Any:
        """The legal action of ``state`` at ``index`` (IllegalAction when the index is not legal there)."""
        if not isinstance(index, int) or not 0 <= index < len(self.labels):
            raise IllegalAction(f"action index {short(repr(index))} is outside the action space (0 to {self.size - 1})")
        label = self.labels[index]
        for action in state.legal_actions():
            if str(action) == label:
                return action
        raise IllegalAction(f"action index {index} ({label!r}) is not legal now")

    def __reduce__(self) -> tuple[Any, ...]:
        return (NotationSpace, (self.labels,))

    def __repr__(self) -> str:
        return f"<NotationSpace of {self.size} actions>"


class Segments:
    """A flat float32 observation laid out as named segments of fixed sizes, in order.

    ``Segments([("board", 49 * 9), ("hand", 40), ("scores", 4)])``: ``size`` is
    the total, ``slice("hand")`` where a segment lies, ``layout()`` the table
    the docs show (name, offset, size).
    """

    __slots__ = ("_at", "parts", "size")

    def __init__(self, parts: Sequence[tuple[str, int]]) -> None:
        self.parts: tuple[tuple[str, int], ...] = tuple(parts)
        self._at: dict[str, slice] = {}
        offset = 0
        for name, length in self.parts:
            if name in self._at or length < 0:
                raise ValueError(f"segment {name!r}: names are unique and sizes at least 0")
            self._at[name] = slice(offset, offset + length)
            offset += length
        self.size: int = offset

    def slice(self, name: str) -> slice:
        """Where the segment ``name`` lies in the flat observation."""
        return self._at[name]

    def zeros(self) -> npt.NDArray[np.float32]:
        """A new observation of zeros."""
        import numpy as np

        return np.zeros(self.size, dtype=np.float32)

    def layout(self) -> list[tuple[str, int, int]]:
        """Every segment as (name, offset, size), in order."""
        return [(name, self._at[name].start, length) for name, length in self.parts]

    def bounds(self, ranges: Mapping[str, tuple[Any, Any]]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The ``(low, high)`` arrays of an encoder's ``observation_bounds``, from each segment's range.

        ``ranges[name]`` is ``(low, high)``, each a number or an array of the segment's size; every
        segment must be named (a ValueError names the first one missing).
        """
        import numpy as np

        low, high = np.empty(self.size, np.float32), np.empty(self.size, np.float32)
        for name, _ in self.parts:
            if name not in ranges:
                raise ValueError(f"segment {name!r} has no range")
            low[self._at[name]], high[self._at[name]] = ranges[name]
        return low, high


class Game(Protocol):
    """What these functions read of a game (``core.game.Game``, named here without importing it: no import circle)."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def parts(self) -> Parts: ...
    def check_players(self, players: int) -> None: ...
    def resolve_options(self, players: int, options: Mapping[str, Any] | None) -> dict[str, Any]: ...


class State(Protocol):
    """What these functions read of a position (``core.game.State``)."""

    @property
    def game(self) -> Game: ...
    @property
    def players(self) -> int: ...
    @property
    def options(self) -> Mapping[str, Any]: ...
    def legal_actions(self) -> list[Any]: ...
    def _legal_kept(self) -> list[Any]: ...
    def view(self, seat: int | None = None) -> dict[str, Any]: ...
    def full_view(self) -> dict[str, Any]: ...


def learning_part(game: Game) -> Learning:
    """The game's declared ``learning`` part; a ContractError naming the game when it declares none."""
    part = game.parts.learning
    if part is None:
        raise ContractError(
            game.id,
            "learning",
            f"{game.title} offers no encoding for learning agents (no parts.learning): "
            "no action space, masks or observation tensors (docs/learning.md)",
        )
    return part


_ENCODERS: OrderedDict[tuple[str, int, str], Encoder] = OrderedDict()
_BY_OPTIONS: OrderedDict[tuple[int, int], tuple[Mapping[str, Any], Encoder]] = OrderedDict()


def _options_key(options: Mapping[str, Any]) -> str:
    import json

    return json.dumps(dict(options), sort_keys=True, default=repr)


def encoder_for(game: Game, players: int, options: Mapping[str, Any] | None = None) -> Encoder:
    """The game's encoder for ``players`` and ``options`` (defaults filled in and checked), cached per configuration."""
    part = learning_part(game)
    game.check_players(players)
    resolved = game.resolve_options(players, options)
    key = (game.id, players, _options_key(resolved))
    found = _ENCODERS.get(key)
    if found is None:
        found = part.encoder(players, resolved)
        _ENCODERS[key] = found
        if len(_ENCODERS) > _CACHE_SIZE:
            _ENCODERS.popitem(last=False)
    return found


def _state_encoder(state: State) -> Encoder:
    """The encoder of ``state``'s configuration: found by the identity of its options (shared by its copies)."""
    key = (id(state.options), state.players)
    entry = _BY_OPTIONS.get(key)
    if entry is not None and entry[0] is state.options:
        return entry[1]
    encoder = encoder_for(state.game, state.players, state.options)
    _BY_OPTIONS[key] = (state.options, encoder)
    if len(_BY_OPTIONS) > _CACHE_SIZE:
        _BY_OPTIONS.popitem(last=False)
    return encoder


def state_action_space(state: State) -> ActionSpace:
    """The action space of ``state``'s configuration."""
    return _state_encoder(state).actions


def legal_action_mask(state: State) -> npt.NDArray[np.bool_]:
    """A bool array of the action space's size: True exactly at the indices of ``state``'s legal actions."""
    import numpy as np

    space = _state_encoder(state).actions
    mask_of = getattr(space, "mask_of", None)
    if mask_of is not None:
        return mask_of(state._legal_kept())  # type: ignore[no-any-return]
    mask = np.zeros(space.size, dtype=np.bool_)
    index = space.index
    for action in state.legal_actions():
        try:
            mask[index(action)] = True
        except ValueError as exc:
            raise ContractError(state.game.id, "learning", f"a legal action has no index: {exc}") from None
    return mask


def observation_tensor(state: State, seat: int) -> npt.NDArray[np.float32]:
    """``seat``'s observation: the encoder's reading of ``state.view(seat)`` alone (float32, fixed shape)."""
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise ValueError(f"seat {short(repr(seat))} is not a seat of this {state.players}-player game")
    encoder = _state_encoder(state)
    return _checked(state, encoder.observe(state.view(seat), seat), encoder.observation_shape, "observe")


def global_tensor(state: State) -> npt.NDArray[np.float32]:
    """The whole position for a centralised critic: the encoder's reading of ``state.full_view()`` (hidden parts included)."""
    encoder = _state_encoder(state)
    return _checked(state, encoder.observe_global(state.full_view()), encoder.global_shape, "observe_global")


def is_out(state: State, seat: int) -> bool:
    """Whether ``seat`` takes no more part (the game's ``learning.is_out``; False for a game without one, or without the part)."""
    part = state.game.parts.learning
    return False if part is None or part.is_out is None else bool(part.is_out(state, seat))


def _checked(state: State, array: Any, shape: tuple[int, ...], what: str) -> npt.NDArray[np.float32]:
    import numpy as np

    if not isinstance(array, np.ndarray) or array.dtype != np.float32 or array.shape != tuple(shape):
        got = f"{getattr(array, 'dtype', type(array).__name__)} {getattr(array, 'shape', '')}"
        raise ContractError(state.game.id, f"learning.{what}", f"expected a float32 array of shape {tuple(shape)}, got {got}")
    return array
