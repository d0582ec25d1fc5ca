"""Computer players: every kind plays legal actions in every game, sees only its seat's information, and searches sensibly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

import astrarium
from astrarium.agents import GreedyAgent, ISMCTSAgent, MCTSAgent, agent_names, make_agent
from astrarium.core import Game, Outcome, Rng, State
from astrarium.core.contract import Parts
from helpers import play_randomly

GAMES = astrarium.list_games()
TINY = {"greedy": "greedy", "mcts": "mcts:iterations=12", "ismcts": "ismcts:iterations=12", "random": "random"}


def positions(game_id: str, count: int = 3, seed: int = 5) -> list[State]:
    """A few positions of a random game (start, middle, late), none over."""
    game = astrarium.get_game(game_id)
    start = game.new_game(game.min_players, seed)
    length = play_randomly(start.clone(), seed).move_number
    found = []
    for k in range(count):
        state = start.clone()
        play_randomly(state, seed, steps=(length * k) // count)
        if not state.is_over:
            found.append(state)
    return found


# -- a tiny perfect-information game for the search tests ---------------------------
@dataclass(frozen=True, slots=True)
class Take:
    stones: int

    def __str__(self) -> str:
        return f"take {self.stones}"


class NimState(State):
    """Normal-play Nim on one heap: take 1 to 3 stones; whoever takes the last stone wins."""

    heap: int
    turn: int

    def _setup(self) -> None:
        self.heap = self.options["heap"]
        self.turn = 0

    @property
    def current_player(self) -> int | None:
        return None if self._outcome else self.turn

    def _legal_actions(self) -> list[Any]:
        return [Take(n) for n in (1, 2, 3) if n <= self.heap]

    def _apply(self, action: Take) -> None:
        self.heap -= action.stones
        if self.heap == 0:
            self._outcome = Outcome((self.turn,), f"seat {self.turn} took the last stone")
        self.turn = 1 - self.turn

    def _copy_fields(self, new: State) -> None:
        pass

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {"heap": self.heap, "turn": self.turn}

    def render(self, seat: int | None = None) -> str:
        return f"heap {self.heap}"


class NimGame(Game):
    id = "test-nim"
    title = "Nim"
    min_players = max_players = 2
    options = (astrarium.Option("heap", 9, "stones in the heap", int, minimum=1, maximum=40),)
    state_class = NimState
    parts = Parts.rules_only(hidden_or_chance=False)

    def max_moves(self, players: int, options: Any) -> int:
        return options["heap"]


NIM = NimGame()


def nim(heap: int) -> State:
    return NIM.new_game(2, 0, {"heap": heap})


# -- the protocol and specs ----------------------------------------------------------
def test_every_kind_is_registered() -> None:
    assert {"random", "greedy", "mcts", "ismcts"} <= set(agent_names())


def test_specs_carry_options_after_a_colon() -> None:
    agent = make_agent("mcts:iterations=2000,c=0.7,rollout=heuristic,depth=4", seed=3)
    assert isinstance(agent, MCTSAgent)
    assert (agent.iterations, agent.c, agent.rollout, agent.depth) == (2000, 0.7, "heuristic", 4)
    timed = make_agent("mcts:seconds=1")
    assert timed.seconds == 1.0 and timed.iterations is None  # type: ignore[attr-defined]
    assert isinstance(make_agent("ismcts:iterations=5"), ISMCTSAgent)
    assert isinstance(make_agent("greedy:samples=3"), GreedyAgent)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:iterations=0", "iterations must be"),
        ("mcts:seconds=-1", "seconds must be"),
        ("mcts:rollout=smart", "rollout must be one of"),
        ("mcts:depth=-2", "depth must be"),
        ("mcts:wisdom=3", "mcts has no option 'wisdom'; its options are iterations, seconds, c, rollout"),
        ("greedy:samples=0", "samples must be"),
    ],
)
def test_bad_agent_options_are_refused_by_name(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


# -- every kind, every game ------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(TINY))
@pytest.mark.parametrize("game_id", GAMES)
def test_every_agent_plays_legal_actions_in_every_game(game_id: str, kind: str) -> None:
    for state in positions(game_id):
        before = state.full_view()
        agent = make_agent(TINY[kind], seed=1)
        action = agent.choose(state)
        assert action in state.legal_actions(), f"{kind} chose {action} in {state!r}"
        assert state.full_view() == before, f"{kind} changed the position it was shown"


@pytest.mark.parametrize("kind", ["greedy", "mcts", "ismcts"])
@pytest.mark.parametrize("game_id", GAMES)
def test_the_same_seed_gives_the_same_choice(game_id: str, kind: str) -> None:
    state = positions(game_id, count=2)[-1]
    first = make_agent(TINY[kind], seed=9).choose(state.clone())
    again = make_agent(TINY[kind], seed=9).choose(state.clone())
    assert first == again


@pytest.mark.parametrize("game_id", GAMES)
def test_mcts_plays_a_whole_game_against_random(game_id: str) -> None:
    game = astrarium.get_game(game_id)
    state = game.new_game(game.min_players, 3)
    agents = [make_agent("mcts:iterations=4,depth=6", seed=s) if s == 0 else make_agent("random", seed=s) for s in range(state.players)]
    while not state.is_over:
        state.apply(agents[state.current_player].choose(state))
    assert len(state.returns()) == state.players
    assert state.move_number <= game.max_moves(state.players, state.options)


# -- no peeking -----------------------------------------------------------------------
class Peeked(AssertionError):
    pass


class Guarded(State):
    """A position as an honest player may use it: ``determinize`` counted, ``clone`` forbidden.

    A stand-in that answers for the real state, rather than the real state with two methods replaced on the
    instance: in the compiled build a game's state is a native class, whose instances take no new attributes and
    whose compiled callers would not look at the instance for a method anyway. Everything a player may ask (the
    seat to move, the legal actions, views, the evaluation) is answered by the real state; nothing of the real
    state's own fields (hands, decks) is reachable through it.
    """

    def __init__(self, real: State, calls: list[int | None]) -> None:
        # Not State.__init__, which would set up a new game: the base fields are the real state's.
        self.game, self.players, self.seed, self.options = real.game, real.players, real.seed, real.options
        self.rng = real.rng.copy()
        self._actions = real.actions
        self._legal = None
        self._legal_ids = None
        self._outcome = real.outcome
        self._real = real
        self._calls = calls

    def _setup(self) -> None:
        raise AssertionError("a guarded position is never set up")

    @property
    def current_player(self) -> int | None:
        return self._real.current_player

    def _legal_actions(self) -> list[Any]:
        return self._real.legal_actions()

    def _apply(self, action: Any) -> None:
        raise Peeked("the player played on the real state instead of a copy")

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self._real.view(seat)

    def render(self, seat: int | None = None) -> str:
        return self._real.render(seat)

    def evaluate(self, seat: int) -> float:
        return self._real.evaluate(seat)

    def draws_chance(self) -> bool:
        return self._real.draws_chance()

    def determinize(self, seat: int | None, rng: Rng) -> State:
        self._calls.append(seat)
        return self._real.determinize(seat, rng)

    def clone(self) -> State:
        raise Peeked("the player copied the real state, hidden cards and future draws included")


def guarded(state: State) -> tuple[State, list[int | None]]:
    """``state`` behind a :class:`Guarded` stand-in: the only door an honest player may use, and its calls."""
    calls: list[int | None] = []
    return Guarded(state, calls), calls


SECRET_GAMES = [g for g in GAMES if astrarium.get_game(g).hidden_information or astrarium.get_game(g).chance]


@pytest.mark.parametrize("spec", ["mcts:iterations=15", "ismcts:iterations=15", "mcts:iterations=15,rollout=heuristic,depth=3"])
@pytest.mark.parametrize("game_id", SECRET_GAMES)
def test_searches_look_only_through_determinize_for_the_acting_seat(game_id: str, spec: str) -> None:
    for state in positions(game_id):
        if len(state.legal_actions()) < 2:
            continue
        seat = state.current_player
        state, calls = guarded(state)
        agent = make_agent(spec, seed=2)
        action = agent.choose(state)
        assert action in state.legal_actions()
        assert calls == [seat] * 15


def test_a_chance_option_makes_the_searches_look_through_determinize() -> None:
    """Orbital Combat draws no chance but under ``turn_order = rolled``; there the searches re-sample the draws."""
    game = astrarium.get_game("orbital-combat")
    assert not game.chance
    state = game.new_game(2, 5, {"turn_order": "rolled"})
    seat = state.current_player
    for spec, expected in [("mcts:iterations=15,depth=0", 15), ("mcts:iterations=15,depth=0,worlds=one", 1), ("greedy:samples=2", 2)]:
        guard, calls = guarded(state)
        assert make_agent(spec, seed=2).choose(guard) in state.legal_actions()
        assert calls == [seat] * expected, spec
    guard, calls = guarded(game.new_game(2, 5))
    with pytest.raises(Peeked):  # without chance a search works on copies of the real position, as it may
        make_agent("mcts:iterations=15,depth=0,worlds=one", seed=2).choose(guard)


@pytest.mark.parametrize("game_id", SECRET_GAMES)
def test_greedy_looks_only_through_determinize(game_id: str) -> None:
    for state in positions(game_id):
        if len(state.legal_actions()) < 2:
            continue
        seat = state.current_player
        state, calls = guarded(state)
        make_agent("greedy:samples=3", seed=2).choose(state)
        assert calls == [seat] * 3


@pytest.mark.parametrize("game_id", SECRET_GAMES)
def test_perfect_information_is_an_explicit_choice(game_id: str) -> None:
    state = next(s for s in positions(game_id) if len(s.legal_actions()) > 1)
    state, calls = guarded(state)
    with pytest.raises(Peeked):
        make_agent("mcts:iterations=5,perfect_information=true").choose(state)
    assert calls == []


# -- searching well ---------------------------------------------------------------------
def test_mcts_finds_the_winning_move_in_nim() -> None:
    # From 9 stones the only winning move leaves a multiple of 4: take 1.
    for spec in ("mcts:iterations=3000", "ismcts:iterations=3000", "mcts:iterations=3000,normalize=true,c=0.7"):
        assert make_agent(spec, seed=4).choose(nim(9)) == Take(1), spec
    assert make_agent("mcts:iterations=3000", seed=4).choose(nim(10)) == Take(2)


def test_greedy_takes_an_immediate_win_and_mcts_reports_its_search() -> None:
    assert make_agent("greedy", seed=1).choose(nim(3)) == Take(3)
    agent = MCTSAgent(seed=1, iterations=200)
    agent.choose(nim(7))
    assert agent.last_iterations == 200
    assert sum(agent.last_visits.values()) == 200
    assert max(agent.last_visits, key=agent.last_visits.get) == "take 3"


def test_greedy_with_epsilon_slips_to_other_moves_at_that_rate_and_never_without() -> None:
    # Nim from 3: taking 3 wins at once, the one move greedy plays; a slip is any of the three moves.
    plain = {make_agent("greedy", seed=s).choose(nim(3)) for s in range(50)}
    assert plain == {Take(3)}
    slipping = make_agent("greedy:epsilon=0.5", seed=3)
    moves = [slipping.choose(nim(3)) for _ in range(600)]
    others = sum(move != Take(3) for move in moves)
    assert {Take(1), Take(2), Take(3)} == set(moves)
    assert 140 <= others <= 260  # a slip (chance 0.5) misses the win two times in three: 200 expected


def test_greedy_expansion_tries_the_one_step_best_action_first() -> None:
    # Nim from 7: taking 3 leaves 4 (a lost position for the opponent), the best the evaluation sees one step ahead;
    # with one simulation the root has one child, and greedy expansion makes it that action.
    for kind in ("mcts", "ismcts"):
        agent = make_agent(f"{kind}:iterations=1,expand=greedy", seed=3)
        state = nim(7)
        best = max(state.legal_actions(), key=lambda a: after(state, a).evaluate(0))
        assert agent.choose(state) == best, kind
    # Random expansion is the default: over seeds it does not always start with that action.
    firsts = {make_agent("mcts:iterations=1", seed=s).choose(nim(7)) for s in range(20)}
    assert len(firsts) > 1


def test_a_guide_s_move_is_searched_first_and_kept_unless_the_search_clearly_finds_better() -> None:
    # Nim from 10: the winning move is to take 2; greedy sees no win one step ahead and takes one of the three
    # moves at random (by its seed). The guide is built with the search's seed, and its move is expanded first,
    # so one simulation plays it.
    state = nim(10)
    guided = {s: make_agent("greedy", seed=s).choose(state) for s in range(12)}
    assert {a for a in guided.values() if a != Take(2)}
    for s, action in guided.items():
        assert make_agent("mcts:iterations=1,guide=greedy", seed=s).choose(state) == action
    seed = next(s for s, a in guided.items() if a != Take(2))
    # With a large bias a losing guide's move keeps most visits on a small budget ...
    agent = make_agent("mcts:iterations=60,guide=greedy,bias=1000", seed=seed)
    assert agent.choose(state) == guided[seed]
    assert max(agent.last_visits, key=agent.last_visits.get) == str(guided[seed])
    # ... and with a small one the search leaves it once its values say so.
    for kind in ("mcts", "ismcts"):
        assert make_agent(f"{kind}:iterations=3000,guide=greedy,bias=0.5", seed=seed).choose(state) == Take(2), kind


def test_the_search_is_guided_by_the_game_s_own_planner_unless_told_none() -> None:
    # Connected Worlds declares the scripted general as its guide (parts.guide), the one game with a guide: one
    # simulation plays its move.
    assert {g: astrarium.get_game(g).parts.guide for g in GAMES if astrarium.get_game(g).parts.guide} == {"connected-worlds": "cw-general"}
    for state in positions("connected-worlds", count=6):
        for seed in range(3):
            general = make_agent("cw-general", seed=seed).choose(state.clone())
            for kind in ("mcts", "ismcts"):
                agent = make_agent(f"{kind}:iterations=1", seed=seed)
                assert agent.choose(state.clone()) == general, (kind, str(state.history[-3:]))
    # Unguided, a single simulation expands an action at random, so over seeds it does not always play the general's.
    state = positions("connected-worlds", count=1)[0]
    general = make_agent("cw-general").choose(state.clone())
    unguided = {make_agent("mcts:iterations=1,guide=none", seed=s).choose(state.clone()) for s in range(20)}
    assert unguided - {general}
    # A game without a guide searches as before: Nim has none, so guide=auto and guide=none pick alike.
    for seed in range(5):
        unguided = make_agent("mcts:iterations=50,guide=none", seed=seed).choose(nim(10))
        assert make_agent("mcts:iterations=50", seed=seed).choose(nim(10)) == unguided


def test_a_guide_written_for_another_game_is_refused_when_it_is_asked() -> None:
    agent = make_agent("mcts:iterations=5,guide=cw-general", seed=0)
    with pytest.raises(ValueError, match="connected-worlds"):
        agent.choose(nim(10))


def after(state: State, action: Any) -> State:
    copy = state.clone()
    copy.apply(action)
    return copy


def test_a_budget_in_seconds_stops_in_time() -> None:
    agent = MCTSAgent(seed=1, seconds=0.05)
    agent.choose(nim(30))
    assert agent.last_iterations > 0
    assert agent.last_seconds < 1.0


def test_a_depth_cap_scores_the_cut_off_with_the_evaluation() -> None:
    seen: list[int] = []

    class Scored(NimState):
        def evaluate(self, seat: int) -> float:
            seen.append(seat)
            return 0.0

    class ScoredNim(NimGame):
        state_class = Scored

    state = ScoredNim().new_game(2, 0, {"heap": 40})
    MCTSAgent(seed=1, iterations=20, depth=2).choose(state)
    assert seen and set(seen) == {0, 1}  # every seat is scored at every cut-off


def safe_and_losing(players: int) -> State:
    """A toy-pile position where one card pushes the pile over the target and another does not."""
    game = astrarium.get_game("toy-pile")
    for seed in range(500):
        state = game.new_game(players, seed, {"target": 12})
        while not state.is_over:
            legal = state.legal_actions()
            room = state.options["target"] - state.total  # type: ignore[attr-defined]
            if any(a.card > room for a in legal) and any(a.card <= room for a in legal):
                return state
            state.apply(legal[0])
    raise AssertionError("no such position")


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize(
    "spec",
    [
        "greedy",
        "mcts:iterations=300",
        "ismcts:iterations=300",
        "ismcts:iterations=300,normalize=true,c=0.7",
        "mcts:iterations=300,perfect_information=true",
    ],
)
def test_players_do_not_push_the_pile_over(spec: str, players: int) -> None:
    state = safe_and_losing(players)
    room = state.options["target"] - state.total  # type: ignore[attr-defined]
    action = make_agent(spec, seed=1).choose(state)
    assert action.card <= room


def test_mcts_beats_random_at_toy_pile() -> None:
    game = astrarium.get_game("toy-pile")
    wins = 0
    for seed in range(30):
        state = game.new_game(2, seed)
        me = seed % 2
        agents = {me: make_agent("mcts:iterations=150", seed=seed), 1 - me: make_agent("random", seed=seed)}
        while not state.is_over:
            state.apply(agents[state.current_player].choose(state))
        wins += state.returns()[me] > 0
    assert wins >= 20


class TeamNimState(NimState):
    """Cooperative Nim: the team wins when seat 1 takes the last stone, and loses when seat 0 does."""

    def _apply(self, action: Take) -> None:
        self.heap -= action.stones
        if self.heap == 0:
            winners = (0, 1) if self.turn == 1 else ()
            self._outcome = Outcome(winners, f"seat {self.turn} took the last stone")
        self.turn = 1 - self.turn


class TeamNimGame(NimGame):
    id = "test-team-nim"
    cooperative = True
    state_class = TeamNimState


def test_one_search_plays_both_seats_of_a_team() -> None:
    agent = make_agent("mcts:iterations=500", seed=1)
    state = TeamNimGame().new_game(2, 0, {"heap": 3})
    assert agent.choose(state) != Take(3)  # taking the last stone with seat 0 loses for the team
    while not state.is_over:
        state.apply(agent.choose(state))
    assert state.returns() == [1.0, 1.0]


COOPERATIVE = [g for g in GAMES if astrarium.get_game(g).cooperative]


def test_one_search_plays_every_seat_of_a_cooperative_game() -> None:
    for game_id in COOPERATIVE:
        game = astrarium.get_game(game_id)
        state = game.new_game(game.min_players, 1)
        agent = make_agent("mcts:iterations=5,depth=8", seed=1)
        for _ in range(6):
            if state.is_over:
                break
            state.apply(agent.choose(state))
        assert len(set(state.returns())) == 1, f"{game_id}: the team does not share one result"


def walk(node: Any) -> list[Any]:
    found, stack = [], [node]
    while stack:
        item = stack.pop()
        found.append(item)
        children = item.children or {}
        stack.extend(children.values() if isinstance(children, dict) else children)
    return found


def test_ismcts_counts_how_often_each_action_was_available() -> None:
    state = astrarium.get_game("toy-pile").new_game(2, 4)
    root = ISMCTSAgent(seed=1, iterations=400).search(state)
    nodes = walk(root)
    assert sum(child.visits for child in root.children.values()) == 400
    assert all(node.visits <= node.avail for node in nodes if node is not root)
    # The opponent's hand differs between worlds, so some of its actions were not always available.
    assert any(len({child.avail for child in node.children.values()}) > 1 for node in nodes if node is not root and node.children)


def test_mcts_on_secrets_searches_one_tree_over_many_worlds() -> None:
    state = astrarium.get_game("toy-pile").new_game(3, 2)
    agent = MCTSAgent(seed=1, iterations=300)
    root = agent.search(state)
    assert isinstance(root.children, dict)
    assert sum(child.visits for child in root.children.values()) == 300
    movers = {node.mover for node in walk(root) if node is not root}
    assert movers == {0, 1, 2}  # every seat's choices are in the tree, each backed up with its own return


def test_bots_take_seats_in_play_with_options_after_a_colon() -> None:
    from typer.testing import CliRunner

    from astrarium.cli import app

    seats = ["--seat", "0=mcts:iterations=30", "--seat", "1=ismcts:seconds=0.01"]
    result = CliRunner().invoke(app, ["play", "toy-pile", *seats, "--seed", "2"])
    assert result.exit_code == 0, result.stdout
    assert "Seat 0 (mcts:iterations=30) plays" in result.stdout and "Seat 1 (ismcts:seconds=0.01) plays" in result.stdout
    assert "Game over" in result.stdout
    result = CliRunner().invoke(app, ["play", "toy-pile", "--seat", "1=mcts:iterations=-3"])
    assert result.exit_code == 2 and "iterations must be" in result.stderr


class CountedNimState(NimState):
    """Nim that counts how often a position is asked for its legal actions."""

    asked = 0

    def legal_actions(self) -> list[Any]:
        CountedNimState.asked += 1
        return super().legal_actions()


class CountedNimGame(NimGame):
    state_class = CountedNimState


def test_mcts_asks_each_position_of_its_tree_for_its_legal_actions_once() -> None:
    state = CountedNimGame().new_game(2, 0, {"heap": 30})
    CountedNimState.asked = 0
    root = MCTSAgent(seed=1, iterations=300).search(state)
    nodes = walk(root)
    assert len(nodes) == 301 and root.visits == 300
    # The root was passed 300 times and each node expanded once: one legal list per node read, none per visit.
    expanded = [node for node in nodes if node.untried is not None]
    assert CountedNimState.asked == len(expanded) <= len(nodes)
