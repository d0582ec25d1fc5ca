"""The learning example (docs/learning.md, "A learning example"): the learner's gradient, a tiny run, and the learned player.

Training itself is not part of the tests (``make learn``); these check that
the loss's gradient is the one the learner follows (finite differences on a
small policy), that ``python -m astrarium.rl.learn`` runs a few updates and
writes a policy the player reads, and that the shipped ``learned`` player
plays legal moves through the arena's spec and refuses what it was not
trained for by name.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from astrarium.agents import make_agent
from astrarium.agents.learned import Policy, check_configuration, masked_choice, shipped_games, shipped_policy
from astrarium.core import get_game
from astrarium.core.errors import DataError
from astrarium.rl import learn


def _loss(policy: Policy, x, masks, actions, weights, targets, settings: learn.Settings) -> float:  # noqa: ANN001 (arrays)
    a = policy.arrays
    hidden = np.tanh(x @ a["w1"] + a["b1"])
    scores = np.where(masks, hidden @ a["w2"] + a["b2"], -np.inf)
    logs = scores - scores.max(axis=1, keepdims=True)
    logs = logs - np.log(np.exp(logs).sum(axis=1, keepdims=True))
    probs = np.exp(logs)
    entropy = -(probs * np.where(masks, logs, 0.0)).sum(axis=1)
    values = (hidden @ a["wv"] + a["bv"])[:, 0]
    chosen = logs[np.arange(len(actions)), actions]
    return float(-(weights * chosen).mean() - settings.entropy * entropy.mean() + settings.value_weight * ((values - targets) ** 2).mean())


def test_the_learner_follows_the_gradient_of_its_loss() -> None:
    gen = np.random.default_rng(0)
    policy = Policy.initial(5, 4, 3, seed=1, config={})
    for name in policy.arrays:
        policy.arrays[name] = (gen.standard_normal(policy.arrays[name].shape) * 0.5).astype(np.float64)
    x = gen.standard_normal((6, 5))
    masks = np.array([[1, 1, 0, 1], [0, 1, 1, 0], [1, 1, 1, 1], [1, 0, 0, 1], [0, 0, 1, 1], [1, 1, 0, 0]], dtype=bool)
    actions = np.array([0, 2, 3, 3, 2, 1])
    weights, targets = gen.standard_normal(6), gen.standard_normal(6)
    settings = learn.Settings(entropy=0.05, value_weight=0.5)
    grads = learn.loss_gradients(policy, x, masks, actions, weights, targets, settings)
    for name, array in policy.arrays.items():
        for index in [(0,) * array.ndim, tuple(s - 1 for s in array.shape)]:
            saved = array[index]
            array[index] = saved + 1e-6
            up = _loss(policy, x, masks, actions, weights, targets, settings)
            array[index] = saved - 1e-6
            down = _loss(policy, x, masks, actions, weights, targets, settings)
            array[index] = saved
            assert grads[name][index] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-7), name


def test_masked_choice_takes_only_legal_indices() -> None:
    scores = np.array([5.0, 1.0, 9.0, 2.0], dtype=np.float32)
    mask = np.array([True, True, False, True])
    assert masked_choice(scores, mask, None) == 0
    assert {masked_choice(scores, mask, p) for p in np.linspace(0, 0.999, 50)} <= {0, 1, 3}


def test_a_tiny_run_writes_a_policy_and_its_curve(tmp_path: Path) -> None:
    out, table = tmp_path / "policy.npz", tmp_path / "curve.csv"
    argv = ["--game", "celestials", "--updates", "2", "--batch-steps", "40", "--hidden", "8", "--opponents", "random"]
    argv += ["--imitate", "random", "--imitate-games", "2", "--imitate-epochs", "1", "--out", str(out), "--curve-csv", str(table)]
    assert learn.main(argv) == 0
    policy = Policy.load(out)
    game = get_game("celestials")
    assert policy.config["game"] == "celestials" and policy.config["actions"] == game.action_space(2).size
    assert policy.arrays["w1"].shape == (game.observation_shape(2)[0], 8)
    assert table.read_text().splitlines()[0].startswith("update,moves,minutes,games_random,score_random")


def test_shipped_learned_player_plays_legal_moves_to_the_end() -> None:
    assert "celestials" in shipped_games()
    game = get_game("celestials")
    learned = make_agent("learned", seed=1, game="celestials")
    other = make_agent("random", seed=2)
    state = game.new_game(2, 7)
    while not state.is_over:
        player = learned if state.current_player == 0 else other
        action = player.choose(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert state.move_number <= game.max_moves(2, state.options)


def test_learned_player_refuses_games_and_configurations_it_was_not_trained_for() -> None:
    with pytest.raises(ValueError, match="learned plays only celestials"):
        make_agent("learned", seed=0, game="orbital-combat")
    with pytest.raises(ValueError, match="sample"):
        make_agent("learned:sample=3", seed=0, game="celestials")
    state = get_game("celestials").new_game(2, 1)
    policy = shipped_policy("celestials")
    other = Policy(policy.arrays, {**policy.config, "actions": policy.config["actions"] + 1})
    with pytest.raises(ValueError, match="trained with .* actions"):
        check_configuration(other, state)


def test_sampling_learned_player_is_seeded() -> None:
    game = get_game("celestials")
    runs = []
    for _ in range(2):
        state, player, pick = game.new_game(2, 3), make_agent("learned:sample=true", seed=5, game="celestials"), random.Random(3)
        for _ in range(30):
            state.apply(player.choose(state) if state.current_player == 0 else pick.choice(state.legal_actions()))
        runs.append(state.to_record()["actions"])
    assert runs[0] == runs[1]


def test_a_file_that_is_no_policy_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    np.savez(bad, w1=np.zeros(2))
    with pytest.raises(DataError, match="bad.npz"):
        Policy.load(bad)
