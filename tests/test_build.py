"""Which build is running, and the build hook's choice between the compiled and the pure-Python package.

``make test-compiled`` (run by CI) installs the compiled build into its own
environment and sets ``ASTRARIUM_EXPECT_BUILD=compiled``, so these tests fail
there if the package silently fell back to pure Python.
"""

from __future__ import annotations

import gc
import importlib.util
import os
import weakref
from pathlib import Path

import pytest
from typer.testing import CliRunner

import astrarium
from astrarium.cli.app import app
from astrarium.core import Rng
from astrarium.core.build import build_kind, compiled_modules

ROOT = Path(__file__).resolve().parent.parent


def test_build_kind_matches_the_installed_files() -> None:
    kind = build_kind()
    modules = compiled_modules()
    assert (kind == "pure Python") == (not modules)
    assert all(m.startswith("astrarium.") for m in modules)


def test_the_expected_build_is_the_one_running() -> None:
    expected = os.environ.get("ASTRARIUM_EXPECT_BUILD", "")
    if expected == "compiled":
        assert compiled_modules(), f"expected the compiled build, but astrarium runs {build_kind()} from {astrarium.__file__}"
        assert "compiled with mypyc" in build_kind()
    else:
        # The development install (make test) is editable: the sources themselves, never compiled.
        assert expected in ("", "pure")
        assert build_kind() == "pure Python"


def test_version_says_which_build_is_running() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.startswith(f"astrarium {astrarium.__version__} (")
    assert build_kind() in result.output


def watch(thing: object) -> weakref.ref | None:
    """A weak reference to ``thing``; None for an instance of a compiled class, which takes none."""
    try:
        return weakref.ref(thing)
    except TypeError:
        # A compiled game state is a native class without a weak-reference slot: nothing can keep a weak
        # reference to it, so the fault below cannot reach it. Anything else must take one.
        assert "__mypyc_attrs__" in vars(type(thing)), f"{type(thing).__name__} refuses weak references"
        return None


def test_weak_references_to_states_and_games_die_with_them_and_the_collector_runs_safely() -> None:
    # In the compiled build, State and Game are native classes with game subclasses written in Python.
    # A compiled class with an interpreted base got a weak-reference slot that mypyc's generated code
    # (Python 3.11) released as if it owned it, so each weak reference to a freed state was freed once
    # too often and a later collection crashed the interpreter; hypothesis keeps such references to the
    # values it draws. Here every game's states, copies and re-sampled worlds are watched while they die
    # (those of a compiled game state take no weak reference, and are only collected).
    for game_id in astrarium.list_games():
        game = astrarium.get_game(game_id)
        game_ref = weakref.ref(game)
        watched = []
        for seed in range(12):
            state = game.new_game(game.min_players, seed)
            state.apply(state.legal_actions()[0])
            twin = state.clone()
            world = state.determinize(state.current_player, Rng(seed))
            refs = [ref for ref in (watch(state), watch(twin), watch(world)) if ref is not None]
            assert all(ref() is not None for ref in refs)
            watched += refs
            del state, twin, world
        gc.collect()  # one collection a game: each is a walk of the whole heap, whose size the test does not need
        assert all(ref() is None for ref in watched), f"{game_id}: a state outlived its last reference"
        assert game_ref() is game


def test_a_copy_plays_on_alone_in_every_game() -> None:
    # The copy is made field by field (native slots in the compiled build, __dict__ in the pure one).
    for game_id in astrarium.list_games():
        game = astrarium.get_game(game_id)
        state = game.new_game(game.min_players, 3)
        state.apply(state.legal_actions()[0])
        before = state.to_record()
        twin = state.clone()
        assert twin.to_record() == before and twin.full_view() == state.full_view()
        twin.apply(twin.legal_actions()[-1])
        assert state.to_record() == before
        assert twin.move_number == state.move_number + 1


def _hook():
    path = ROOT / "hatch_build.py"
    spec = importlib.util.spec_from_file_location("hatch_build_under_test", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("value", "mode"),
    [("", ""), ("0", ""), ("no", ""), ("false", ""), ("1", "1"), ("yes", "1"), ("require", "require"), (" REQUIRE ", "require")],
)
def test_the_hook_compiles_only_when_asked(monkeypatch: pytest.MonkeyPatch, value: str, mode: str) -> None:
    hook = _hook()
    monkeypatch.setenv(hook.ENV, value)
    assert hook.wanted() == mode


def test_the_hook_finds_no_compiler_when_there_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    hook = _hook()
    monkeypatch.setenv("CC", "no-such-compiler-here")
    assert hook.c_compiler() is None
