"""News between server processes that share one SQLite database: Unix datagram sockets in a folder beside it.

PostgreSQL tells every listening server process of a stored move with
``NOTIFY``; SQLite has no such channel, so the processes make their own. Each
binds a datagram socket in ``<database>-news/`` (a folder only its user may
enter), named after its process id and a random part. After a commit, the
writer sends each piece of news (``"<game> <news>"``, the same text as the
PostgreSQL payload) to every other socket in the folder; each receiver hands
it to the hub exactly as a PostgreSQL notification would be.

Sending never waits and never fails the sender:

* the folder is listed at every send (a few entries: microseconds), so a
  process that has bound its socket hears every commit made after that; it
  binds before it loads any game, so nothing falls between its load and its
  first news;
* a receiver whose queue is full (Linux queues only ten datagrams a socket)
  keeps its news waiting here, merged by game (a later move number replaces an
  earlier one: hearing of move 9 makes a process read moves 8 and 9 alike),
  and it is sent again a few milliseconds later;
* a socket nobody has bound any more (a process killed without a word) refuses
  with ECONNREFUSED: its file is removed and it is forgotten; a socket already
  removed is simply forgotten.

News is a hint to read the store, never the data itself: a process that hears
of move n reads the stored moves after the one it has, so merged or repeated
news changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import itertools
import logging
import os
import secrets
import socket
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("astrarium.web")

#: The suffix of a process's socket in the news folder.
SUFFIX = ".sock"
#: The largest datagram sent (news beyond it goes in the next one).
MAX_DATAGRAM = 32 * 1024
#: Datagrams read in one go before the event loop does other work.
READ_BATCH = 64
#: Seconds before news a full receiver could not take is sent again.
RETRY_AFTER = 0.005
#: Pieces of news kept for one receiver that takes none; beyond, it is taken to be stuck and its news dropped.
MAX_WAITING = 20_000
#: The longest path a Unix socket address may have (108 bytes on Linux, with its final NUL).
MAX_ADDRESS = 107


def news_folder(database: Path) -> Path:
    """The folder of the news sockets of the processes sharing ``database``."""
    return database.with_name(database.name + "-news")


def _key(game_id: str, news: str) -> str:
    """What a later piece of news replaces: a move number replaces an earlier one of the same game; ``here P ...`` the
    last word of process P; anything else is kept once."""
    if news.isdigit():
        return f"{game_id} #"
    kind, _, rest = news.partition(" ")
    if kind == "here":
        return f"{game_id} here {rest.partition(' ')[0]}"
    return f"{game_id} {news}"


class _Peer:
    __slots__ = ("waiting", "retry")

    def __init__(self) -> None:
        #: News not yet sent, by what replaces it (see :func:`_key`), in the order first told.
        self.waiting: dict[str, str] = {}
        self.retry: asyncio.TimerHandle | None = None


class NewsSocket:
    """This process's end of the news channel: tells the others, hears them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.name = f"{os.getpid()}-{secrets.token_hex(4)}{SUFFIX}"
        self._sock: socket.socket | None = None
        self._dir_fd: int | None = None
        self._prefix = f"{folder}{os.sep}"
        self._peers: dict[str, _Peer] = {}
        self._heard: Callable[[str, str], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._flush_soon: asyncio.Handle | None = None
        self._told: list[tuple[str, str]] = []
        self.dropped = 0

    # -- addresses
    def _address(self, name: str) -> str:
        """A socket's address: its path, or (when that is too long for a Unix address) the same file reached through
        this process's open handle on the folder, which is short whatever the folder's path."""
        if self._dir_fd is not None:
            return f"/proc/self/fd/{self._dir_fd}/{name}"
        return f"{self._prefix}{name}"

    def open(self) -> None:
        """Make the folder (only this user may enter it) and bind this process's socket in it."""
        if self._sock is not None:
            return
        self.folder.mkdir(mode=0o700, exist_ok=True)
        # (With room for the longer names of other processes' sockets: a process id may have more digits.)
        if len(os.fsencode(str(self.folder / self.name))) > MAX_ADDRESS - 8 and Path("/proc/self/fd").is_dir():
            self._dir_fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            sock.setblocking(False)
            sock.bind(self._address(self.name))
        except OSError:
            sock.close()
            raise
        self._sock = sock
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(sock.fileno(), self._read)

    def listen(self, heard: Callable[[str, str], None]) -> None:
        """Call ``heard(game_id, news)`` for every piece of news another process sends."""
        self._heard = heard
        self.open()

    def close(self) -> None:
        """Stop hearing and remove this process's socket (a killed process's is removed by the next sender)."""
        if self._flush_soon is not None:
            self._flush_soon.cancel()
            self._flush_soon = None
            self._flush_told()  # the last news (e.g. that this process's players have gone), as far as it can go at once
        for peer in self._peers.values():
            if peer.retry is not None:
                peer.retry.cancel()
        self._peers.clear()
        if self._sock is not None:
            sock, self._sock = self._sock, None
            if self._loop is not None and not self._loop.is_closed():
                self._loop.remove_reader(sock.fileno())
            sock.close()
            with contextlib.suppress(OSError):
                (self.folder / self.name).unlink()
        if self._dir_fd is not None:
            os.close(self._dir_fd)
            self._dir_fd = None

    # -- hearing
    def _read(self) -> None:
        sock = self._sock
        if sock is None:
            return
        for _ in range(READ_BATCH):
            try:
                data = sock.recv(MAX_DATAGRAM + 1024)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            heard = self._heard
            if heard is None:
                continue
            for line in data.decode("utf-8", "replace").splitlines():
                game_id, _, news = line.partition(" ")
                if game_id and news:
                    try:
                        heard(game_id, news)
                    except Exception:  # one bad piece of news must not stop the others being heard
                        log.exception("news from another server process could not be handled")

    # -- telling
    def tell(self, game_id: str, news: str) -> None:
        """Send news to every other process, soon (everything told in the same turn of the event loop goes together)."""
        if self._sock is None:
            self.open()
        self._told.append((game_id, news))
        if self._flush_soon is None:
            assert self._loop is not None
            self._flush_soon = self._loop.call_soon(self._flush_told)

    def _flush_told(self) -> None:
        self._flush_soon = None
        told, self._told = self._told, []
        try:
            names = [e for e in os.listdir(self.folder) if e.endswith(SUFFIX) and e != self.name]
        except OSError:
            names = []
        for gone in set(self._peers) - set(names):
            self._forget(gone)
        for name in names:
            peer = self._peers.get(name)
            if peer is None:
                peer = self._peers[name] = _Peer()
            for game_id, news in told:
                key = _key(game_id, news)
                before = peer.waiting.get(key)
                if before is not None and news.isdigit() and before.isdigit() and int(before) > int(news):
                    continue
                peer.waiting[key] = news
            if len(peer.waiting) > MAX_WAITING:
                self.dropped += len(peer.waiting)
                log.warning("another server process takes no news; %d pieces dropped", len(peer.waiting))
                peer.waiting.clear()
            if peer.retry is None:
                self._send(name)

    def _send(self, name: str) -> None:
        """Send what waits for one process; what it cannot take now waits for the next try."""
        peer = self._peers.get(name)
        sock = self._sock
        if peer is None or sock is None:
            return
        peer.retry = None
        while peer.waiting:
            lines: list[str] = []
            size = 0
            for key, news in peer.waiting.items():
                line = f"{key.partition(' ')[0]} {news}\n"
                if lines and size + len(line) > MAX_DATAGRAM:
                    break
                lines.append(line)
                size += len(line)
            try:
                sock.sendto("".join(lines).encode(), self._address(name))
            except (BlockingIOError, InterruptedError):
                assert self._loop is not None
                peer.retry = self._loop.call_later(RETRY_AFTER, self._send, name)
                return
            except OSError as exc:
                if exc.errno == errno.ECONNREFUSED:  # nobody has this socket any more: a killed process's
                    with contextlib.suppress(OSError):
                        (self.folder / name).unlink()
                elif exc.errno not in (errno.ENOENT, errno.ENOTDIR):
                    log.warning("news to another server process failed (%s); it is forgotten", errno.errorcode.get(exc.errno or 0, "?"))
                self._forget(name)
                return
            peer.waiting = dict(itertools.islice(peer.waiting.items(), len(lines), None))

    def _forget(self, name: str) -> None:
        peer = self._peers.pop(name, None)
        if peer is not None and peer.retry is not None:
            peer.retry.cancel()
