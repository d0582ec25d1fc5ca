"""A learning example: an actor-critic policy gradient in numpy over a game's observation tensor and action mask.

    python -m astrarium.rl.learn --game celestials --minutes 12 --out policy.npz --curve curve.svg

The learner plays one seat of the Gymnasium environment (``astrarium.rl.gymnasium_env``,
seats alternating game by game) against computer players drawn from
``--opponents``; its policy is :class:`astrarium.agents.learned.Policy`, one
hidden layer from the observation to a score per action index, the illegal
indices masked out. Each update takes a batch of whole games, estimates the
advantages with a learned value (generalised advantage estimation) and
follows the policy gradient with an entropy bonus (Adam). The reward is the
game's return at the end; with ``--shaping`` the game's own evaluation of
the learner's seat is added as a potential (the change of
``state.evaluate(seat)`` between two of its moves, the potential of the end
taken as 0), which leaves the best policy unchanged and gives earlier credit.

The weights go to ``--out`` (the learned player, ``learned`` in the arena and
the lab, reads ``astrarium/agents/policies/<game>.npz``), the learning curve
(win rate against each opponent, update by update) to ``--curve`` as SVG
(Altair and vl-convert, the ``lab`` extra) and to ``--curve-csv``.
docs/learning.md, "A learning example", has the run and its measurements.
"""

from __future__ import annotations

import argparse
import csv
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from astrarium.agents.learned import ARRAYS, Policy
from astrarium.rl import gymnasium_env


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
    seed: int = 0
    minutes: float = 12.0
    updates: int | None = None
    imitate: str | None = None
    imitate_games: int = 0
    imitate_epochs: int = 4
    start: str | None = None


@dataclass
class Batch:
    """The learner's moves of several games: observations, masks, chosen indices, advantages and value targets."""

    observations: list[npt.NDArray[np.float32]] = field(default_factory=list)
    masks: list[npt.NDArray[np.bool_]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    advantages: list[float] = field(default_factory=list)
    targets: list[float] = field(default_factory=list)
    results: dict[str, list[float]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.actions)


def _softmax(scores: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:
    masked = np.where(masks, scores, -np.inf)
    masked -= masked.max(axis=-1, keepdims=True)
    weights = np.exp(masked)
    return weights / weights.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]


class Learner:
    """The policy, its optimiser state and the environments it plays in."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.rand = np.random.default_rng(settings.seed)
        self.seeds = random.Random(settings.seed)
        self.envs = {
            (spec, seat): gymnasium_env(settings.game, seat=seat, opponents=spec, players=settings.players)
            for spec in settings.opponents
            for seat in range(settings.players)
        }
        env = next(iter(self.envs.values()))
        config = {"game": settings.game, "players": settings.players, "options": _plain(env.options)}
        size = env.observation_space["observation"].shape[0]
        self.policy = Policy.initial(int(size), int(env.action_space.n), settings.hidden, settings.seed, config)
        if settings.start:
            self.policy = Policy.load(settings.start)
            if (self.policy.config.get("observations"), self.policy.config.get("actions")) != (size, env.action_space.n):
                raise ValueError(f"{settings.start}: a policy for another configuration ({self.policy.config})")
        self.moments = {name: (np.zeros_like(a), np.zeros_like(a)) for name, a in self.policy.arrays.items()}
        self.steps_taken = 0

    def play(self, spec: str, seat: int) -> tuple[list[Any], float]:
        """One game: the learner's moves as (observation, mask, index, value, potential) and its return."""
        env = self.envs[(spec, seat)]
        observation, info = env.reset(seed=self.seeds.randrange(2**31))
        moves: list[Any] = []
        done, reward = False, 0.0
        while not done:
            obs = observation["observation"]
            mask = info["action_mask"].astype(bool)
            hidden = self.policy.hidden(obs)
            scores = hidden @ self.policy.arrays["w2"] + self.policy.arrays["b2"]
            value = float((hidden @ self.policy.arrays["wv"] + self.policy.arrays["bv"])[0])
            probs = _softmax(scores, mask)
            index = int(self.rand.choice(probs.size, p=probs))
            potential = env.state.evaluate(seat) if self.settings.shaping else 0.0
            moves.append((obs, mask, index, value, potential))
            observation, reward, done, _, info = env.step(index)
        return moves, float(reward)

    def collect(self) -> Batch:
        """Whole games until the batch holds ``batch_steps`` of the learner's moves."""
        s = self.settings
        batch = Batch(results={spec: [] for spec in s.opponents})
        while len(batch) < s.batch_steps:
            spec = s.opponents[self.seeds.randrange(len(s.opponents))]
            moves, result = self.play(spec, self.seeds.randrange(s.players))
            batch.results[spec].append(result)
            self._add_game(batch, moves, result)
        self.steps_taken += len(batch)
        return batch

    def _add_game(self, batch: Batch, moves: list[Any], result: float) -> None:
        """Rewards (the shaped potential's changes and the return), then advantages by GAE and value targets."""
        s = self.settings
        potentials = [m[4] for m in moves] + [0.0]
        values = [m[3] for m in moves] + [0.0]
        advantage = 0.0
        advantages = [0.0] * len(moves)
        for t in range(len(moves) - 1, -1, -1):
            reward = s.shaping * (potentials[t + 1] - potentials[t]) + (result if t == len(moves) - 1 else 0.0)
            delta = reward + values[t + 1] - values[t]
            advantage = delta + s.gae_lambda * advantage
            advantages[t] = advantage
        for (obs, mask, index, value, _), adv in zip(moves, advantages, strict=True):
            batch.observations.append(obs)
            batch.masks.append(mask)
            batch.actions.append(index)
            batch.advantages.append(adv)
            batch.targets.append(adv + value)

    def update(self, batch: Batch) -> None:
        """One policy-gradient step on the batch (Adam)."""
        grads = gradients(self.policy, batch, self.settings)
        self.step_adam(grads)

    def step_adam(self, grads: dict[str, npt.NDArray[np.float32]], beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.t = getattr(self, "t", 0) + 1
        rate = self.settings.learning_rate * np.sqrt(1 - beta2**self.t) / (1 - beta1**self.t)
        for name in ARRAYS:
            m, v = self.moments[name]
            m *= beta1
            m += (1 - beta1) * grads[name]
            v *= beta2
            v += (1 - beta2) * grads[name] ** 2
            self.policy.arrays[name] -= (rate * m / (np.sqrt(v) + 1e-8)).astype(np.float32)


def gradients(policy: Policy, batch: Batch, settings: Settings) -> dict[str, npt.NDArray[np.float32]]:
    """The gradient of the actor-critic loss: policy gradient on normalised advantages, minus entropy, plus value error."""
    adv = np.asarray(batch.advantages, dtype=np.float32)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    x = np.asarray(batch.observations, dtype=np.float32)
    targets = np.asarray(batch.targets, dtype=np.float32)
    return loss_gradients(policy, x, np.asarray(batch.masks, dtype=bool), np.asarray(batch.actions), adv, targets, settings)


def loss_gradients(
    policy: Policy,
    x: npt.NDArray[np.float32],
    masks: npt.NDArray[np.bool_],
    actions: npt.NDArray[np.int64],
    weights: npt.NDArray[np.float32],
    targets: npt.NDArray[np.float32],
    settings: Settings,
) -> dict[str, npt.NDArray[np.float32]]:
    """Gradients of ``-mean(weight * log p(action)) - entropy * mean(H) + value_weight * mean((v - target)^2)``.

    With the advantages as weights it is the policy gradient; with weights of 1, the cross-entropy of
    imitation (the value head then learns the games' results).
    """
    a = policy.arrays
    n = len(actions)
    hidden = np.tanh(x @ a["w1"] + a["b1"])
    probs = _softmax(hidden @ a["w2"] + a["b2"], masks)
    values = (hidden @ a["wv"] + a["bv"])[:, 0]
    d_scores = probs.copy()
    d_scores[np.arange(n), actions] -= 1.0
    d_scores *= weights[:, None]
    logs = np.log(np.where(masks, probs, 1.0))
    entropy = -(probs * logs).sum(axis=1, keepdims=True)
    d_scores += settings.entropy * probs * (logs + entropy)
    d_scores /= n
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


def demonstrations(settings: Settings, games: int, log: Any = print) -> Batch:
    """The moves of ``settings.imitate`` players playing each other: each mover's observation, mask and choice, and its result."""
    from astrarium.agents import make_agent
    from astrarium.core import get_game

    teacher = settings.imitate
    if teacher is None:
        raise ValueError("imitation needs a player spec to imitate (--imitate)")
    game = get_game(settings.game)
    batch = Batch()
    for number in range(games):
        seed = settings.seed * 1_000_003 + number
        state = game.new_game(settings.players, seed)
        space = game.action_space(settings.players, state.options)
        players = [make_agent(teacher, seed + seat, settings.game) for seat in range(settings.players)]
        seats: list[int] = []
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            action = players[seat].choose(state)
            batch.observations.append(state.observation_tensor(seat))
            batch.masks.append(state.legal_action_mask())
            batch.actions.append(space.index(action))
            seats.append(seat)
            state.apply(action)
        returns = state.returns()
        batch.targets += [float(returns[seat]) for seat in seats]
        if (number + 1) % 100 == 0:
            log(f"imitation: {number + 1} games of {settings.imitate}, {len(batch)} moves")
    return batch


def imitate(learner: Learner, batch: Batch, epochs: int, log: Any = print) -> None:
    """Supervised steps (cross-entropy on the demonstrated choices, the value on their results), minibatches of 512."""
    x = np.asarray(batch.observations, dtype=np.float32)
    masks = np.asarray(batch.masks, dtype=bool)
    actions = np.asarray(batch.actions)
    targets = np.asarray(batch.targets, dtype=np.float32)
    ones = np.ones(len(actions), np.float32)
    for epoch in range(epochs):
        order = learner.rand.permutation(len(actions))
        for start in range(0, len(order), 512):
            part = order[start : start + 512]
            learner.step_adam(
                loss_gradients(learner.policy, x[part], masks[part], actions[part], ones[part], targets[part], learner.settings)
            )
        scores = learner.policy.scores(x[:4096])
        agree = float(np.mean(np.argmax(np.where(masks[:4096], scores, -np.inf), axis=1) == actions[:4096]))
        log(f"imitation: epoch {epoch + 1}, the policy's first choice is the demonstrated one in {agree:.1%} of the first moves")


def _plain(options: Any) -> dict[str, Any]:
    return {key: value for key, value in dict(options).items() if isinstance(value, str | int | float | bool | type(None))}


def train(settings: Settings, log: Any = print) -> tuple[Policy, list[dict[str, Any]]]:
    """Updates until ``updates`` are done or ``minutes`` have passed; the policy and one curve row an update."""
    learner = Learner(settings)
    start = time.perf_counter()
    if settings.imitate and settings.imitate_games:
        imitate(learner, demonstrations(settings, settings.imitate_games, log), settings.imitate_epochs, log)
    curve: list[dict[str, Any]] = []
    update = 0
    while settings.updates is None or update < settings.updates:
        batch = learner.collect()
        learner.update(batch)
        update += 1
        minutes = (time.perf_counter() - start) / 60
        row: dict[str, Any] = {"update": update, "moves": learner.steps_taken, "minutes": round(minutes, 3)}
        for spec, results in batch.results.items():
            row[f"games_{spec}"] = len(results)
            row[f"score_{spec}"] = round(sum((r + 1) / 2 for r in results) / len(results), 4) if results else None
        curve.append(row)
        log("  ".join(f"{k} {v}" for k, v in row.items()))
        if settings.updates is None and minutes >= settings.minutes:
            break
    return learner.policy, curve


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
        for spec in opponents
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
    parser.add_argument("--opponents", default="random,greedy", help="player specs, comma-separated, one drawn each game")
    parser.add_argument("--minutes", type=float, default=12.0, help="train until this many minutes have passed")
    parser.add_argument("--updates", type=int, default=None, help="or stop after this many updates")
    parser.add_argument("--batch-steps", type=int, default=2048, help="the learner's moves in one update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--learning-rate", type=float, default=3e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--shaping", type=float, default=1.0, help="weight of the game's evaluation as a potential (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--imitate", default=None, help="a player spec whose games warm the policy up first (imitation)")
    parser.add_argument("--imitate-games", type=int, default=400, help="how many of its games (each seat one of them)")
    parser.add_argument("--imitate-epochs", type=int, default=4)
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
        seed=args.seed,
        minutes=args.minutes,
        updates=args.updates,
        imitate=args.imitate,
        imitate_games=args.imitate_games,
        imitate_epochs=args.imitate_epochs,
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
