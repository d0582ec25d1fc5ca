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


def _loss(policy: Policy, x, masks, actions, weights, targets, settings: learn.Settings, chances=None) -> float:  # noqa: ANN001 (arrays)
    a = policy.arrays
    hidden = np.tanh(x @ a["w1"] + a["b1"])
    scores = np.where(masks, (hidden @ a["w2"] + a["b2"]) / settings.temperature, -np.inf)
    logs = scores - scores.max(axis=1, keepdims=True)
    logs = logs - np.log(np.exp(logs).sum(axis=1, keepdims=True))
    probs = np.exp(logs)
    entropy = -(probs * np.where(masks, logs, 0.0)).sum(axis=1)
    values = (hidden @ a["wv"] + a["bv"])[:, 0]
    chosen = logs[np.arange(len(actions)), actions]
    if chances is not None:
        ratio = np.exp(chosen) / chances
        surrogate = np.minimum(ratio * weights, np.clip(ratio, 1 - settings.clip, 1 + settings.clip) * weights)
        return float(-surrogate.mean() - settings.entropy * entropy.mean() + settings.value_weight * ((values - targets) ** 2).mean())
    return float(-(weights * chosen).mean() - settings.entropy * entropy.mean() + settings.value_weight * ((values - targets) ** 2).mean())


def _small_problem() -> tuple[Policy, tuple[np.ndarray, ...]]:
    gen = np.random.default_rng(0)
    policy = Policy.initial(5, 4, 3, seed=1, config={})
    for name in policy.arrays:
        policy.arrays[name] = (gen.standard_normal(policy.arrays[name].shape) * 0.5).astype(np.float64)
    x = gen.standard_normal((6, 5))
    masks = np.array([[1, 1, 0, 1], [0, 1, 1, 0], [1, 1, 1, 1], [1, 0, 0, 1], [0, 0, 1, 1], [1, 1, 0, 0]], dtype=bool)
    actions = np.array([0, 2, 3, 3, 2, 1])
    weights, targets = gen.standard_normal(6), gen.standard_normal(6)
    return policy, (x, masks, actions, weights, targets)


def _assert_gradients_match(policy: Policy, problem: tuple[np.ndarray, ...], settings: learn.Settings, chances=None) -> None:  # noqa: ANN001
    grads = learn.loss_gradients(policy, *problem, settings, chances)
    for name, array in policy.arrays.items():
        for index in [(0,) * array.ndim, tuple(s - 1 for s in array.shape)]:
            saved = array[index]
            array[index] = saved + 1e-6
            up = _loss(policy, *problem, settings, chances)
            array[index] = saved - 1e-6
            down = _loss(policy, *problem, settings, chances)
            array[index] = saved
            assert grads[name][index] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-7), name


def test_the_learner_follows_the_gradient_of_its_loss() -> None:
    policy, problem = _small_problem()
    _assert_gradients_match(policy, problem, learn.Settings(entropy=0.05, value_weight=0.5))


def test_the_clipped_update_at_a_temperature_follows_the_gradient_of_ppos_surrogate() -> None:
    policy, problem = _small_problem()
    x, masks, actions, weights, _ = problem
    settings = learn.Settings(entropy=0.05, value_weight=0.5, clip=0.2, temperature=0.5)
    now = learn._softmax(policy.scores(x) / settings.temperature, masks)[np.arange(6), actions]
    # moves whose ratio lies inside the clip range, above it and below it, with advantages of both signs
    chances = now * np.array([1.0, 0.5, 2.0, 0.9, 0.5, 2.0])
    _assert_gradients_match(policy, problem, settings, chances)
    ratio = now / chances
    clipped = ((weights > 0) & (ratio > 1.2)) | ((weights < 0) & (ratio < 0.8))
    assert clipped.any() and not clipped.all()


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


def test_the_weights_do_not_depend_on_how_many_processes_play_the_games(tmp_path: Path) -> None:
    weights = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.npz"
        argv = ["--updates", "1", "--batch-steps", "40", "--hidden", "8", "--opponents", "random,greedy", "--epochs", "2"]
        argv += ["--minibatch", "64", "--imitate", "random", "--imitate-games", "3", "--jobs", jobs, "--out", str(out)]
        assert learn.main(argv) == 0
        weights.append(Policy.load(out).arrays)
    for name in weights[0]:
        assert np.array_equal(weights[0][name], weights[1][name]), name


def test_an_unknown_teacher_is_named_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        learn.main(["--imitate", "nobody", "--imitate-games", "2", "--updates", "0"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "nobody" in error and len(error.strip().splitlines()) == 1


def test_kept_demonstrations_are_read_back_and_only_new_games_played(tmp_path: Path) -> None:
    kept = str(tmp_path / "shown.npz")
    settings = learn.Settings(imitate="random", seed=4)
    first = learn.demonstrations(settings, 2, log=lambda _: None, keep=kept)
    lines: list[str] = []
    both = learn.demonstrations(settings, 3, log=lines.append, keep=kept)
    assert lines == [f"imitation: 2 games of random read from {kept}"]
    assert both.games == 3 and np.array_equal(both.between(0, 2).actions, first.actions)
    assert np.array_equal(both.masks, learn.demonstrations(settings, 3).masks)
    assert learn.demonstrations(settings, 1, keep=kept).games == 1


def test_demonstrations_of_another_player_are_refused_by_name(tmp_path: Path) -> None:
    kept = str(tmp_path / "shown.npz")
    learn.demonstrations(learn.Settings(imitate="random"), 1, keep=kept)
    with pytest.raises(DataError, match="shown.npz.*greedy"):
        learn.demonstrations(learn.Settings(imitate="greedy"), 1, keep=kept)


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
