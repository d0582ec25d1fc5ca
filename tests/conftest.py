"""Shared test setup: hypothesis profiles, and the toy game registered for core tests."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

from astrarium.core import registry  # noqa: E402
from toygame import PileGame  # noqa: E402

# No deadlines: timing belongs in benchmarks, not in tests on a shared machine.
settings.register_profile("default", deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

registry.register(PileGame)
