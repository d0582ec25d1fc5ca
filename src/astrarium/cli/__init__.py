"""The terminal front end: the ``astrarium`` command, its menu and the play loop."""

from astrarium.cli.app import app, main

__all__ = ["app", "main"]
