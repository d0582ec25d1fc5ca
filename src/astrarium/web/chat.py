"""Chat and feedback at the web table: the players' chat lines, and what they think of a game at its end.

A chat line is cleaned (control characters become spaces, cut to
MAX_CHAT_CHARS), limited per seat (a burst, then a steady rate; the limit is
kept with the table, so reconnecting does not reset it), stored, and shown to
everyone at the table; lines stored through other server processes are shown
when their news comes. Feedback (how much fun, and a few words) is taken from
the players once the game is over and stored with it.
"""

from __future__ import annotations

from typing import Any

from astrarium.web.limits import RateLimit
from astrarium.web.protocol import MAX_CHAT_CHARS, MAX_FEEDBACK_CHARS
from astrarium.web.settings import Settings
from astrarium.web.storage import ChatLine
from astrarium.web.tables import ActError, Db, Table

#: Chat lines a newcomer is shown.
CHAT_BACKLOG = 50


class Chat:
    """The chat of every table, and the players' feedback at the end of a game."""

    def __init__(self, settings: Settings, db: Db) -> None:
        self.settings = settings
        self._db = db

    async def chat(self, table: Table, seat: int | None, text: str) -> None:
        """A seat's chat line: checked against its rate, cleaned, stored and shown to the table."""
        if seat is None:
            raise ActError("spectator", "spectators read the chat; the players write in it")
        settings = self.settings
        limit = table.chat_limits.get(seat)
        if limit is None:
            limit = table.chat_limits[seat] = RateLimit(settings.chat_per_second, settings.chat_burst)
        if not limit.allow():
            rate, burst = settings.chat_per_second, settings.chat_burst
            raise ActError("chat-flood", f"too many chat lines: at most {burst} at once and {rate:g} a second; this one was not sent")
        cleaned = clean_text(text, MAX_CHAT_CHARS)
        if not cleaned:
            raise ActError("bad-message", "an empty chat line")
        line = await self._db().add_chat(table.id, seat, cleaned)
        self.tell_chat(table, line)

    @staticmethod
    def tell_chat(table: Table, line: ChatLine) -> None:
        """Show a stored chat line to everyone at the table (once: a line already shown is not shown again)."""
        if line.id in table.chat_seen:
            return
        table.chat_seen.add(line.id)
        message = {"type": "chat", "lines": [chat_line(line)]}
        for conn in table.connections:
            conn.send(message)

    async def recent_chat(self, table: Table) -> list[dict[str, Any]]:
        """The last CHAT_BACKLOG lines, for a newcomer (and taken as shown)."""
        lines = await self._db().recent_chat(table.id, CHAT_BACKLOG)
        table.chat_seen.update(line.id for line in lines)
        return [chat_line(line) for line in lines]

    async def feedback(self, table: Table, seat: int | None, fun: int, text: str) -> None:
        """A player's feedback at the end of the game, stored with it."""
        if seat is None:
            raise ActError("spectator", "feedback comes from the players")
        if not table.state.is_over:
            raise ActError("not-over", "feedback is asked for at the end of the game")
        await self._db().put_feedback(table.id, seat, fun, clean_text(text, MAX_FEEDBACK_CHARS, lines=True))

    async def from_store(self, table: Table) -> None:
        """Show the chat lines stored through other processes that this one has not shown yet."""
        for line in await self._db().recent_chat(table.id, CHAT_BACKLOG):
            self.tell_chat(table, line)


def clean_text(text: str, limit: int, lines: bool = False) -> str:
    """A person's text, kept as text: control characters become spaces (newlines kept where ``lines``), cut to ``limit``."""
    kept = []
    for ch in text[: limit * 2]:
        if ch == "\n" and lines:
            kept.append(ch)
        elif ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or ch in "\u2028\u2029":
            kept.append(" ")
        else:
            kept.append(ch)
    return "".join(kept).strip()[:limit]


def chat_line(line: ChatLine) -> dict[str, Any]:
    """A chat line as sent to clients."""
    return {"id": line.id, "seat": line.seat, "text": line.text, "at": line.at.isoformat(timespec="seconds")}
