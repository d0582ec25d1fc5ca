"""The inner loops of UCT: selection, expansion, random rollout and back-up.

``agents/mcts.py`` keeps the players themselves (their options and checks,
and the rarer forms of the search: a guide's progressive bias, rescaled
means); the loops that run for every simulation live here, in a module small
and plainly typed enough for the compiled build to turn into C: :class:`Node`
has typed fields (native slots once compiled), each loop is one function
without closures, and it calls the state's own methods directly rather than
through bound-method objects. :func:`search_fixed` is the search of a game
with neither secrets nor chance (one tree of positions), :func:`search_sampled`
the search over re-sampled worlds (one tree of actions, children kept by
action). It works the same on every state, compiled or
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
from astrarium.core.rng import Rng

#: A simulation budget no search reaches (a search bounded by time only); small enough for a native integer.
UNLIMITED = 1 << 60


class Node:
    """One action in the tree: who chose it, how often it was visited, the chooser's total value.

    ``mover`` is the seat that chose ``action``; the root, which no one chose,
    has ``-1``. ``children`` is a list (one tree of positions) or a dict by
    action (re-sampled worlds, where a node's legal actions vary); ``untried``
    holds the actions of a position not yet expanded (one tree of positions only).
    Over re-sampled worlds, ``seen`` and ``seen_nodes`` remember the legal actions
    of the last world that reached the node and the child of each (None: none yet),
    found while ``children`` had ``seen_count`` entries (:func:`known_children`).
    """

    __slots__ = ("action", "mover", "visits", "total", "avail", "children", "untried", "seen", "seen_nodes", "seen_count")

    def __init__(self, action: Any, mover: int) -> None:
        self.action: Any = action
        self.mover: int = mover
        self.visits: int = 0
        self.total: float = 0.0
        self.avail: int = 1
        self.children: Any = None
        self.untried: list[Any] | None = None
        self.seen: list[Any] | None = None
        self.seen_nodes: list[Node | None] | None = None
        self.seen_count: int = 0


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


def uct_pick_available(children: list[Node], c: float) -> Node:
    """UCT with each child's availability in place of its parent's visits (information sets): the child with the best
    ``mean + c * sqrt(ln(available) / n)``, so that rarely-legal actions are not over-explored (ties: the first)."""
    best = children[0]
    best_score = -math.inf
    for child in children:
        n = child.visits
        score = child.total / n + c * math.sqrt(math.log(child.avail * 1.0) / n)
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


def search_sampled(
    state: State,
    root: Node,
    seat: int,
    rand: Callable[[], float],
    bits: Callable[[int], int],
    c: float,
    limit: int,
    deadline: float | None,
    depth: int | None,
    sample: bool,
    agent: Any,
) -> int:
    """UCT over re-sampled worlds from ``state`` for ``limit`` simulations or until ``deadline``; the simulations run.

    Each simulation starts from ``state.determinize(seat, Rng(bits(64)))``
    (``sample``; else a copy of ``state``), descends by :func:`descend_sampled`
    and rolls out at random (or by ``agent._rollout`` when its rollouts are
    heuristic). ``agent.information_sets`` selects by availability (ISMCTS);
    ``agent.greedy_expand`` orders the untried actions by ``agent._worst_first``.
    The players with a guide or rescaled means search in ``agents/mcts.py``.
    """
    availability: bool = agent.information_sets
    greedy_expand: bool = agent.greedy_expand
    random_rollout: bool = agent.rollout == "random"
    root.children = {}
    count = 0
    while count < limit:
        if deadline is not None and time.perf_counter() >= deadline:  # every simulation: one long rollout can overrun the budget
            break
        count += 1
        world = state.determinize(seat, Rng(bits(64))) if sample else state.clone()
        path = descend_sampled(world, root, rand, c, availability, greedy_expand, agent)
        if random_rollout:
            values = playout_values(world, rand, depth)
        else:
            values = agent._rollout(world)
        back_up(path, values)
    return count


def known_children(node: Node, children: dict[Any, Node], legal: list[Any]) -> list[Node | None]:
    """The child of ``node`` for each action of ``legal`` (None: not expanded yet), in the legal order.

    Finding a child by its action hashes the action, a Python method for most
    games' actions. Where a game hands out the same action objects in every world
    (the actions of a position made once and shared), the legal list of the last
    world that reached ``node`` usually comes back object for object: its answer
    is kept, and only the actions without a child are looked up again, and only if
    children were added since. The answer is the same as looking every action up:
    a child, once found for an action, stays that action's child.
    """
    seen = node.seen
    nodes = node.seen_nodes
    n = len(legal)
    same = seen is not None and nodes is not None and len(seen) == n
    if same:
        assert seen is not None
        for i in range(n):
            if seen[i] is not legal[i]:
                same = False
                break
    if not same or nodes is None:
        nodes = [children.get(a) for a in legal]
        node.seen = legal
        node.seen_nodes = nodes
        node.seen_count = len(children)
    elif node.seen_count != len(children):
        for i in range(n):
            if nodes[i] is None:
                nodes[i] = children.get(legal[i])
        node.seen_count = len(children)
    return nodes


def descend_sampled(
    world: State, root: Node, rand: Callable[[], float], c: float, availability: bool, greedy_expand: bool, agent: Any
) -> list[Node]:
    """One simulation's way down the tree of actions in ``world``: select among the children legal in this world until
    a node has an untried action, add that action's child and play it. Returns the path from the root; ``world`` is
    left where the rollout starts. With ``availability`` the children legal in this world count one more time available."""
    node = root
    path = [root]
    while not world.is_over:
        legal = world.legal_actions()
        children: dict[Any, Node] | None = node.children
        if children is None:
            children = {}
            node.children = children
        nodes = known_children(node, children, legal)
        untried: list[Any] = []
        siblings: list[Node] = []
        for i in range(len(legal)):
            known = nodes[i]
            if known is None:
                untried.append(legal[i])
            else:
                siblings.append(known)
        if untried:
            if greedy_expand and len(untried) > 1:
                action = agent._worst_first(world, untried)[-1]
            else:
                action = untried[int(rand() * len(untried))]
            mover = world.current_player
            assert mover is not None  # the game goes on
            child = Node(action, mover)
            children[action] = child
            if availability:
                for other in siblings:
                    other.avail += 1
            world.apply_unchecked(action)
            path.append(child)
            break
        if availability:
            for sibling in siblings:
                sibling.avail += 1
            node = uct_pick_available(siblings, c)
        else:
            node = uct_pick(siblings, node.visits, c)
        world.apply_unchecked(node.action)
        path.append(node)
    return path
