"""The checks every astrarium game passes (astrarium.testing), run on this game: the same as `astrarium check starter-game`."""

from __future__ import annotations

import pytest

from astrarium.testing import Case, conformance_tests


@pytest.mark.parametrize("case", conformance_tests("starter-game"), ids=str)
def test_conformance(case: Case) -> None:
    case()
