"""Alembic's entry point for the web table's schema.

The server runs the migrations itself at start-up, on its own connection
(``astrarium.web.storage.Store.migrate`` passes it in ``config.attributes``).
Run by hand (``alembic -x url=sqlite:///astrarium.db upgrade head`` with this
folder as ``script_location``), it opens a plain synchronous connection.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from astrarium.web.storage import metadata


def run() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("give the database: alembic -x url=sqlite:///PATH upgrade head")
    engine = create_engine(url)
    with engine.begin() as own:
        context.configure(connection=own, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run()
