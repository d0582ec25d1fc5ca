"""The web table's ASGI application: one factory, :func:`create_app`, used by ``astrarium serve`` and the tests.

HTTP serves the lobby's API, the two pages and their static files; one
WebSocket per open table page carries the game (see :mod:`astrarium.web.protocol`).

Trust boundary: every request body and WebSocket message is size-checked,
parsed as JSON with errors caught, and validated by a strict model before the
server acts on it. Errors go back to that client alone as
``{"error": {"code", "message"}}`` (HTTP) or an ``error`` message (WebSocket);
no stack trace ever leaves the server, and the server's log names where a
fault happened without quoting what it was about (a message may hold a card).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import re
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import parse_qs, urlsplit

import anyio
from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketState

from astrarium.core import get_game
from astrarium.core.errors import UnknownGame, short
from astrarium.core.svg import SEAT_MARKS
from astrarium.pictures import record_to_html
from astrarium.web.catalogue import catalogue
from astrarium.web.hub import Hub
from astrarium.web.limits import RateLimit
from astrarium.web.protocol import (
    MAX_TOKEN_CHARS,
    Act,
    Chat,
    Feedback,
    Handover,
    Hello,
    Ping,
    ProtocolError,
    Takeback,
    dumps,
    error,
    load_json,
    parse_client_message,
    pong,
)
from astrarium.web.settings import Settings
from astrarium.web.tables import ActError, Connection, RequestError, Table, log_failure, seat_label

STATIC = Path(__file__).resolve().parent / "static"

#: The content security policy of every page: scripts only from our own files (no inline script, no eval).
#: Pictures are SVG with their own <style>, so inline styles are allowed; nothing is loaded from elsewhere.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
}

# WebSocket close codes (4000-4999 are the application's own).
CLOSE_BAD_HELLO = 4400
CLOSE_BAD_LINK = 4403
CLOSE_UNKNOWN_GAME = 4404
CLOSE_HELLO_TIMEOUT = 4408
CLOSE_FLOOD = 4429
CLOSE_TOO_MANY_CONNECTIONS = 4430
CLOSE_SERVER_ERROR = 1011
CLOSE_GOING_AWAY = 1001


# -- request bodies ------------------------------------------------------------
class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class SeatRequest(_Body):
    kind: Literal["person", "computer"]
    level: Annotated[str, Field(max_length=32)] | None = None


class ClockRequest(_Body):
    """A chess clock for every seat: minutes each, seconds added after each move, and what happens at zero."""

    minutes: Annotated[float, Field(gt=0, le=60 * 24 * 14)]
    increment: Annotated[float, Field(ge=0, le=3600)] = 0.0
    at_zero: Literal["computer", "nothing"] = "computer"
    level: Annotated[str, Field(max_length=32)] | None = None


class CreateRequest(_Body):
    game: Annotated[str, Field(min_length=1, max_length=64)]
    players: Annotated[int, Field(ge=1, le=16)] | None = None
    seats: Annotated[list[SeatRequest], Field(min_length=1, max_length=16)]
    options: Annotated[dict[Annotated[str, Field(max_length=64)], Any], Field(max_length=100)] = Field(default_factory=dict)
    public: bool = False
    me: Annotated[int, Field(ge=0, le=15)] | None = None
    clock: ClockRequest | None = None


class JoinRequest(_Body):
    """Taking a seat of a public game says nothing more than which game (in the address): the body is ``{}`` or empty."""


class LinkRequest(_Body):
    """A seat's or the spectator's link token, which opens a private game's record and replay."""

    token: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN_CHARS)]


#: The largest body of a request that carries only a link token (a record or replay of a private game).
MAX_LINK_BODY = 1024


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) beyond ``limit`` bytes without reading the rest."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise RequestError(413, "too-big", f"the request is larger than {limit:,} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RequestError(413, "too-big", f"the request is larger than {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def media_type(request: Request) -> str:
    """The request's content type without its parameters (``application/json; charset=utf-8`` -> ``application/json``)."""
    return request.headers.get("content-type", "").partition(";")[0].strip().lower()


def check_origin(request: Request) -> None:
    """Refuse (403) a request whose browser says it comes from another site: its ``Origin`` names another host.

    A request without ``Origin`` (a script, curl) is let through; what it may
    do is held by the content type (:func:`require_json`), which a page of
    another site cannot send without the browser asking this server first.
    """
    origin = request.headers.get("origin")
    if origin is None:
        return
    if not same_host(origin, request.headers.get("host", "")):
        raise RequestError(403, "cross-site", "requests from another site's pages are refused")


def same_host(origin: str, host: str) -> bool:
    """Whether a browser's ``Origin`` (``https://name:port``) names the host the request was sent to (``Host``).

    A ``Host`` without a port (as a reverse proxy may forward it) matches the
    origin's host name on any port; with a port, the ports must match too.
    """
    try:
        seen, wanted = urlsplit(origin), urlsplit("//" + host)
        seen_port, wanted_port = seen.port, wanted.port
    except ValueError:
        return False
    if seen.scheme not in ("http", "https") or not seen.hostname or seen.hostname != wanted.hostname:
        return False
    if wanted_port is None:
        return True
    return (seen_port or (443 if seen.scheme == "https" else 80)) == wanted_port


def require_json(request: Request) -> None:
    """Refuse (415) a body that is not declared JSON: a page of another site can send text/plain or a form unasked."""
    if media_type(request) != "application/json":
        raise RequestError(415, "not-json", "send the request as JSON, with the header Content-Type: application/json")


async def json_request(request: Request, limit: int) -> Any:
    """The JSON body of a request that changes something: from this site, declared JSON, within ``limit`` bytes."""
    check_origin(request)
    require_json(request)
    body = await read_body(request, limit)
    try:
        return load_json(body, "the request") if body.strip() else {}
    except ProtocolError as exc:
        raise RequestError(400, exc.code, exc.message) from exc


async def link_token(request: Request) -> str:
    """The link token a record or replay request carries: a form field ``token`` (the table page's) or JSON ``{"token"}``.

    Its ``Origin`` is not checked: the request only reads, and only with a link
    its sender holds (and the table page's form is sent with ``Origin: null``, as
    its referrer policy is ``no-referrer``).
    """
    body = await read_body(request, MAX_LINK_BODY)
    kind = media_type(request)
    if kind == "application/x-www-form-urlencoded":
        try:
            fields = parse_qs(body.decode("utf-8"), strict_parsing=True, max_num_fields=4)
        except (UnicodeDecodeError, ValueError) as exc:
            raise RequestError(400, "bad-request", "the form could not be read") from exc
        data: Any = {key: values[0] for key, values in fields.items() if len(values) == 1}
    elif kind == "application/json":
        try:
            data = load_json(body, "the request")
        except ProtocolError as exc:
            raise RequestError(400, exc.code, exc.message) from exc
    else:
        raise RequestError(415, "not-json", "send the link's token as JSON or as a form field 'token'")
    try:
        return LinkRequest.model_validate(data).token
    except ValidationError as exc:
        raise RequestError(400, "bad-request", _model_error(exc, "link")) from exc


def _model_error(exc: ValidationError, what: str) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or what
    return f"{what}, field {short(where, 60)}: {short(first.get('msg', 'invalid'), 100)}"


def problem(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers={"cache-control": "no-store"})


# -- middleware ----------------------------------------------------------------
class SecurityHeaders:
    """Adds the security headers to every HTTP response that does not set its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
                if "location" in headers:
                    headers["location"] = relative_location(headers["location"])
            await send(message)

        await self.app(scope, receive, send_with_headers)


def relative_location(location: str) -> str:
    """A redirect's target as a path on this server (``/static/``): never the request's own ``Host``, which a stranger
    sets, and never ``//name`` (which a browser would read as another host)."""
    parts = urlsplit(location)
    path = "/" + parts.path.lstrip("/\\")
    return path + (f"?{parts.query}" if parts.query else "")


class ContainErrors:
    """A fault in a handler becomes a bare 500 (or a closed WebSocket): logged without its text, never shown."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:
            log_failure(f"{scope['type']} {scope.get('path', '?')}", exc)
            if started:
                return
            if scope["type"] == "http":
                body = json.dumps({"error": {"code": "internal", "message": "the server failed; nothing was changed"}}).encode()
                await send({"type": "http.response.start", "status": 500, "headers": [(b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": body})
            elif scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": CLOSE_SERVER_ERROR})


# -- the WebSocket session -------------------------------------------------------
class Disconnected(Exception):
    pass


class Session:
    """One WebSocket: say hello (which seat, or a spectator), then messages until either side leaves."""

    def __init__(self, hub: Hub, websocket: WebSocket) -> None:
        self.hub = hub
        self.ws = websocket
        self.settings = hub.settings
        self.limit = RateLimit(self.settings.messages_per_second, self.settings.message_burst)

    async def receive(self) -> str | None:
        """The next text message (None for a binary one); Disconnected when the client has gone."""
        message = await self.ws.receive()
        if message["type"] == "websocket.disconnect":
            raise Disconnected
        text = message.get("text")
        return text if isinstance(text, str) else None

    def check(self, text: str | None) -> dict[str, Any] | None:
        """An error for a message that is binary or too big, or None when it may be parsed."""
        if text is None:
            return error("bad-message", "messages are JSON text, not binary")
        limit = self.settings.max_message_bytes
        if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
            return error("too-big", f"a message is at most {limit:,} bytes")
        return None

    async def send_now(self, message: dict[str, Any]) -> None:
        await self.ws.send_text(dumps(message))

    async def close(self, code: int) -> None:
        if self.ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await self.ws.close(code)

    async def refuse(self, code: int, message: dict[str, Any]) -> None:
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await self.send_now(message)
        await self.close(code)

    async def run(self, table_id: str) -> None:
        try:
            first = await asyncio.wait_for(self.receive(), self.settings.hello_timeout)
        except TimeoutError:
            await self.refuse(CLOSE_HELLO_TIMEOUT, error("hello-first", "say hello first: send the link's token"))
            return
        problem_found = self.check(first)
        if problem_found is not None:
            await self.refuse(CLOSE_BAD_HELLO, problem_found)
            return
        assert first is not None
        try:
            hello = parse_client_message(first)
        except ProtocolError as exc:
            await self.refuse(CLOSE_BAD_HELLO, error(exc.code, exc.message))
            return
        if not isinstance(hello, Hello):
            await self.refuse(CLOSE_BAD_HELLO, error("hello-first", "the first message must be a hello with the link's token"))
            return
        table = await self.hub.table(table_id)
        if table is None:
            if table_id in self.hub.broken:
                await self.refuse(CLOSE_UNKNOWN_GAME, error("unavailable", "this game cannot be continued on this server"))
            else:
                await self.refuse(CLOSE_UNKNOWN_GAME, error("unknown-game", "there is no game with this id"))
            return
        if hello.token is None:
            # Anyone may watch a public game; a private one needs its spectator link.
            found, seat = table.public, None
        else:
            found, seat = table.identify(hello.token)
            if not found and not table.state.is_over:
                await self.hub.refresh_seats(table)  # a seat may have been taken through another server process
                found, seat = table.identify(hello.token)
        if not found:
            await self.refuse(CLOSE_BAD_LINK, error("bad-link", "this link does not open a seat or the spectator's view of this game"))
            return
        if seat is not None:
            await self.hub.claim(table, seat)
        await self.play(table, seat, hello.since, hello.picture)

    async def play(self, table: Table, seat: int | None, since: int, pictures: bool) -> None:
        conn = Connection(table, seat, min(since, table.state.move_number), self.ws.send_text, pictures)
        chat = await self.hub.recent_chat(table)
        table.connections.add(conn)
        conn.send(welcome(table, seat, chat, list(self.settings.levels)))
        conn.refresh()
        if seat is not None:
            self.hub.seat_came_or_went(table)  # the others (here and through other server processes) see this seat's player arrive
        reader = asyncio.create_task(self.read(conn))
        writer = asyncio.create_task(conn.writer())
        closed = asyncio.create_task(conn.closed.wait())
        try:
            done, _ = await asyncio.wait({reader, writer, closed}, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if task is not closed and not task.cancelled() and task.exception() is not None:
                    failure = task.exception()
                    if not isinstance(failure, Disconnected | WebSocketDisconnect | RuntimeError):
                        assert failure is not None
                        log_failure(f"connection to game {table.id}", failure)
        finally:
            for task in (reader, writer, closed):
                task.cancel()
            table.connections.discard(conn)
            if seat is not None and not self.hub.stopping:
                self.hub.seat_came_or_went(table)
            self.hub.forget_if_idle(table)
        if self.limit.dropped > self.settings.flood_close_after:
            await self.close(CLOSE_FLOOD)
        else:
            await self.close(CLOSE_GOING_AWAY if self.hub.stopping else 1000)

    async def read(self, conn: Connection) -> None:
        while True:
            text = await self.receive()
            if not self.limit.allow():
                if self.limit.dropped > self.settings.flood_close_after:
                    conn.send(error("flood", "too many messages; the connection is closed"))
                    await asyncio.sleep(0.05)
                    return
                if self.limit.warn_now():
                    rate = self.settings.messages_per_second
                    conn.send(error("flood", f"too many messages: at most {rate:g} a second; some were ignored"))
                continue
            problem_found = self.check(text)
            if problem_found is not None:
                conn.send(problem_found)
                continue
            assert text is not None
            try:
                message = parse_client_message(text)
            except ProtocolError as exc:
                conn.send(error(exc.code, exc.message))
                continue
            if isinstance(message, Ping):
                conn.send(pong(message.ref))
            elif isinstance(message, Hello):
                conn.send(error("bad-message", "hello is said once, at the start"))
            elif isinstance(message, Act):
                try:
                    await self.hub.act_and_tell(conn.table, conn.seat, message.action, message.move, conn, message.ref)
                except ActError as exc:
                    conn.send(error(exc.code, exc.message, message.ref))
            else:
                try:
                    await self.other(conn, message)
                except ActError as exc:
                    conn.send(error(exc.code, exc.message))

    async def other(self, conn: Connection, message: Chat | Handover | Takeback | Feedback) -> None:
        """Chat, handing a seat over or taking it back, feedback at the end."""
        hub, table = self.hub, conn.table
        if isinstance(message, Chat):
            await hub.chat(table, conn.seat, message.text)
        elif isinstance(message, Handover):
            if conn.seat is None:
                raise ActError("spectator", "only the players can hand a seat to a computer")
            await hub.hand_over(table, message.seat, message.level, by=conn.seat)
        elif isinstance(message, Takeback):
            if conn.seat is None:
                raise ActError("spectator", "a spectator has no seat to take back")
            await hub.take_back(table, conn.seat)
        else:
            await hub.feedback(table, conn.seat, message.fun, message.text)
            conn.send({"type": "thanks"})


def welcome(table: Table, seat: int | None, chat: list[dict[str, Any]], levels: list[str]) -> dict[str, Any]:
    game = table.game
    return {
        "type": "welcome",
        "table": table.id,
        "game": {
            "id": game.id,
            "title": game.title,
            "notation_help": game.notation_help,
            "picture": table.picture,
            "buttons": sorted(game.button_tokens()) if table.picture else [],
        },
        "seat": seat,
        "you": "spectator" if seat is None else seat_label(seat),
        "players": table.state.players,
        "seats": table.seat_list(),
        "marks": list(SEAT_MARKS),
        "levels": levels,
        "clock": table.clock,
        "chat": chat,
    }


# -- the application --------------------------------------------------------------
def create_app(settings: Settings | None = None) -> FastAPI:
    """The web table as an ASGI app: lobby API, pages, WebSocket play. Start-up migrates the store and rebuilds unfinished games."""
    settings = settings or Settings()
    hub = Hub(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(title="astrarium web table", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.hub = hub
    app.add_middleware(ContainErrors)
    app.add_middleware(SecurityHeaders)
    replays: OrderedDict[str, str] = OrderedDict()

    @app.exception_handler(RequestError)
    async def request_error(_request: Request, exc: RequestError) -> JSONResponse:
        return problem(exc.status, exc.code, exc.message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = "no such page" if exc.status_code == 404 else short(str(exc.detail), 100)
        return problem(exc.status_code, "not-found" if exc.status_code == 404 else "http", message)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ())) or "request"
        return problem(400, "bad-request", f"{short(where, 60)}: {short(str(first.get('msg', 'invalid')), 100)}")

    # -- pages
    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html", headers={"cache-control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        if not re.fullmatch(r"[A-Za-z0-9_-]{4,32}", table_id):
            return problem(404, "unknown-game", "there is no game with this id")
        return page("table.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- the lobby API
    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        # ``process``: which of several server processes answered (a random name, not its pid), so a script can tell them apart.
        return {"ok": True, "tables": len(hub.tables), "process": hub.process}

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        return {"games": catalogue(), "levels": list(settings.levels)}

    @app.get("/api/games/{game_id}/rules")
    async def rules(game_id: str) -> PlainTextResponse:
        try:
            game = get_game(game_id)
        except UnknownGame as exc:
            raise RequestError(404, "unknown-game", short(str(exc), 200)) from exc
        return PlainTextResponse(game.rules_text(), media_type="text/markdown; charset=utf-8")

    @app.post("/api/tables", status_code=201)
    async def create(request: Request) -> JSONResponse:
        data = await json_request(request, settings.max_body_bytes)
        try:
            wanted = CreateRequest.model_validate(data)
        except ValidationError as exc:
            raise RequestError(400, "bad-request", _model_error(exc, "new game")) from exc
        if wanted.players is not None and wanted.players != len(wanted.seats):
            raise RequestError(400, "bad-seat", f"players is {wanted.players} but {len(wanted.seats)} seats are described")
        client = request.client.host if request.client else "?"
        seats: list[tuple[str, str | None]] = [(s.kind, s.level) for s in wanted.seats]
        clock = None if wanted.clock is None else wanted.clock.model_dump()
        made = await hub.create(wanted.game, seats, wanted.options, wanted.public, wanted.me, client, clock)
        return JSONResponse(made, status_code=201, headers={"cache-control": "no-store"})

    @app.get("/api/tables")
    async def open_tables() -> dict[str, Any]:
        return {"tables": await hub.open_games()}

    @app.get("/api/status")
    async def status(ids: str = "") -> dict[str, Any]:
        wanted = [i for i in ids.split(",") if i][:100]
        found: dict[str, Any] = {}
        for table_id in wanted:
            described = await hub.summary(table_id)
            if described is not None:
                found[table_id] = described
        return {"tables": found}

    @app.get("/api/tables/{table_id}")
    async def summary(table_id: str) -> dict[str, Any]:
        described = await hub.summary(table_id)
        if described is None:
            raise RequestError(404, "unknown-game", "there is no game with this id")
        return described

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> JSONResponse:
        data = await json_request(request, MAX_LINK_BODY)
        try:
            JoinRequest.model_validate(data)
        except ValidationError as exc:
            raise RequestError(400, "bad-request", _model_error(exc, "join")) from exc
        return JSONResponse(await hub.join(table_id), headers={"cache-control": "no-store"})

    # A finished game's record and replay: a public game's for anyone (GET); a private game's for whoever holds one of
    # its links, whose token comes in the body of a POST (never in the address, which logs keep).
    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> JSONResponse:
        return record_response(await hub.record(table_id, None), table_id)

    @app.post("/api/tables/{table_id}/record")
    async def record_with_link(table_id: str, request: Request) -> JSONResponse:
        return record_response(await hub.record(table_id, await link_token(request)), table_id)

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str) -> HTMLResponse:
        return await replay_response(await hub.record(table_id, None), table_id)

    @app.post("/api/tables/{table_id}/replay")
    async def replay_with_link(table_id: str, request: Request) -> HTMLResponse:
        return await replay_response(await hub.record(table_id, await link_token(request)), table_id)

    def record_response(data: dict[str, Any], table_id: str) -> JSONResponse:
        name = f"{data['game']}-{table_id}.json"
        headers = {"content-disposition": f'attachment; filename="{name}"', "cache-control": "no-store"}
        return JSONResponse(data, headers=headers)

    async def replay_response(data: dict[str, Any], table_id: str) -> HTMLResponse:
        html = replays.get(table_id)
        if html is None:
            html = await anyio.to_thread.run_sync(record_to_html, data)
            replays[table_id] = html
            while len(replays) > 16:
                replays.popitem(last=False)
        return HTMLResponse(html, headers={"content-security-policy": replay_csp(html), "cache-control": "no-store"})

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        session = Session(hub, websocket)
        address = websocket.client.host if websocket.client else "?"
        if not hub.connections.take(address):
            refusal = error("too-many-connections", f"at most {settings.connections_per_address} connections from one address")
            with contextlib.suppress(Disconnected, WebSocketDisconnect):
                await session.refuse(CLOSE_TOO_MANY_CONNECTIONS, refusal)
            return
        try:
            with contextlib.suppress(Disconnected, WebSocketDisconnect):
                await session.run(table_id)
        finally:
            hub.connections.give_back(address)

    return app


def replay_csp(html: str) -> str:
    """The policy of an HTML replay: it is one self-contained page whose own inline script is allowed by its hash.

    It is sandboxed (an origin of its own), so even a fault in it could not
    read this site's storage, where the seat links are kept.
    """
    hashes = []
    for match in re.finditer(r"<script>(.*?)</script>", html, re.S):
        digest = base64.b64encode(hashlib.sha256(match.group(1).encode("utf-8")).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
    scripts = " ".join(hashes) or "'none'"
    return (
        f"default-src 'none'; script-src {scripts}; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; sandbox allow-scripts"
    )
