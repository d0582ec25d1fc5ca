"""How a web table server is set up: where it keeps its games, and the limits it holds strangers to.

One frozen value, passed to :func:`astrarium.web.create_app`, so a test can
build a server with a temporary data folder, fast computer players and tight
limits, and ``astrarium serve`` builds the same server from its command line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any


def default_data_dir() -> Path:
    """Where games are kept unless told otherwise: ``$XDG_DATA_HOME/astrarium`` (``~/.local/share/astrarium``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "astrarium"


#: Computer players by level: what a person picks in the lobby, and the player spec behind it. A spec that is itself a
#: level name stands for that level of the game being played (:func:`astrarium.agents.levels.table_spec`: the game's
#: tuned search, or its own best player), as at the terminal.
DEFAULT_LEVELS: Mapping[str, str] = MappingProxyType({"easy": "easy", "medium": "medium", "hard": "hard"})


@dataclass(frozen=True)
class Settings:
    """Everything a server needs; every field has a default that suits a table among friends."""

    #: The folder of the SQLite database (made when missing).
    data_dir: Path = field(default_factory=default_data_dir)
    #: A database URL (``postgresql+asyncpg://...`` or ``sqlite+aiosqlite:///...``); None: SQLite in ``data_dir``.
    db_url: str | None = None
    #: SQLite's ``synchronous`` setting in WAL mode: NORMAL survives a crash of the server (not of the machine's power).
    sqlite_synchronous: str = "NORMAL"
    #: Computer player levels offered in the lobby: level name -> player spec (a level name: the game's own level).
    levels: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_LEVELS))
    #: Processes that think for computer players (0: one fewer than the machine's cores, at least 1).
    computer_workers: int = 0
    #: Seconds a computer may think beyond its own budget before the server plays for it.
    think_margin: float = 5.0
    #: Seconds a computer without a time budget (e.g. ``greedy``) may think.
    think_timeout: float = 20.0
    #: The largest WebSocket message a client may send, in bytes.
    max_message_bytes: int = 4096
    #: The largest HTTP request body, in bytes (a new game with its options).
    max_body_bytes: int = 256 * 1024
    #: Messages a connection may send per second on average, and in a burst.
    messages_per_second: float = 10.0
    message_burst: int = 30
    #: Dropped messages after which a flooding connection is closed.
    flood_close_after: int = 200
    #: Chat lines one seat may send per second on average, and in a burst (kept per seat, so reconnecting resets nothing).
    chat_per_second: float = 0.5
    chat_burst: int = 10
    #: Open WebSocket connections one client address may have at once (a table page holds one).
    connections_per_address: int = 32
    #: New games one client address may make per minute.
    creates_per_minute: int = 30
    #: Seconds a new connection has to say which seat (or spectator) it is.
    hello_timeout: float = 10.0
    #: Open public games listed in the lobby, newest first.
    open_list_limit: int = 50

    def database_url(self) -> str:
        """The URL the server connects to."""
        if self.db_url:
            return normalise_url(self.db_url)
        return f"sqlite+aiosqlite:///{self.data_dir / 'astrarium.db'}"

    def workers(self) -> int:
        if self.computer_workers > 0:
            return self.computer_workers
        return max(1, (os.cpu_count() or 2) - 1)


#: The environment variable through which ``astrarium serve --processes N`` hands its settings to each server process.
SETTINGS_ENV = "ASTRARIUM_WEB_SETTINGS"


def settings_to_environment(settings: Settings) -> str:
    """The settings as JSON text, for server processes started by uvicorn (which import the app, not call it)."""
    values: dict[str, Any] = {}
    for item in fields(settings):
        value = getattr(settings, item.name)
        values[item.name] = str(value) if isinstance(value, Path) else dict(value) if isinstance(value, Mapping) else value
    return json.dumps(values)


def settings_from_environment(text: str) -> Settings:
    """The settings :func:`settings_to_environment` wrote; a field it does not know (or a missing one) is an error."""
    values = json.loads(text)
    if not isinstance(values, dict):
        raise ValueError(f"{SETTINGS_ENV} must hold a JSON object")
    known = {item.name for item in fields(Settings)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"{SETTINGS_ENV}: unknown settings {', '.join(unknown)}")
    if "data_dir" in values:
        values["data_dir"] = Path(values["data_dir"])
    return Settings(**values)


def normalise_url(url: str) -> str:
    """A database URL with its async driver: ``postgresql://`` becomes ``postgresql+asyncpg://``, ``sqlite://`` aiosqlite."""
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url
