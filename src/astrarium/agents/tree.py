"""The inner loop of UCT on one tree of positions: selection, expansion, random rollout and back-up.

``agents/mcts.py`` keeps the players themselves (their options, checks and
the searches over re-sampled worlds); the loop that runs for every simulation
of a game with neither secrets nor chance lives here, in a module small and
plainly typed enough for the compiled build to turn into C: :class:`Node` has
typed fields (native slots once compiled), the loop is one function without
closures, and it calls the state's own methods directly rather than through
bound-method objects. It works the same on every state, compiled or
interpreted (tests play it on toy games written in Python), and draws the
random numbers in the same order as before, so a player seeded alike chooses
the same moves in either build.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from astrarium.core.game import State

#: A simulation budget no search reaches (a search bounded by time only); small enough for a native integer.
UNLIMITED = 1 << 60


class Node:
    """One action in the tree: who chose it, how often it was visited, the chooser's total value.

    ``mover`` is the seat that chose ``action``; the root, which no one chose,
    has ``-1``. ``children`` is a list (one tree of positions) or a dict by
    action (re-sampled worlds, where a node's legal actions vary); ``untried``
    holds the actions of a position not yet expanded (one tree of positions only).
    """

    __slots__ = ("action", "mover", "visits", "total", "avail", "children", "untried")

    def __init__(self, action: Any, mover: int) -> None:
        self.action: Any = action
        self.mover: int = mover
        self.visits: int = 0
        self.total: float = 0.0
        self.avail: int = 1
        self.children: Any = None
        self.untried: list[Any] | None = None


def uct_pick(children: list[Node], parent_visits: int, c: float) -> Node:
    """The child with the best UCT score ``mean + c * sqrt(ln(N) / n)`` (every child visited at least once; ties: the first)."""
    # The counts are turned into floats (``* 1.0``, exact below 2**53) before log and sqrt: compiled, log and sqrt of a
    # float are C calls, of an int calls into Python; the values are the same, as Python's math converts an int first.
    scale = c * math.sqrt(math.log(parent_visits * 1.0))
    best = children[0]
    best_score = -math.inf
    for child in children:
        n = child.visits
        score = child.total / n + scale / math.sqrt(n * 1.0)
        if score > best_score:
            best, best_score = child, score
    return best


def back_up(path: list[Node], values: list[float]) -> None:
    """Add one visit to every node on the path, and the value of the seat that chose each node's action."""
    for node in path:
        node.visits += 1
        mover = node.mover
        if mover >= 0:
            node.total += values[mover]


def playout_values(world: State, rand: Callable[[], float], depth: int | None) -> list[float]:
    """A random rollout from ``world`` (``State.random_playout``), then one value per seat: the returns, or each seat's evaluation."""
    world.random_playout(rand, depth)
    if world.is_over:
        return world.returns()
    return [world.evaluate(seat) for seat in range(world.players)]


def search_fixed(
    state: State,
    root: Node,
    rand: Callable[[], float],
    c: float,
    limit: int,
    deadline: float | None,
    depth: int | None,
    agent: Any,
) -> int:
    """UCT on one tree of positions from ``state`` for ``limit`` simulations or until ``deadline``; the simulations run.

    Rollouts are random unless ``agent.rollout`` is heuristic; ``agent``
    supplies the rarer variants (``normalize``, ``expand=greedy``, heuristic
    rollouts), which stay in ``agents/mcts.py``. A node expanded once keeps its
    untried actions and its children, so a position already expanded never asks
    the state for its legal actions again.
    """
    normalize: bool = agent.normalize
    greedy_expand: bool = agent.greedy_expand
    random_rollout: bool = agent.rollout == "random"
    count = 0
    while count < limit:
        if deadline is not None and time.perf_counter() >= deadline:  # every simulation: one long rollout can overrun the budget
            break
        count += 1
        world = state.clone()
        node = root
        path = [root]
        while not world.is_over:
            untried = node.untried
            if untried is None:
                untried = world.legal_actions()
                if greedy_expand and len(untried) > 1:
                    untried = agent._worst_first(world, untried)
                node.untried = untried
                node.children = []
            children: list[Node] = node.children
            if untried:
                if greedy_expand:
                    action = untried.pop()
                else:
                    i = int(rand() * len(untried))
                    action = untried[i]
                    untried[i] = untried[-1]
                    untried.pop()
                mover = world.current_player
                assert mover is not None  # the game goes on
                child = Node(action, mover)
                children.append(child)
                world.apply_unchecked(action)
                path.append(child)
                break
            if normalize:
                best: Node = agent._pick_scored(children, node.visits, False)
            else:
                best = uct_pick(children, node.visits, c)
            world.apply_unchecked(best.action)
            node = best
            path.append(best)
        if random_rollout:
            values = playout_values(world, rand, depth)
        else:
            values = agent._rollout(world)
        back_up(path, values)
    return count
