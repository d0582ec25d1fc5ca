"""Which build is running, and the build hook's choice between the compiled and the pure-Python package.

``make test-compiled`` (run by CI) installs the compiled build into its own
environment and sets ``ASTRARIUM_EXPECT_BUILD=compiled``, so these tests fail
there if the package silently fell back to pure Python.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import astrarium
from astrarium.cli.app import app
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
