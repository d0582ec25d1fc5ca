"""The games. Each sub-package is one game, declared as an entry point of the group ``astrarium.games``.

astrarium's ``pyproject.toml`` names each game's ``Game`` subclass there, and
the registry (``core.registry``) registers what the entry points name, checking
each game's declared parts (``core.contract``); a designer's package plugs its
game in the same way.
"""
