"""The messages of the web table's WebSocket, both ways.

A client sends JSON objects with a ``type``:

* ``hello``: ``{"type": "hello", "token": T, "since": N}``, first, once: the
  seat link's token (or the spectator link's; none to watch a public game), and
  the last move the client has already seen (0 for a fresh page), so the event
  log resumes where it stopped; ``"picture": false`` for a client that draws
  nothing (positions then come without their SVG);
* ``act``: ``{"type": "act", "action": NOTATION, "move": N, "ref": R}``: play an
  action in the position after move N (the move the client is looking at; a
  stale N is refused, so a resent action is never played twice); ``ref`` is
  the client's own label, echoed in the ``ack`` or ``error``;
* ``ping``: ``{"type": "ping"}``, answered by ``pong``;
* ``chat``: ``{"type": "chat", "text": T}``: a line for everyone at the table (players only);
* ``handover``: ``{"type": "handover", "seat": S, "level": L}``: a computer of level L plays
  seat S, whose player has gone (asked by another seat);
* ``takeback``: ``{"type": "takeback"}``: the seat's own person plays it again;
* ``feedback``: ``{"type": "feedback", "fun": 1-5, "text": T}``: after the end, per seat.

The server sends ``welcome``, ``state``, ``seats``, ``chat``, ``ack``, ``error``, ``thanks`` and ``pong``
(built by the functions below; docs/server.md lists their fields).

Everything here is read from a stranger, so it is checked before anything is
built from it: size first (the caller), then JSON, then one strict pydantic
model per type (exact types, unknown keys refused, bounded text). Error
messages never echo more than a short piece of the input.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from astrarium.core.errors import short
from astrarium.core.game import MAX_NOTATION_CHARS

#: The longest link token accepted (``secrets.token_urlsafe(24)`` is 32 characters).
MAX_TOKEN_CHARS = 100
#: The longest ``ref`` label a client may attach.
MAX_REF_CHARS = 40
#: The longest chat line and feedback text a client may send, in characters.
MAX_CHAT_CHARS = 300
MAX_FEEDBACK_CHARS = 2000


class CodedError(Exception):
    """An error a client is told of: ``code`` is a stable word for clients, ``message`` a sentence for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ProtocolError(CodedError):
    """A message the server cannot take."""


class _Message(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


Ref = Annotated[str, Field(max_length=MAX_REF_CHARS)] | Annotated[int, Field(ge=0, le=2**53)]


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN_CHARS)] | None = None
    since: Annotated[int, Field(ge=0, le=10**9)] = 0
    #: False for a client that draws nothing (a bot reading the view): positions come without the SVG.
    picture: bool = True


class Act(_Message):
    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=MAX_NOTATION_CHARS)]
    move: Annotated[int, Field(ge=0, le=10**9)]
    ref: Ref | None = None


class Ping(_Message):
    type: Literal["ping"]
    ref: Ref | None = None


class Chat(_Message):
    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_CHARS)]


class Handover(_Message):
    type: Literal["handover"]
    seat: Annotated[int, Field(ge=0, le=15)]
    level: Annotated[str, Field(min_length=1, max_length=32)]


class Takeback(_Message):
    type: Literal["takeback"]


class Feedback(_Message):
    type: Literal["feedback"]
    fun: Annotated[int, Field(ge=1, le=5)]
    text: Annotated[str, Field(max_length=MAX_FEEDBACK_CHARS)] = ""


ClientMessage = Hello | Act | Ping | Chat | Handover | Takeback | Feedback
_MODELS: dict[str, type[_Message]] = {
    "hello": Hello,
    "act": Act,
    "ping": Ping,
    "chat": Chat,
    "handover": Handover,
    "takeback": Takeback,
    "feedback": Feedback,
}


def load_json(text: str | bytes, what: str = "the message") -> Any:
    """JSON from a stranger (already within a size limit), or a ProtocolError that says where it breaks."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProtocolError("not-json", f"{what} is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    except RecursionError as exc:
        raise ProtocolError("not-json", f"{what} is nested too deeply") from exc
    except ValueError as exc:  # an integer of thousands of digits, or bytes that are not UTF-8
        raise ProtocolError("not-json", f"{what} is not JSON the server reads ({short(str(exc), 60)})") from exc


def parse_client_message(text: str) -> ClientMessage:
    """The message in ``text`` (already within the size limit), or a ProtocolError saying what is wrong with it."""
    data = load_json(text)
    if not isinstance(data, dict):
        raise ProtocolError("bad-message", f"a message is a JSON object with a 'type', not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _MODELS:
        known = ", ".join(sorted(_MODELS))
        raise ProtocolError("bad-message", f"unknown message type {short(repr(kind), 40)}; the types are {known}")
    try:
        message = _MODELS[kind].model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or kind
        raise ProtocolError("bad-message", f"{kind} message, field {short(where, 40)}: {short(first.get('msg', 'invalid'), 80)}") from exc
    assert isinstance(message, Hello | Act | Ping | Chat | Handover | Takeback | Feedback)
    return message


def dumps(message: dict[str, Any]) -> str:
    """A message as compact JSON text, ASCII only.

    ASCII (``\\u00b7`` for ``·``) because a picture holds a few symbols outside
    Latin-1, which makes the whole text two bytes a character in Python: then
    encoding it, and every later step with it, is markedly slower than for
    ASCII text, at the cost of a few bytes more on the wire.
    """
    return json.dumps(message, separators=(",", ":"))


def error(code: str, message: str, ref: str | int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["ref"] = ref
    return out


def ack(move: int, action: str, ref: str | int | None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "ack", "move": move, "action": action}
    if ref is not None:
        out["ref"] = ref
    return out


def pong(ref: str | int | None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "pong"}
    if ref is not None:
        out["ref"] = ref
    return out
