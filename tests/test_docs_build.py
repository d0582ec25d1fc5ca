"""The documentation site and its API reference: `mkdocs build --strict` (what `make docs` and CI run) passes offline.

A broken link between the pages, a docstring that names an object that does not exist (a Sphinx
role in a module the reference shows), or a ``:::`` directive of a module that is gone fails the
build; the hooks that make README.md the home page and the roles links are checked on their own.
"""

from __future__ import annotations

import importlib.util
import logging
import subprocess
import sys
from pathlib import Path

import griffe
import pytest

ROOT = Path(__file__).resolve().parents[1]  # the checkout, not the install

import mkdocs  # noqa: F401,E402  (the docs extra, which make test installs: missing, these tests fail)
import mkdocstrings_handlers.python  # noqa: F401,E402


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts" / "docs_hooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_strict_build_has_no_warning(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=240,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "WARNING" not in output, output
    home = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "Using it from Python" in home and 'href="docs/' not in home and 'src="images/constellations.svg"' in home
    game = (tmp_path / "reference" / "game.html").read_text(encoding="utf-8")
    assert 'id="astrarium.core.game.State"' in game and 'id="astrarium.core.game.Game"' in game


def test_readme_links_become_links_within_the_docs() -> None:
    hooks = _hooks()
    text = '[a](docs/agents.md#levels) [r](docs/rules/) [b](docs/balance/) <img src="docs/images/x.svg"> [l](LICENSE)'
    assert hooks.readme_for_site(text, ROOT / "docs") == (
        '[a](agents.md#levels) [r](rules/README.md) [b](balance/README.md) <img src="images/x.svg"> [l](LICENSE)'
    )
    for target in ("docs/rules/README.md", "docs/balance/README.md"):
        assert (ROOT / target).is_file()  # the folders' pages, which GitHub shows below the listing too


def test_roles_resolve_to_cross_references_and_a_broken_one_is_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    hooks = _hooks()
    code = {
        "shown.py": '''"""See :func:`helper`, :class:`~pkg.shown.Thing`, :meth:`Thing.go` and :func:`gone`."""\n'''
        "def helper() -> None: ...\n"
        "class Thing:\n    def go(self) -> None: ...\n",
        "hidden.py": '"""Names :func:`missing`."""\n',
    }
    extensions = griffe.load_extensions(hooks.SphinxRoles(checked=["pkg.shown"]))
    with caplog.at_level(logging.WARNING), griffe.temporary_visited_package("pkg", code, extensions=extensions) as pkg:
        shown = pkg["shown"].docstring.value
        hidden = pkg["hidden"].docstring.value
    assert '<autoref identifier="pkg.shown.helper" optional><code>helper</code></autoref>' in shown
    assert '<autoref identifier="pkg.shown.Thing" optional><code>Thing</code></autoref>' in shown
    assert '<autoref identifier="pkg.shown.Thing.go" optional><code>Thing.go</code></autoref>' in shown
    assert "`gone`" in shown and hidden == "Names `missing`."
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and ":func:`gone`" in warnings[0], warnings
