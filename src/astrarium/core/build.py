"""Which build of astrarium is running: the pure-Python package, or the one compiled with mypyc.

The compiled build (``ASTRARIUM_COMPILE=1 pip install .``, see ``hatch_build.py``)
puts a C extension module beside the source of each compiled module, and
Python imports the extension first. So the build is read off the installed
files: a module is compiled when the file its import would load is an
extension module.
"""

from __future__ import annotations

import importlib.machinery
from functools import lru_cache
from pathlib import Path

#: The module whose form decides the name of the build: the rules' core, which every game runs through.
_WITNESS = "astrarium.core.game"


@lru_cache(maxsize=1)
def compiled_modules() -> tuple[str, ...]:
    """The astrarium modules installed as compiled extension modules, sorted (empty for the pure-Python package)."""
    package = Path(__file__).resolve().parent.parent
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = []
    for path in package.rglob("*"):
        for suffix in suffixes:
            if path.name.endswith(suffix) and path.is_file():
                relative = path.relative_to(package.parent).as_posix()[: -len(suffix)]
                found.append(relative.replace("/", "."))
                break
    return tuple(sorted(found))


def build_kind() -> str:
    """``"compiled with mypyc, N modules"`` or ``"pure Python"``: what ``astrarium --version`` reports."""
    modules = compiled_modules()
    if not modules:
        return "pure Python"
    if _WITNESS not in modules:
        return f"partly compiled with mypyc, {len(modules)} modules; the core is pure Python"
    return f"compiled with mypyc, {len(modules)} modules"
