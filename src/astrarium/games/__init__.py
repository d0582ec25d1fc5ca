"""The games. Each sub-package is one game and registers itself when imported.

The registry imports every sub-package found here, so adding a game is adding
its folder: nothing else in astrarium names it.
"""
