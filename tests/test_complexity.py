"""Every function stays plain: none above cyclomatic complexity 30 (radon's grades E and F), few above 20.

A rule with many cases is written as a table or as small named steps, not as a longer switch, so that each
step can be read, tested and changed alone. This test keeps it so: it names every function over the limit.
"""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Function

import astrarium

#: The highest cyclomatic complexity a function may have (radon grade D ends at 30).
LIMIT = 30
#: Above this a function is a hot path kept in one piece on purpose (or one on its way to smaller steps) ...
HIGH = 20
#: ... and no more than this many functions may be so.
MOST_HIGH = 5
SOURCES = Path(astrarium.__file__).parent


def _functions(source: str) -> list[Function]:
    """Every function and method of a module (radon lists each method on its own as well as inside its class)."""
    return [block for block in cc_visit(source) if isinstance(block, Function)]


def _over(limit: int) -> list[str]:
    """Every function above ``limit``, as ``path:line name (complexity)``."""
    found = []
    for path in sorted(SOURCES.rglob("*.py")):
        for function in _functions(path.read_text(encoding="utf-8")):
            if function.complexity > limit:
                found.append(f"{path.relative_to(SOURCES.parent)}:{function.lineno} {function.fullname} ({function.complexity})")
    return found


def test_no_function_above_the_limit() -> None:
    too_complex = []
    for path in sorted(SOURCES.rglob("*.py")):
        for function in _functions(path.read_text(encoding="utf-8")):
            if function.complexity > LIMIT:
                where = path.relative_to(SOURCES.parent)
                too_complex.append(f"{where}:{function.lineno} {function.fullname} ({function.complexity})")
    assert not too_complex, f"functions above cyclomatic complexity {LIMIT}: " + "; ".join(too_complex)


def test_at_most_a_handful_above_twenty() -> None:
    high = _over(HIGH)
    assert len(high) <= MOST_HIGH, f"{len(high)} functions above cyclomatic complexity {HIGH} (at most {MOST_HIGH}): " + "; ".join(high)
