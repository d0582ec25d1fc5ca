"""Monte Carlo tree search players: UCT (``mcts``) and information-set MCTS (``ismcts``).

Both build a tree of actions from the position to move and repeat four steps
for a budget of iterations or seconds:

1. *select*: from the root, follow the child with the best UCT score
   ``mean + c * sqrt(ln(N) / n)`` while every legal action has a child;
2. *expand*: add one untried action, chosen at random (``expand=random``), or
   the one whose position the mover's evaluation scores best, one step ahead
   (``expand=greedy``: the first reply the search meets at an opponent's turn
   is that opponent's best answer, so a small budget still reads a position
   two moves deep, as a game where each move answers a visible one needs);
3. *roll out*: play random actions (``rollout=random``) or the greedy action
   with probability ``1 - epsilon`` (``rollout=heuristic``) until the game
   ends or ``depth`` actions were played (heuristic rollouts: 8 unless told;
   ``depth=0`` scores the new leaf at once); a cut-off position is scored with
   the game's ``evaluate`` for every seat;
4. *back up*: each node adds the value of the seat that chose the action
   leading to it (max^n for several players; cooperative games share one
   value, so the same search plays every seat of the team).

The move played is the root's most visited action. With ``spread`` (0 by default) the player varies its
play: it draws its move, from its own seeded generator, among the root's actions visited at least ``1 - spread``
times as often as the most visited one. Visits, not mean values, say which moves the search could not tell apart:
they are what the search chose to spend its budget on, on every game's scale of evaluation alike, and a move the
search found clearly worse is visited too little to be drawn. ``spread=0`` keeps the most visited move and draws
no number, so a seeded game plays as without the option; a search that draws no other number (``depth=0``,
``expand=greedy`` in a game with neither secrets nor chance) plays one game per seating without a spread, and a
different one for every seed with it.

Secrets and chance. In a game with hidden information or chance after setup,
searching the real state would read other hands and the coming draws. Unless
built with ``perfect_information=True``, the players start every iteration
from a fresh ``state.determinize(seat, rng)``: a world re-sampled from what the
acting seat can see. Because worlds differ, a node's legal actions differ from
visit to visit, so children are kept by action and only the children legal in
the current world compete. ``mcts`` scores them with the parent's visit count
(determinized UCT on one shared tree); ``ismcts`` is single-observer
information-set MCTS (Cowling, Powley and Whitehouse 2012): a child counts how
often it was *available* and uses that count in place of the parent's visits,
which keeps rarely-legal actions from being over-explored.

In a game with neither secrets nor chance the tree holds untried actions as a
list and children in a list, the fastest form; this is the form measured
against OpenSpiel in ``benchmarks/run.py``. Its inner loop is in
``agents/tree.py``, a module the compiled build turns into C; the players,
whose options ``make_agent`` reads from their signatures, stay here.

One world a move. With ``worlds=one`` a search in a game with secrets or chance re-samples one world for the
move and searches it as a tree of positions, the fast form, instead of a fresh world every iteration (``each``, the
default). It never reads the real secrets or draws, but it plans as if the world it drew were the real one, so it
suits a game whose only secret is a rare draw (Orbital Combat's ``turn_order = rolled``, one draw a round); with a
guide the search keeps its fresh worlds. In a game with neither secrets nor chance the option changes nothing.

A guide. With ``guide=SPEC`` (any player, such as a game's scripted planner)
the search asks that player for its move once, at the root, expands that
action first and adds *progressive bias* to its score, ``bias / (n + 1)`` for
its ``n`` visits (Chaslot et al. 2008, "Progressive strategies for Monte-Carlo
tree search"): the guide's move is searched first and longest, and the search
plays another only when that one's mean value overtakes it as the bonus fades
with the visits. A search whose evaluation misjudges the position (it cannot
see the blow the opponent will strike next turn) then keeps the guide's plan
unless the position clearly says otherwise. The default, ``guide=auto``, is
the game's own guide where it declares one (``parts.guide``), else none;
``guide=none`` searches unguided. A guided search keeps its children by
action, as over re-sampled worlds, also in a game with neither secrets nor
chance (where its one world is a copy of the position).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from enum import StrEnum
from functools import partial
from typing import Any

from astrarium.agents.base import Agent, make_agent
from astrarium.agents.search import (
    advance,
    check_budget,
    check_flag,
    check_number,
    check_whole,
    legal_match_of,
    must_sample,
    random_playout,
    sampled_copy,
    seat_to_act,
    values_for_all,
)
from astrarium.agents.tree import UNLIMITED, Node, back_up, search_fixed, search_sampled, uct_pick, uct_pick_available
from astrarium.core.errors import short
from astrarium.core.game import State


class Expand(StrEnum):
    """Which untried action a node adds first."""

    RANDOM = "random"
    GREEDY = "greedy"


class Rollout(StrEnum):
    """How a simulation plays on from the new leaf."""

    RANDOM = "random"
    HEURISTIC = "heuristic"


#: Heuristic rollouts look one step ahead at every step, so they stop here unless told otherwise.
HEURISTIC_DEPTH = 8
#: The largest rollout depth, exploration constant and guide's bias accepted (beyond them a search only wastes time).
MAX_DEPTH = 100_000
MAX_C = 100.0
MAX_BIAS = 1000.0
#: The guide's bias by default. Chosen in Connected Worlds, the one game with a guide of its own: a smaller bias leaves
#: the guide's plan more often, and those departures favour the first seat in mirror games; from this bias on both seats
#: are even and the scripted rusher wins no more (see docs/balance/connected-worlds.md, "The guided search", "The bias").
DEFAULT_BIAS = 20.0
#: The values of ``guide`` that name no player.
AUTO, NONE = "auto", "none"
#: The values of ``worlds``: a fresh re-sampled world every iteration, or one world a move (see the module docstring).
EACH, ONE = "each", "one"


#: A selection rule: given the children legal in this world (each visited at least once) and their parent's visit
#: count, the child a simulation descends to. The search is given its rules (:meth:`MCTSAgent.selection_rule`,
#: :meth:`MCTSAgent.guided_rule`), so that each is one small function of its own.
SelectionRule = Callable[[list[Node], int], Node]


def plain_uct(children: list[Node], parent_visits: int, *, c: float, availability: bool) -> Node:
    """Plain UCT, ``mean + c * sqrt(ln(N) / n)`` (ties: the first). ``N`` is the parent's visits, or with
    ``availability`` (information sets) how often the child was available, so rarely-legal actions are not
    over-explored."""
    if not availability:
        return uct_pick(children, parent_visits, c)
    return uct_pick_available(children, c)


def rescaled_uct(children: list[Node], parent_visits: int, *, c: float, availability: bool) -> Node:
    """UCT on the mean values rescaled to [0, 1] among the siblings (``normalize``): robust to the scale of the
    game's evaluation, which the exploration constant ``c`` would otherwise have to match."""
    return biased_uct(children, parent_visits, rescaled_means(children), c, availability, None, 0.0)


def progressive_bias(
    children: list[Node],
    parent_visits: int,
    *,
    favoured: Callable[[], Node | None],
    normalize: bool,
    c: float,
    availability: bool,
    bias: float,
) -> Node:
    """UCT plus the progressive bias ``bias / (n + 1)`` of the guide's move, the node ``favoured()`` returns (None
    until it is expanded): the guide's move is searched first and longest (see the module docstring, "A guide")."""
    means = rescaled_means(children) if normalize else plain_means(children)
    return biased_uct(children, parent_visits, means, c, availability, favoured(), bias)


def plain_means(children: list[Node]) -> list[float]:
    """Each child's mean value."""
    return [child.total / child.visits for child in children]


def rescaled_means(children: list[Node]) -> list[float]:
    """Each child's mean value rescaled to [0, 1] among its siblings (all 0.5 when they are level)."""
    means = plain_means(children)
    low, high = min(means), max(means)
    span = high - low
    return [(m - low) / span if span > 0 else 0.5 for m in means]


def biased_uct(
    children: list[Node], parent_visits: int, means: list[float], c: float, availability: bool, guided: Node | None, bias: float
) -> Node:
    """The child with the best ``mean + c * sqrt(ln(N) / n)``, the child ``guided`` with ``bias / (n + 1)`` more
    (``N``: as in :func:`plain_uct`; ties: the first)."""
    log, sqrt = math.log, math.sqrt
    best, best_score = children[0], -math.inf
    for child, mean in zip(children, means, strict=True):
        visits = child.avail if availability else parent_visits
        score = mean + c * sqrt(log(visits) / child.visits)
        if child is guided:
            score += bias / (child.visits + 1)
        if score > best_score:
            best, best_score = child, score
    return best


class MCTSAgent:
    """UCT search (see the module docstring). Options are keyword-only, as given in a seat spec."""

    name = "mcts"
    information_sets = False

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = 1.4,
        rollout: Rollout | str = Rollout.RANDOM,
        depth: int | None = None,
        epsilon: float = 0.2,
        normalize: bool = False,
        perfect_information: bool = False,
        expand: Expand | str = Expand.RANDOM,
        guide: str = AUTO,
        bias: float = DEFAULT_BIAS,
        spread: float = 0.0,
        worlds: str = EACH,
    ) -> None:
        self.iterations, self.seconds = check_budget(iterations, seconds)
        if worlds not in (EACH, ONE):
            raise ValueError(f"worlds must be {EACH} or {ONE}, not {short(repr(worlds), 40)}")
        if worlds == ONE and self.information_sets:
            raise ValueError("worlds=one is an mcts option: ismcts searches a fresh world every iteration")
        self.one_world = worlds == ONE
        if not isinstance(expand, str) or expand not in set(Expand):
            raise ValueError(f"expand must be one of {', '.join(Expand)}, not {short(repr(expand), 40)}")
        self.greedy_expand = Expand(expand) is Expand.GREEDY
        if not isinstance(rollout, str) or rollout not in set(Rollout):
            raise ValueError(f"rollout must be one of {', '.join(Rollout)}, not {short(repr(rollout), 40)}")
        self.rollout = Rollout(rollout)
        self.depth = None if depth is None else check_whole("depth", depth, 0, MAX_DEPTH)
        if self.depth is None and self.rollout is Rollout.HEURISTIC:
            self.depth = HEURISTIC_DEPTH
        self.c = check_number("c", c, 0.0, MAX_C)
        self.epsilon = check_number("epsilon", epsilon, 0.0, 1.0)
        self.normalize = check_flag("normalize", normalize)
        self.perfect_information = check_flag("perfect_information", perfect_information)
        self.bias = check_number("bias", bias, 0.0, MAX_BIAS)
        self.spread = check_number("spread", spread, 0.0, 1.0, below_high=True)  # at 1 every visited move could be drawn
        if not isinstance(guide, str):
            raise ValueError(f"guide must be auto, none or a player such as greedy or cw-general, not {short(repr(guide), 40)}")
        self.guide_spec = guide
        self.seed = seed
        # a named guide is built here so that a bad spec is refused before play, with the registry's own message;
        # ``auto`` is built for the game of the first position searched
        self._guides: dict[str, Agent | None] = {}
        self._guide: Agent | None = None if guide in (AUTO, NONE) else make_agent(guide, seed)
        self.rand = random.Random(seed)
        #: Statistics of the last search: iterations run, seconds taken, root visits per action.
        self.last_iterations = 0
        self.last_seconds = 0.0
        self.last_visits: dict[str, int] = {}

    # -- the protocol --------------------------------------------------------
    def choose(self, state: State) -> Any:
        legal = state.legal_actions()
        if not legal:
            raise ValueError(f"the game is over; there is nothing to choose in {state!r}")
        if len(legal) == 1:
            self.last_iterations, self.last_seconds, self.last_visits = 0, 0.0, {str(legal[0]): 0}
            return legal[0]
        root = self.search(state)
        return self.best_action(root, legal)

    def search(self, state: State) -> Node:
        """Run the search from ``state`` within the budget; return the root node."""
        seat = seat_to_act(state)
        root = Node(None, -1)
        started = time.perf_counter()
        sample = must_sample(state, self.perfect_information)
        guided = self.guide_for(state) is not None
        if sample and self.one_world and not guided:
            # ``worlds=one``: one world re-sampled for the move, searched as a tree of positions.
            count = self._search_fixed(sampled_copy(state, seat, self.rand), root, started)
        elif sample or guided:
            count = self._search_sampled(state, root, seat, started, sample)
        else:
            # Nothing hidden and nothing left to chance: the information sets are the positions.
            count = self._search_fixed(state, root, started)
        self.last_iterations = count
        self.last_seconds = time.perf_counter() - started
        return root

    def best_action(self, root: Node, legal: list[Any]) -> Any:
        """The most visited legal action at the root (ties: the higher mean value, then the first); with a
        ``spread``, one drawn from the player's generator among those visited at least ``1 - spread`` times as
        often (see the module docstring)."""
        children = root.children or ()
        by_action = children.values() if isinstance(children, dict) else children
        visits = {child.action: child for child in by_action}
        self.last_visits = {str(a): visits[a].visits for a in legal if a in visits}
        best, best_key = legal[0], (-1, -math.inf)
        for action in legal:
            child = visits.get(action)
            if child is None:
                continue
            key = (child.visits, child.total / child.visits if child.visits else -math.inf)
            if key > best_key:
                best, best_key = action, key
        if self.spread == 0.0 or best_key[0] <= 0:
            return best
        floor = (1.0 - self.spread) * best_key[0]
        near = [a for a in legal if a in visits and visits[a].visits >= floor]
        return near[int(self.rand.random() * len(near))] if len(near) > 1 else best

    def guide_for(self, state: State) -> Agent | None:
        """The player guiding the search in ``state``'s game (see the module docstring, "A guide"), or None."""
        if self.guide_spec != AUTO:
            return self._guide
        game = state.game.id
        if game not in self._guides:
            spec = state.game.parts.guide
            self._guides[game] = None if spec is None else make_agent(spec, self.seed, game)
        return self._guides[game]

    # -- perfect information: one tree of positions -----------------------------
    def _search_fixed(self, state: State, root: Node, started: float) -> int:
        limit, deadline = self._limits(started)
        budget = UNLIMITED if limit == math.inf else int(limit)
        return search_fixed(state, root, self.rand.random, self.c, budget, deadline, self.depth, self)

    # -- secrets or chance (or a guide): a tree of actions over re-sampled worlds --
    def _search_sampled(self, state: State, root: Node, seat: int, started: float, sample: bool = True) -> int:
        limit, deadline = self._limits(started)
        guide = self.guide_for(state)
        if guide is None and not self.normalize:  # the plain search: its loop in agents/tree.py (compiled in that build)
            budget = UNLIMITED if limit == math.inf else int(limit)
            rand = self.rand
            return search_sampled(state, root, seat, rand.random, rand.getrandbits, self.c, budget, deadline, self.depth, sample, self)
        count = 0
        root.children = {}
        guided: Any = None
        rule = self.selection_rule()
        root_rule = rule
        while count < limit:
            if deadline is not None and time.perf_counter() >= deadline:  # every simulation: one long rollout can overrun the budget
                break
            count += 1
            world = sampled_copy(state, seat, self.rand) if sample else state.clone()
            if guide is not None and guided is None:
                # The guide's move, as the real legal list's own object (see the module docstring, "A guide"). It is
                # asked on the first world, as the search sees the position: a player reads what its seat can see,
                # which every re-sampled world keeps.
                guided = legal_match_of(state, guide.choose(world.clone()), str(guide.name))
                root_rule = self.guided_rule(root, guided)
            path = self._descend(world, root, root_rule, rule, guided)
            back_up(path, self._rollout(world))
        return count

    def selection_rule(self) -> SelectionRule:
        """The rule that picks a child below the root (and at it, unguided): plain UCT, or UCT on rescaled means
        with ``normalize``; with information sets each child's availability stands in for its parent's visits."""
        chosen = rescaled_uct if self.normalize else plain_uct
        return partial(chosen, c=self.c, availability=self.information_sets)

    def guided_rule(self, root: Node, guided: Any) -> SelectionRule:
        """The rule at the root of a guided search: :func:`progressive_bias` towards the guide's move ``guided``."""
        children: dict[Any, Node] = root.children
        return partial(
            progressive_bias,
            favoured=partial(children.get, guided),
            normalize=self.normalize,
            c=self.c,
            availability=self.information_sets,
            bias=self.bias,
        )

    def _descend(self, world: State, root: Node, root_rule: SelectionRule, rule: SelectionRule, guided: Any) -> list[Node]:
        """One simulation's way down the tree in ``world``: select among the children legal in this world, with
        ``root_rule`` at the root and ``rule`` below it, until a node has an untried action, which is expanded.
        Returns the path from the root, for the back-up; ``world`` is left where the rollout starts."""
        availability = self.information_sets
        node = root
        path = [root]
        while not world.is_over:
            legal = world.legal_actions()
            children = node.children
            if children is None:
                children = node.children = {}
            untried = [a for a in legal if a not in children]
            if untried:
                path.append(self._expand(world, children, legal, untried, guided if node is root else None))
                break
            siblings = [children[a] for a in legal]
            if availability:
                for child in siblings:
                    child.avail += 1
            node = (root_rule if node is root else rule)(siblings, node.visits)
            advance(world, node.action)
            path.append(node)
        return path

    def _expand(self, world: State, children: dict[Any, Node], legal: list[Any], untried: list[Any], guided: Any) -> Node:
        """Add the child of one untried action and play it in ``world``: the guide's move ``guided`` first, else the
        best one step ahead (``expand=greedy``), else one at random. With information sets, the siblings legal in
        this world count one more time available."""
        if guided is not None and guided in untried:
            action = guided
        elif self.greedy_expand and len(untried) > 1:
            action = self._worst_first(world, untried)[-1]
        else:
            action = untried[int(self.rand.random() * len(untried))]
        child = Node(action, seat_to_act(world))
        children[action] = child
        if self.information_sets:
            for a in legal:
                other = children.get(a)
                if other is not None and other is not child:
                    other.avail += 1
        advance(world, action)
        return child

    def _pick_scored(self, children: list[Node], parent_visits: int, availability: bool, guided: Node | None = None) -> Node:
        """UCT with what the plain loop leaves out (the one-tree search's rule with ``normalize``): the means rescaled
        with ``normalize``, and the progressive bias of the guide's move ``guided``."""
        means = rescaled_means(children) if self.normalize else plain_means(children)
        return biased_uct(children, parent_visits, means, self.c, availability, guided, self.bias)

    # -- rollouts ----------------------------------------------------------------
    def _rollout(self, world: State) -> list[float]:
        depth = self.depth
        if self.rollout is Rollout.RANDOM:
            random_playout(world, self.rand.random, depth)
            return values_for_all(world)
        played = 0
        while (depth is None or played < depth) and not world.is_over:
            advance(world, self._heuristic_step(world))
            played += 1
        return values_for_all(world)

    def _heuristic_step(self, world: State) -> Any:
        """Epsilon-greedy on the game's evaluation, one step ahead (the world is already re-sampled)."""
        legal = world.legal_actions()
        if len(legal) == 1 or self.rand.random() < self.epsilon:
            return legal[int(self.rand.random() * len(legal))]
        seat = seat_to_act(world)
        best, best_value = legal[0], -math.inf
        for action in legal:
            after = world.clone()
            advance(after, action)
            value = after.returns()[seat] if after.is_over else after.evaluate(seat)
            if value > best_value:
                best, best_value = action, value
        return best

    def _worst_first(self, world: State, actions: list[Any]) -> list[Any]:
        """``actions`` ordered by the mover's evaluation one step ahead, worst first (ties: the legal order)."""
        seat = seat_to_act(world)
        scored = []
        for index, action in enumerate(actions):
            after = world.clone()
            advance(after, action)
            value = after.returns()[seat] if after.is_over else after.evaluate(seat)
            scored.append((value, -index, action))
        scored.sort(key=lambda item: (item[0], item[1]))
        return [action for _, _, action in scored]

    def _limits(self, started: float) -> tuple[float, float | None]:
        limit = self.iterations if self.iterations is not None else math.inf
        deadline = started + self.seconds if self.seconds is not None else None
        return limit, deadline


class ISMCTSAgent(MCTSAgent):
    """Single-observer information-set MCTS: UCT with availability counts over re-sampled worlds."""

    name = "ismcts"
    information_sets = True
