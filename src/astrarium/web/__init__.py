"""The web table: play any astrarium game in a browser with friends and computer players.

``create_app(Settings(...))`` builds the ASGI application (FastAPI): a lobby
API, a browser client served as plain files, and one WebSocket per table page
for live play. Games are stored as their records (SQLite by default,
PostgreSQL for larger installs) and rebuilt by replay when the server starts.
``astrarium serve`` runs it with uvicorn (:func:`astrarium.web.serve.run`).
docs/server.md says how to run it and what it stores.
"""

from astrarium.web.app import create_app
from astrarium.web.settings import Settings

__all__ = ["Settings", "create_app"]
