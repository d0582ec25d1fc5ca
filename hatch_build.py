"""The compiled build of astrarium: a hatch build hook that compiles the rules' hot modules with mypyc.

``ASTRARIUM_COMPILE=1 pip install .`` (or ``python -m build --wheel`` with the
variable set) turns the modules listed under ``modules`` in this hook's table
of ``pyproject.toml`` into C extension modules with mypyc, as black and mypy
ship themselves. Each extension sits beside its source in the wheel, and Python
imports the extension first; ``astrarium.core.build_kind()`` (and
``astrarium --version``) says which build is running.

The pure-Python package is the fallback, never an error: without the variable,
for an editable install, without a C compiler, or when mypyc is missing or
fails, the wheel is the plain package, which behaves the same, only slower
(``tests/test_speed_equivalence.py`` checks that both play the same games).
``ASTRARIUM_COMPILE=require`` makes a failed compilation an error instead, for
CI, where a silent fallback would test the wrong build.

Which modules: the rules and the core that the hot loop runs through (the
game API's ``State`` and ``Game``, the seeded generator, each game's state
module and its hot helpers, such as the board modules), always together, since
a compiled core calling interpreted game code is slower than no compiled core
(docs/performance.md has the figures). Modules that declare pydantic schemas, action classes or errors, draw
pictures or are only imported on demand stay interpreted: mypyc
cannot compile a class built by pydantic's metaclass, a compiled dataclass
checks its field types when it is built (the rules promise a clear refusal from
``apply`` for an action built with any field values), a compiled exception
class carries the same weak-reference fault as the one described in
``astrarium/core/game.py`` above ``Game``, and compiling code off the hot path
only costs build time.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The environment variable that asks for the compiled build ("1": when possible, "require": or fail).
ENV = "ASTRARIUM_COMPILE"
#: What compiling needs besides the package's own dependencies (mypy reads their types while compiling).
COMPILER_REQUIREMENTS = ["mypy>=1.11", "setuptools>=65"]
#: The type checker's settings while compiling: the optional extras' libraries (numpy for the learning part) are
#: not in the build environment, so the modules that import them inside functions are read without their types.
MYPY_CONFIG = "[mypy]\n\n[mypy-numpy,numpy.*]\nignore_missing_imports = True\n"


def wanted() -> str:
    """``""`` (pure Python), ``"1"`` (compile when possible) or ``"require"`` (compile or fail), from the environment."""
    value = os.environ.get(ENV, "").strip().lower()
    if value in ("", "0", "no", "false"):
        return ""
    return "require" if value == "require" else "1"


def c_compiler() -> str | None:
    """The C compiler this Python builds extensions with (``CC``, else the one Python was built with), if installed."""
    command = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return shutil.which(command[0]) if command else None


class CompileHook(BuildHookInterface):
    """Compiles ``modules`` (paths relative to the project root) into the wheel when asked to."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if not wanted():
            return []
        return [*COMPILER_REQUIREMENTS, *self.metadata.core.dependencies]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        mode = wanted()
        if self.target_name != "wheel" or version == "editable" or not mode:
            return
        try:
            built = self._compile()
        except Exception as exc:  # any failure of the optional compiler falls back to the pure-Python wheel
            if mode == "require":
                raise
            self.app.display_warning(f"astrarium: compiling with mypyc failed ({exc}); building the pure-Python package")
            return
        for relative, path in built.items():
            build_data["force_include"][str(path)] = relative
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"astrarium: compiled {len(built)} extension modules with mypyc")

    def _compile(self) -> dict[str, Path]:
        """Compile the listed modules; returns wheel path -> built extension file."""
        if c_compiler() is None:
            raise RuntimeError("no C compiler found (set CC, or install gcc or clang)")
        from mypyc.build import mypycify  # the build requirement; imported only when compiling
        from setuptools import Distribution
        from setuptools.command.build_ext import build_ext

        root = Path(self.root)
        sources = root / self.config.get("sources", "src")
        modules = [str(m) for m in self.config.get("modules", [])]
        if not modules:
            raise RuntimeError("no modules to compile are listed in the hook's 'modules'")
        work = Path(tempfile.mkdtemp(prefix="astrarium-mypyc-"))
        self._work = work
        config = work / "mypy.ini"
        config.write_text(MYPY_CONFIG, encoding="utf-8")
        previous = os.getcwd()
        os.chdir(sources)  # mypyc names modules by their path from here (astrarium/core/game.py -> astrarium.core.game)
        try:
            extensions = mypycify(
                [f"--config-file={config}", *modules],
                opt_level=str(self.config.get("opt-level", "3")),
                target_dir=str(work / "c"),
                group_name="astrarium",
                verbose=False,
            )
            distribution = Distribution({"name": "astrarium", "ext_modules": extensions})
            command = build_ext(distribution)
            command.build_lib = str(work / "lib")
            command.build_temp = str(work / "temp")
            command.parallel = os.cpu_count() or 1
            command.ensure_finalized()
            command.run()
        finally:
            os.chdir(previous)
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        built = {path.relative_to(work / "lib").as_posix(): path for path in (work / "lib").rglob(f"*{suffix}")}
        if not built:
            raise RuntimeError("mypyc produced no extension modules")
        return built

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":  # pragma: no cover - a reminder for someone who runs the file by hand
    sys.exit(f"this is a build hook; build with: {ENV}=1 python -m build --wheel")
