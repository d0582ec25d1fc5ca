"""Shared test setup: hypothesis profiles (`quick` unless HYPOTHESIS_PROFILE names another), the toy game for core tests."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

from astrarium.core import registry  # noqa: E402
from helpers import PROFILE_EXAMPLES  # noqa: E402
from toygame import PileGame  # noqa: E402

# No deadlines: timing belongs in benchmarks, not in tests on a shared machine.
for _name, _count in PROFILE_EXAMPLES.items():
    settings.register_profile(_name, deadline=None, max_examples=_count, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))

registry.register(PileGame)


#: Where browser tests keep their screenshots and pages.
ARTIFACTS = Path(__file__).resolve().parent.parent / "build" / "test-artifacts"
#: Headless Chromium on a machine with no network but the package registries.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright; in CI its absence fails the test, elsewhere it skips saying what to install."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is required for the browser tests in CI (apt-get install chromium)")
        pytest.skip("browser tests need Chromium: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()
