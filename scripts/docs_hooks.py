"""The documentation site's hooks (mkdocs.yml): README.md as the home page, and the docstrings' Sphinx roles as links.

The README is written for a reader of the repository, so its links start at the repository's root
(``docs/agents.md``, ``docs/images/...``). The site's pages live in docs/, so on the home page those
links lose their ``docs/`` prefix, and a link to a folder (``docs/rules/``) goes to that folder's
README.md. Any other relative link is left as it is, for mkdocs' strict build to report.

The docstrings name other objects with Sphinx roles (``:func:`place```, ``:class:`~astrarium.core.svg.Svg```).
:class:`SphinxRoles`, a griffe extension (mkdocs.yml, the python handler's ``extensions``), resolves
each name in the scope of the object whose docstring holds it: a name that resolves becomes a
cross-reference (a link where the reference documents its target, code text elsewhere). In the
docstrings of the modules the reference shows (the extension's ``checked`` list) a name that does not resolve is a
warning, so that ``mkdocs build --strict`` fails on it; elsewhere it stays code text.
"""

from __future__ import annotations

import fnmatch
import re
from functools import partial
from pathlib import Path
from typing import Any

import griffe

HOME = "index.md"
_LINK = re.compile(r"(\]\(|src=\")docs/([^)\"#\s]*)")
#: a Sphinx role: :func:`name`, :class:`~dotted.name`, :meth:`text <dotted.name>`
ROLE = re.compile(r":(?:py:)?(?P<role>mod|func|class|meth|attr|data|exc|obj|const):`(?P<body>[^`]+)`")
_logger = griffe.get_logger("astrarium.docs")


def _site_target(target: str, docs: Path) -> str:
    if target == "" or target.endswith("/"):
        folder = target.rstrip("/")
        return f"{folder}/README.md" if folder and (docs / folder / "README.md").is_file() else target
    return target


def readme_for_site(text: str, docs: Path) -> str:
    """The README's text with its ``docs/...`` links made relative to the docs folder."""
    return _LINK.sub(lambda m: m.group(1) + _site_target(m.group(2), docs), text)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """The home page's text is the README's (mkdocs hook)."""
    if page.file.src_uri != HOME:
        return markdown
    root = Path(config["config_file_path"]).parent
    return readme_for_site((root / "README.md").read_text(encoding="utf-8"), Path(config["docs_dir"]))


def _exists(collection: Any, path: str) -> bool:
    try:
        collection.get_member(path)
    except (KeyError, ValueError, AttributeError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return False
    return True


def resolve_role(obj: griffe.Object, name: str) -> str | None:
    """The full path of ``name`` as seen from ``obj`` (its scope, its parents', then the whole package), or None."""
    name = name.strip().lstrip(".").removesuffix("()")
    collection = obj.modules_collection
    head, _, rest = name.partition(".")
    try:
        start = obj.resolve(head)
    except griffe.NameResolutionError:
        start = head
    full = f"{start}.{rest}" if rest else start
    if _exists(collection, full):
        return full
    if not full.startswith(obj.package.name + "."):
        # A name from outside the package (the standard library, a dependency): nothing to check it against.
        return full if "." in full or start != head else None
    return None


def _checked(obj: griffe.Object, patterns: tuple[str, ...]) -> bool:
    """Whether the module of ``obj`` is one the reference shows (``patterns``: module paths, ``*`` for any part)."""
    return any(fnmatch.fnmatchcase(obj.module.path, pattern) for pattern in patterns)


def role_to_markdown(obj: griffe.Object, match: re.Match[str], checked: tuple[str, ...] = ()) -> str:
    """One role as Markdown: a cross-reference to its target, or code text (with a warning if ``obj`` is checked)."""
    body = match.group("body")
    explicit = re.fullmatch(r"(?P<text>.+?)\s*<(?P<target>[^>]+)>", body)
    target = explicit.group("target") if explicit else body.lstrip("~")
    shown = explicit.group("text") if explicit else (target.rsplit(".", 1)[-1] if body.startswith("~") else target)
    full = resolve_role(obj, target)
    if full is None:
        if not _checked(obj, checked):
            return f"`{shown}`"
        where = obj.path if obj.lineno is None else f"{obj.filepath}:{obj.lineno}"
        _logger.warning("%s: the docstring names %s, which does not resolve", where, match.group(0))
        return f"`{shown}`"
    if not full.startswith(obj.package.name + "."):
        return f"`{shown}`"
    return f'<autoref identifier="{full}" optional><code>{shown}</code></autoref>'


class SphinxRoles(griffe.Extension):
    """Turns the Sphinx roles of every docstring into cross-references, once the whole package is loaded."""

    def __init__(self, checked: list[str] | None = None) -> None:
        super().__init__()
        self.checked = tuple(checked or ())

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        seen: set[int] = set()
        stack: list[griffe.Object] = [pkg]
        while stack:
            obj = stack.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.docstring is not None and ":" in obj.docstring.value:
                obj.docstring.value = ROLE.sub(partial(role_to_markdown, obj, checked=self.checked), obj.docstring.value)
            stack.extend(member for member in obj.members.values() if isinstance(member, griffe.Object))
