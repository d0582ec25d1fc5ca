"""Pictures for people outside the terminal: one position as SVG or a page, a whole game as an HTML replay.

An adapter beside ``cli`` (and the web table): it imports the core and the
games' ``render_svg`` and never the other way round. Every page it writes is
one self-contained file (inline style and script, no network), so a designer
can mail a playtest to a colleague.

Secrets: a page is drawn from views only. An unfinished game is always shown
from the spectator's views (a public record holds nothing else), so a shared
page reveals no hand, no deck order and no seed; a finished game may be shown
from one seat's side.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from astrarium.core import Game, RecordError, State, get_game, replay
from astrarium.core.errors import short
from astrarium.core.records import check_record
from astrarium.pictures.packing import gzip_base64, pack_pictures


def _static(name: str) -> str:
    return resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")


def _json_for_script(data: Any) -> str:
    """JSON safe inside a <script> element (no ``</script>``, no ``<!--``)."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _esc(text: object) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def replay_frames(record: Mapping[str, Any], seat: int | None = None) -> tuple[Game, list[dict[str, Any]]]:
    """The game of a record and its picture view of every position, the start first.

    A public record brings its own (spectator) views. A full record of a
    finished game is replayed, from ``seat``'s side if given; a full record of
    an unfinished game is shown from the spectator's side only, whatever
    ``seat`` says, because its seat views would show hands still in play.
    """
    checked = check_record(record)
    game = get_game(checked["game"])
    if checked.get("public"):
        if seat is not None:
            raise RecordError("a public record holds only the spectator's views; it cannot be shown from a seat")
        return game, [dict(v) for v in checked["views"]]
    state = replay(checked)
    if not state.is_over:
        if seat is not None:
            raise RecordError("the game is not over: it can be shown only as a spectator sees it")
        return game, state.public_views()
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.players):
        raise RecordError(f"seat {seat!r}: this game has seats 0 to {state.players - 1}")
    again = game.new_game(state.players, state.seed, state.options)
    frames = [again.picture_view(seat)]
    for action in state.actions:
        again.apply_unchecked(action)
        frames.append(again.picture_view(seat))
    return game, frames


def record_to_html(record: Mapping[str, Any], seat: int | None = None) -> str:
    """One self-contained HTML page that replays the record: every position's picture, the moves, controls.

    The pictures and moves travel packed (:mod:`astrarium.pictures.packing`:
    each picture as its difference from the one before, gzip-compressed, in
    base64) and the page unpacks them itself; the start is also drawn as it
    is, so the page shows it at once, and in a browser that cannot unpack.
    """
    game, frames = replay_frames(record, seat)
    actions: list[str] = list(record["actions"])
    pictures = [game.render_svg(frame) for frame in frames]
    data = {**pack_pictures(pictures), "moves": _moves_in_words(game, frames, actions)}
    title = f"{game.title}: a game of {len(actions)} moves"
    return _PAGE.format(
        title=_esc(title),
        heading=_esc(title),
        side=_esc("as a spectator sees it" if seat is None else f"from seat {seat}'s side"),
        outcome=_esc(_outcome(record, frames) or "unfinished"),
        seats=_esc(_seat_line(record)),
        style=_static("replay.css"),
        start=pictures[0],
        data=gzip_base64(data),
        script=_static("replay.js"),
    )


def _moves_in_words(game: Game, frames: Sequence[Mapping[str, Any]], actions: Sequence[str]) -> list[dict[str, Any]]:
    """Each move's number, first line in words, further lines and notation, for the page's list."""
    moves = []
    for number, notation in enumerate(actions, start=1):
        lines = [short(line, 200) for line in game.describe(frames[number - 1], notation, frames[number])] or [short(notation, 120)]
        moves.append({"n": number, "text": lines[0], "more": lines[1:], "notation": short(notation, 120)})
    return moves


def _outcome(record: Mapping[str, Any], frames: Sequence[Mapping[str, Any]]) -> str:
    """How the game ended, from the record's result or the last position (empty while it goes on)."""
    result = record.get("result")
    if isinstance(result, Mapping) and isinstance(result.get("reason"), str):
        return str(result["reason"])
    if frames and isinstance(frames[-1].get("outcome"), Mapping):
        return str(frames[-1]["outcome"].get("reason", ""))
    return ""


def _seat_line(record: Mapping[str, Any]) -> str:
    """Who sat where, as the record names the seats (empty when it does not)."""
    seats = record.get("seats")
    if not isinstance(seats, Mapping):
        return ""
    return ", ".join(f"seat {short(str(k), 4)}: {short(str(v), 40)}" for k, v in sorted(seats.items(), key=lambda kv: str(kv[0])))


def position_page(state: State, seat: int | None = None) -> str:
    """One position as a page: its picture, and the legal actions clicked out of it (the web table's client, without a server).

    Clicking tokens in the picture narrows the legal actions; when one is left
    the page names it. Keyboard users pick from the list of legal actions.
    """
    game = state.game
    picture = state.render_svg(seat)
    can_act = seat is not None and seat == state.current_player
    legal = [str(a) for a in state.legal_actions()] if can_act else []
    data = {
        "legal": legal,
        "tokens": {n: game.action_tokens(n) for n in legal},
        "buttons": sorted(game.button_tokens()),
    }
    return _POSITION.format(
        title=_esc(f"{game.title}: move {state.move_number}"),
        style=_static("replay.css"),
        picture=picture,
        data=_json_for_script(data),
        script=_static("table.js"),
    )


def position_svg(
    game_id: str, players: int, seed: int, moves: Sequence[str], options: Mapping[str, Any] | None = None, seat: int | None = None
) -> str:
    """The picture of the position reached by ``moves`` (notations) from a new game: for docs and bug reports."""
    game = get_game(game_id)
    state = game.new_game(players, seed, options)
    for move in moves:
        state.apply(move)
    return state.render_svg(seat)


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>{title}</title><style>{style}</style></head>
<body>
<header><h1>{heading}</h1><p>{side}; result: <b>{outcome}</b></p><p class="seats">{seats}</p></header>
<main>
<section id="board" aria-live="polite">{start}</section>
<nav aria-label="replay controls">
<button id="first" title="first position (Home)">start</button>
<button id="prev" title="previous move (Left arrow)">&#x25C0; back</button>
<button id="play" title="play / pause (Space)">play</button>
<button id="next" title="next move (Right arrow)">next &#x25B6;</button>
<button id="last" title="last position (End)">end</button>
<input id="jump" type="range" min="0" value="0" aria-label="jump to move">
<span id="where">start</span>
</nav>
<p id="unpacking" role="status">Unpacking the moves&#x2026;</p>
<ol id="moves"></ol>
</main>
<script id="data" type="application/octet-stream" data-encoding="json, gzip, base64">{data}</script>
<script>{script}</script>
</body></html>
"""

_POSITION = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>{title}</title><style>{style}</style></head>
<body>
<main>
<section id="board">{picture}</section>
<section id="choice"><p id="status">Click the picture, or pick an action below.</p>
<div id="buttons"></div><button id="clear">clear</button>
<ul id="legal"></ul></section>
</main>
<script id="data" type="application/json">{data}</script>
<script>{script}</script>
</body></html>
"""
