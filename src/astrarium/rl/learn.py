"""A learning example: an actor-critic policy gradient in numpy over a game's observation tensor and action mask.

    python -m astrarium.rl.learn --game celestials --minutes 12 --out policy.npz --curve curve.svg

The learner plays one seat of the Gymnasium environment (``astrarium.rl.gymnasium_env``,
the seat drawn game by game) against computer players drawn from
``--opponents``; its policy is :class:`astrarium.agents.learned.Policy`, one
hidden layer from the observation to a score per action index, the illegal
indices masked out (``--temperature`` below 1 sharpens it). Each update takes a batch of whole games, estimates the
advantages with a learned value (generalised advantage estimation) and
follows the policy gradient with an entropy bonus (Adam), in ``--epochs``
passes of minibatches over the batch with PPO's clipped ratio (the
probability of a move now over its probability when it was played). The
reward is the game's return at the end; with ``--shaping`` the game's own
evaluation of the learner's seat is added as a potential (the change of
``state.evaluate(seat)`` between two of its moves, the potential of the end
taken as 0), which leaves the best policy unchanged and gives earlier credit.

Before it, ``--imitate SPEC`` warms the policy up on the choices of a player
(``greedy``, a search such as ``mcts:iterations=50,depth=10``) in
``--imitate-games`` of its games against itself: the cross-entropy of its
choices, the value head on the games' results. The demonstrations and the
training games are played on ``--jobs`` processes; each game has its own
seed, drawn in order from ``--seed``, so the weights do not depend on
``--jobs``.

The weights go to ``--out`` (the learned player, ``learned`` in the arena and
the lab, reads ``astrarium/agents/policies/<game>.npz``), the learning curve
(win rate against each opponent, update by update) to ``--curve`` as SVG
(Altair and vl-convert, the ``lab`` extra) and to ``--curve-csv``.
docs/learning.md, "A learning example", has the run and its measurements.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from astrarium.agents.learned import ARRAYS, Policy
from astrarium.core.errors import DataError, short
from astrarium.rl import gymnasium_env

#: Games are handed out in rounds of this many, whatever ``--jobs`` is, so a batch holds the same games.
ROUND = 8
#: The share of the demonstrations' games (their last ones) kept out of imitation to measure its agreement.
HELD_OUT = 0.05


@dataclass(frozen=True, slots=True)
class Settings:
    """What one training run does (the command line's options)."""

    game: str = "celestials"
    players: int = 2
    opponents: tuple[str, ...] = ("random", "greedy")
    hidden: int = 64
    batch_steps: int = 2048
    learning_rate: float = 3e-3
    gae_lambda: float = 0.95
    entropy: float = 0.01
    value_weight: float = 0.5
    shaping: float = 1.0
    epochs: int = 1
    minibatch: int = 512
    clip: float = 0.2
    temperature: float = 1.0
    seed: int = 0
    minutes: float = 12.0
    updates: int | None = None
    imitate: str | None = None
    imitate_games: int = 0
    imitate_epochs: int = 4
    demonstrations: str | None = None
    start: str | None = None
    jobs: int = 1


@dataclass
class Batch:
    """Moves of several games: observations, masks, chosen indices, their probabilities, advantages and value targets."""

    observations: list[npt.NDArray[np.float32]] = field(default_factory=list)
    masks: list[npt.NDArray[np.bool_]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    chances: list[float] = field(default_factory=list)
    advantages: list[float] = field(default_factory=list)
    targets: list[float] = field(default_factory=list)
    results: dict[str, list[float]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.actions)


@dataclass(frozen=True, slots=True)
class Move:
    """One of the learner's moves as it played it: what it saw, what it chose with which probability, its value and potential."""

    observation: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]
    index: int
    chance: float
    value: float
    potential: float


def _softmax(scores: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:
    masked = np.where(masks, scores, -np.inf)
    masked -= masked.max(axis=-1, keepdims=True)
    weights = np.exp(masked)
    return weights / weights.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]


#: A process's environments, one per (game, players, opponent, seat), made the first time a game asks for one.
_ENVS: dict[tuple[str, int, str, int], Any] = {}


def play_game(policy: Policy, settings: Settings, spec: str, seat: int, seed: int) -> tuple[list[Move], float]:
    """One game of the learner (moves drawn from the policy, seeded by ``seed``) in ``seat`` against ``spec``."""
    key = (settings.game, settings.players, spec, seat)
    if key not in _ENVS:
        _ENVS[key] = gymnasium_env(settings.game, seat=seat, opponents=spec, players=settings.players)
    env = _ENVS[key]
    draw = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    a = policy.arrays
    moves: list[Move] = []
    done, reward = False, 0.0
    while not done:
        obs = observation["observation"]
        mask = info["action_mask"].astype(bool)
        hidden = policy.hidden(obs)
        probs = _softmax((hidden @ a["w2"] + a["b2"]) / settings.temperature, mask)
        index = int(draw.choice(probs.size, p=probs))
        value = float((hidden @ a["wv"] + a["bv"])[0])
        potential = env.state.evaluate(seat) if settings.shaping else 0.0
        moves.append(Move(obs, mask, index, float(probs[index]), value, potential))
        observation, reward, over, truncated, info = env.step(index)
        done = over or truncated
    return moves, float(reward)


def _play_task(task: tuple[dict[str, npt.NDArray[np.float32]], Settings, str, int, int]) -> tuple[list[Move], float]:
    arrays, settings, spec, seat, seed = task
    return play_game(Policy(arrays, {}), settings, spec, seat, seed)


@contextmanager
def workers(jobs: int) -> Iterator[Executor | None]:
    """``jobs`` processes to play games on (none for one job: the games are played here)."""
    if jobs <= 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield pool


def _in_order(pool: Executor | None, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
    """``function`` over ``tasks``, on the pool when there is one, the results in the tasks' order."""
    return iter(pool.map(function, tasks)) if pool is not None else map(function, tasks)


class Learner:
    """The policy, its optimiser state and the seeds of the games it plays."""

    def __init__(self, settings: Settings, pool: Executor | None = None) -> None:
        self.settings = settings
        self.pool = pool
        self.rand = np.random.default_rng(settings.seed)
        self.seeds = random.Random(settings.seed)
        env = gymnasium_env(settings.game, seat=0, opponents="random", players=settings.players)
        config = {"game": settings.game, "players": settings.players, "options": _plain(env.options)}
        size = env.observation_space["observation"].shape[0]
        self.policy = Policy.initial(int(size), int(env.action_space.n), settings.hidden, settings.seed, config)
        if settings.start:
            self.policy = Policy.load(settings.start)
            if (self.policy.config.get("observations"), self.policy.config.get("actions")) != (size, env.action_space.n):
                raise ValueError(f"{settings.start}: a policy for another configuration ({self.policy.config})")
        self.moments = {name: (np.zeros_like(a), np.zeros_like(a)) for name, a in self.policy.arrays.items()}
        self.steps_taken = 0
        self.t = 0

    def collect(self) -> Batch:
        """Whole games, in rounds of ``ROUND``, until the batch holds ``batch_steps`` of the learner's moves."""
        s = self.settings
        batch = Batch(results={spec: [] for spec in s.opponents})
        while len(batch) < s.batch_steps:
            tasks = []
            for _ in range(ROUND):
                spec = s.opponents[self.seeds.randrange(len(s.opponents))]
                tasks.append((self.policy.arrays, s, spec, self.seeds.randrange(s.players), self.seeds.randrange(2**31)))
            for (_, _, spec, _, _), (moves, result) in zip(tasks, _in_order(self.pool, _play_task, tasks), strict=True):
                batch.results[spec].append(result)
                self._add_game(batch, moves, result)
        self.steps_taken += len(batch)
        return batch

    def _add_game(self, batch: Batch, moves: list[Move], result: float) -> None:
        """Rewards (the shaped potential's changes and the return), then advantages by GAE and value targets."""
        s = self.settings
        potentials = [m.potential for m in moves] + [0.0]
        values = [m.value for m in moves] + [0.0]
        advantage = 0.0
        advantages = [0.0] * len(moves)
        for t in range(len(moves) - 1, -1, -1):
            reward = s.shaping * (potentials[t + 1] - potentials[t]) + (result if t == len(moves) - 1 else 0.0)
            delta = reward + values[t + 1] - values[t]
            advantage = delta + s.gae_lambda * advantage
            advantages[t] = advantage
        for move, adv in zip(moves, advantages, strict=True):
            batch.observations.append(move.observation)
            batch.masks.append(move.mask)
            batch.actions.append(move.index)
            batch.chances.append(move.chance)
            batch.advantages.append(adv)
            batch.targets.append(adv + move.value)

    def update(self, batch: Batch) -> None:
        """``epochs`` passes of clipped policy-gradient steps over the batch in minibatches (Adam)."""
        s = self.settings
        adv = np.asarray(batch.advantages, dtype=np.float32)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        x = np.asarray(batch.observations, dtype=np.float32)
        masks = np.asarray(batch.masks, dtype=bool)
        actions = np.asarray(batch.actions)
        chances = np.asarray(batch.chances, dtype=np.float32)
        targets = np.asarray(batch.targets, dtype=np.float32)
        for _ in range(s.epochs):
            order = self.rand.permutation(len(actions))
            for start in range(0, len(order), s.minibatch):
                part = order[start : start + s.minibatch]
                grads = loss_gradients(self.policy, x[part], masks[part], actions[part], adv[part], targets[part], s, chances[part])
                self.step_adam(grads)

    def step_adam(self, grads: dict[str, npt.NDArray[np.float32]], beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.t += 1
        rate = self.settings.learning_rate * np.sqrt(1 - beta2**self.t) / (1 - beta1**self.t)
        for name in ARRAYS:
            m, v = self.moments[name]
            m *= beta1
            m += (1 - beta1) * grads[name]
            v *= beta2
            v += (1 - beta2) * grads[name] ** 2
            self.policy.arrays[name] -= (rate * m / (np.sqrt(v) + 1e-8)).astype(np.float32)


def loss_gradients(
    policy: Policy,
    x: npt.NDArray[np.float32],
    masks: npt.NDArray[np.bool_],
    actions: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float32],
    targets: npt.NDArray[np.float32],
    settings: Settings,
    chances: npt.NDArray[np.float32] | None = None,
) -> dict[str, npt.NDArray[np.float32]]:
    """Gradients of ``-mean(weight * log p(action)) - entropy * mean(H) + value_weight * mean((v - target)^2)``.

    With the advantages as weights it is the policy gradient; with weights of 1, the cross-entropy of
    imitation (the value head then learns the games' results). Given ``chances`` (each action's
    probability when it was played), the first term is PPO's clipped surrogate instead,
    ``-mean(min(r * weight, clip(r, 1 - clip, 1 + clip) * weight))`` with ``r = p(action) / chance``.
    ``p`` is the masked softmax of the scores divided by ``temperature``.
    """
    a = policy.arrays
    n = len(actions)
    hidden = np.tanh(x @ a["w1"] + a["b1"])
    probs = _softmax((hidden @ a["w2"] + a["b2"]) / settings.temperature, masks)
    values = (hidden @ a["wv"] + a["bv"])[:, 0]
    if chances is not None:
        ratio = probs[np.arange(n), actions] / chances
        clipped = ((weights > 0) & (ratio > 1 + settings.clip)) | ((weights < 0) & (ratio < 1 - settings.clip))
        weights = np.where(clipped, 0.0, weights * ratio)
    d_scores = probs.copy()
    d_scores[np.arange(n), actions] -= 1.0
    d_scores *= weights[:, None]
    logs = np.log(np.where(masks, probs, 1.0))
    entropy = -(probs * logs).sum(axis=1, keepdims=True)
    d_scores += settings.entropy * probs * (logs + entropy)
    d_scores /= n * settings.temperature
    d_values = (2 * settings.value_weight / n) * (values - targets)[:, None]
    d_hidden = (d_scores @ a["w2"].T + d_values @ a["wv"].T) * (1 - hidden**2)
    return {
        "w2": hidden.T @ d_scores,
        "b2": d_scores.sum(axis=0),
        "wv": hidden.T @ d_values,
        "bv": d_values.sum(axis=0),
        "w1": x.T @ d_hidden,
        "b1": d_hidden.sum(axis=0),
    }


@dataclass(frozen=True, slots=True)
class Demonstrations:
    """The moves of whole games of a player against itself: each mover's observation, mask, choice and result.

    ``lengths`` holds the number of moves of each game, in the order of the games.
    """

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]
    targets: npt.NDArray[np.float32]
    lengths: npt.NDArray[np.int64]

    @classmethod
    def join(cls, parts: Sequence[Demonstrations]) -> Demonstrations:
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in cls.__slots__))  # type: ignore[arg-type]

    @property
    def games(self) -> int:
        return len(self.lengths)

    def between(self, first: int, last: int) -> Demonstrations:
        """Games ``first`` to ``last`` (excluded)."""
        ends = np.concatenate([[0], np.cumsum(self.lengths)])
        moves = slice(int(ends[first]), int(ends[last]))
        return Demonstrations(
            self.observations[moves], self.masks[moves], self.actions[moves], self.targets[moves], self.lengths[first:last]
        )

    def save(self, path: str | Path, about: dict[str, Any]) -> None:
        """Write them (the masks packed to bits) with ``about``: the player, the game and the seed they come from."""
        np.savez_compressed(
            path,
            about=np.array(json.dumps(about, sort_keys=True)),
            observations=self.observations,
            masks=np.packbits(self.masks, axis=1),
            actions=self.actions,
            targets=self.targets,
            lengths=self.lengths,
        )

    @classmethod
    def load(cls, path: str | Path, about: dict[str, Any], actions: int) -> Demonstrations:
        """Read what :meth:`save` wrote; a file of another player, game or seed, or no such file at all, raises DataError."""
        try:
            with np.load(path, allow_pickle=False) as data:
                kept = json.loads(str(data["about"]))
                if kept != about:
                    raise DataError(str(path), "about", f"demonstrations of {kept}, not of {about}")
                masks = np.unpackbits(data["masks"], axis=1, count=actions).astype(bool)
                return cls(data["observations"], masks, data["actions"], data["targets"], data["lengths"])
        except KeyError as exc:
            raise DataError(str(path), str(exc.args[0]), "missing: not a file of demonstrations") from None
        except (OSError, ValueError) as exc:
            if isinstance(exc, DataError):
                raise
            raise DataError(str(path), "demonstrations", f"not a file of demonstrations ({short(str(exc))})") from None


def _demonstration(task: tuple[Settings, int]) -> Demonstrations:
    """Game ``number`` of the ``imitate`` player against itself (its seed made from ``seed`` and the number)."""
    from astrarium.agents import make_agent
    from astrarium.core import get_game

    settings, number = task
    teacher = settings.imitate
    if teacher is None:
        raise ValueError("imitation needs a player spec to imitate (--imitate)")
    game = get_game(settings.game)
    seed = settings.seed * 1_000_003 + number
    state = game.new_game(settings.players, seed)
    space = game.action_space(settings.players, state.options)
    players = [make_agent(teacher, seed + seat, settings.game) for seat in range(settings.players)]
    observations, masks, actions, seats = [], [], [], []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = players[seat].choose(state)
        observations.append(state.observation_tensor(seat))
        masks.append(state.legal_action_mask())
        actions.append(space.index(action))
        seats.append(seat)
        state.apply(action)
    returns = state.returns()
    return Demonstrations(
        np.asarray(observations, dtype=np.float32),
        np.asarray(masks, dtype=bool),
        np.asarray(actions, dtype=np.int64),
        np.asarray([returns[seat] for seat in seats], dtype=np.float32),
        np.asarray([len(actions)], dtype=np.int64),
    )


def demonstrations(
    settings: Settings, games: int, log: Any = print, pool: Executor | None = None, keep: str | None = None
) -> Demonstrations:
    """``games`` games of ``settings.imitate`` players playing each other, in order.

    With ``keep`` (a file), the games already kept there are read instead of played again, and the
    ones played are added to it: a longer run, or another imitation of the same games, plays only what is new.
    """
    if settings.imitate is None:
        raise ValueError("imitation needs a player spec to imitate (--imitate)")
    from astrarium.agents import make_agent

    make_agent(settings.imitate, 0, settings.game)  # a bad spec is refused here, before any process starts
    about = {"game": settings.game, "players": settings.players, "imitate": settings.imitate, "seed": settings.seed}
    parts = []
    if keep and Path(keep).exists():
        size = gymnasium_env(settings.game, opponents="random", players=settings.players).action_space.n
        parts.append(Demonstrations.load(keep, about, int(size)))
        log(f"imitation: {parts[0].games} games of {settings.imitate} read from {keep}")
    done = parts[0].games if parts else 0
    for number, played in enumerate(_in_order(pool, _demonstration, [(settings, n) for n in range(done, games)]), done + 1):
        parts.append(played)
        if number % 100 == 0:
            log(f"imitation: {number} games of {settings.imitate}, {sum(int(p.lengths.sum()) for p in parts)} moves")
    joined = Demonstrations.join(parts)
    if keep and joined.games > done:
        joined.save(keep, about)
    return joined.between(0, games)


def agreement(policy: Policy, x: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_], actions: npt.NDArray[np.int64]) -> float:
    """The share of the moves on which the policy's first choice is the demonstrated one."""
    chosen = np.concatenate(
        [np.argmax(np.where(masks[i : i + 4096], policy.scores(x[i : i + 4096]), -np.inf), axis=1) for i in range(0, len(x), 4096)]
    )
    return float(np.mean(chosen == actions))


def imitate(learner: Learner, shown: Demonstrations, epochs: int, log: Any = print) -> None:
    """Supervised steps (cross-entropy on the demonstrated choices, the value on their results), minibatches of ``minibatch``.

    The last games (``HELD_OUT`` of them, with 20 games or more) are kept out to measure the agreement on moves not learnt from.
    """
    kept = int(shown.games * HELD_OUT) if shown.games >= 20 else 0
    learnt = shown.between(0, shown.games - kept)
    held = shown.between(shown.games - kept, shown.games) if kept else learnt
    x, masks, actions, targets = learnt.observations, learnt.masks, learnt.actions, learnt.targets
    where = f"the {len(held.actions)} moves of the {kept} games held out" if kept else "the moves learnt from"
    ones = np.ones(len(actions), np.float32)
    size = learner.settings.minibatch
    for epoch in range(epochs):
        order = learner.rand.permutation(len(actions))
        for start in range(0, len(order), size):
            part = order[start : start + size]
            learner.step_adam(
                loss_gradients(learner.policy, x[part], masks[part], actions[part], ones[part], targets[part], learner.settings)
            )
        agree = agreement(learner.policy, held.observations, held.masks, held.actions)
        log(f"imitation: epoch {epoch + 1} on {len(actions)} moves: first choice the demonstrated one in {agree:.1%} of {where}")


def _plain(options: Any) -> dict[str, Any]:
    return {key: value for key, value in dict(options).items() if isinstance(value, str | int | float | bool | type(None))}


def train(settings: Settings, log: Any = print) -> tuple[Policy, list[dict[str, Any]]]:
    """Updates until ``updates`` are done or ``minutes`` have passed; the policy and one curve row an update."""
    with workers(settings.jobs) as pool:
        learner = Learner(settings, pool)
        start = time.perf_counter()
        if settings.imitate and settings.imitate_games:
            shown = demonstrations(settings, settings.imitate_games, log, pool, settings.demonstrations)
            imitate(learner, shown, settings.imitate_epochs, log)
        curve: list[dict[str, Any]] = []
        while settings.updates is None or len(curve) < settings.updates:
            batch = learner.collect()
            learner.update(batch)
            minutes = (time.perf_counter() - start) / 60
            curve.append(_curve_row(len(curve) + 1, learner.steps_taken, minutes, batch))
            log("  ".join(f"{k} {v}" for k, v in curve[-1].items()))
            if settings.updates is None and minutes >= settings.minutes:
                break
    return learner.policy, curve


def _curve_row(update: int, moves: int, minutes: float, batch: Batch) -> dict[str, Any]:
    row: dict[str, Any] = {"update": update, "moves": moves, "minutes": round(minutes, 3)}
    for spec, results in batch.results.items():
        row[f"games_{spec}"] = len(results)
        row[f"score_{spec}"] = round(sum((r + 1) / 2 for r in results) / len(results), 4) if results else None
    return row


def write_curve(curve: list[dict[str, Any]], opponents: Sequence[str], svg: str | None, table: str | None, title: str) -> None:
    """The curve as CSV and as an SVG chart (the score against each opponent by update, a moving mean of 10)."""
    if table:
        with open(table, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(curve[0]))
            writer.writeheader()
            writer.writerows(curve)
    if not svg:
        return
    import altair as alt
    import vl_convert

    rows = [
        {"update": r["update"], "opponent": spec, "score": r[f"score_{spec}"]}
        for r in curve
        for spec in dict.fromkeys(opponents)
        if r[f"score_{spec}"] is not None
    ]
    chart = (
        alt.Chart(alt.Data(values=rows), title=title)
        .transform_window(mean="mean(score)", frame=[-9, 0], groupby=["opponent"], sort=[{"field": "update"}])
        .mark_line()
        .encode(
            x=alt.X("update:Q", title="update"),
            y=alt.Y("mean:Q", title="score (win 1, draw 1/2), mean of 10 updates", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("opponent:N", title="against"),
        )
        .properties(width=520, height=260)
    )
    Path(svg).write_text(str(vl_convert.vegalite_to_svg(chart.to_dict())), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m astrarium.rl.learn", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="celestials")
    parser.add_argument(
        "--opponents", default="random,greedy", help="player specs, comma-separated, one drawn each game (name one twice: twice as often)"
    )
    parser.add_argument("--minutes", type=float, default=12.0, help="train until this many minutes have passed")
    parser.add_argument("--updates", type=int, default=None, help="or stop after this many updates")
    parser.add_argument("--batch-steps", type=int, default=2048, help="the learner's moves in one update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--learning-rate", type=float, default=3e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--epochs", type=int, default=1, help="passes over each batch (PPO's clipped ratio keeps them close)")
    parser.add_argument("--minibatch", type=int, default=512, help="moves in one gradient step")
    parser.add_argument("--clip", type=float, default=0.2, help="PPO's clipping of the probability ratio")
    parser.add_argument(
        "--temperature", type=float, default=1.0, help="the policy's scores are divided by it in the softmax (below 1: surer moves)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes that play the games (the weights do not depend on it)")
    parser.add_argument("--shaping", type=float, default=1.0, help="weight of the game's evaluation as a potential (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--imitate", default=None, help="a player spec whose games warm the policy up first (imitation)")
    parser.add_argument("--imitate-games", type=int, default=400, help="how many of its games (each seat one of them)")
    parser.add_argument("--imitate-epochs", type=int, default=4)
    parser.add_argument("--demonstrations", default=None, help="keep the imitated games in this file (.npz) and read them back")
    parser.add_argument("--start", default=None, help="go on from this policy (.npz) instead of new weights")
    parser.add_argument("--out", default=None, help="write the policy here (.npz)")
    parser.add_argument("--curve", default=None, help="write the learning curve here (.svg)")
    parser.add_argument("--curve-csv", default=None, help="write the learning curve's figures here (.csv)")
    args = parser.parse_args(argv)
    settings = Settings(
        game=args.game,
        opponents=tuple(s for s in args.opponents.split(",") if s),
        hidden=args.hidden,
        batch_steps=args.batch_steps,
        learning_rate=args.learning_rate,
        entropy=args.entropy,
        shaping=args.shaping,
        epochs=args.epochs,
        minibatch=args.minibatch,
        clip=args.clip,
        temperature=args.temperature,
        jobs=args.jobs,
        seed=args.seed,
        minutes=args.minutes,
        updates=args.updates,
        imitate=args.imitate,
        imitate_games=args.imitate_games,
        imitate_epochs=args.imitate_epochs,
        demonstrations=args.demonstrations,
        start=args.start,
    )
    try:
        policy, curve = train(settings)
    except ValueError as exc:
        parser.exit(2, f"astrarium.rl.learn: {exc}\n")
    if args.out:
        policy.save(args.out)
    if curve:
        write_curve(curve, settings.opponents, args.curve, args.curve_csv, f"{args.game}: the learner's score during training")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
