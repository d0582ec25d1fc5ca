"""The position for a terminal, as Rich markup: the maps as hex grids, the pools, the hand, the events."""

from __future__ import annotations

import functools

from rich.markup import escape

from astrarium.core.layout import BOARD, BOARD_HEIGHT, BOARD_WIDTH, EXTRA, TEXT, first_fit, markup_width
from astrarium.games.connected_worlds.state import PHASE_NAMES, ConnectedWorldsState

COLOURS = ("red", "blue", "green", "yellow")
WIDTH = 6
"""Cells a hex takes on the roomiest maps; a small terminal's maps take SMALL_WIDTH."""
SMALL_WIDTH = 4


LEGEND = (
    "Legend: 0B2 seat 0's base of strength 2 (* with a portal, +n units on it), 1u23 seat 1's units of strength 2 and 3, "
    "·0 seat 0's territory, × shared territory, (A) world A in space. Hex A:q,r: r numbers the rows (left), "
    "q is numbered above and below each map and runs down to the right."
)
SMALL_LEGEND = "0B2 base (* portal, +n units), 1u23 units, ·0 territory, × shared, (A) world; hex A:q,r: r at the left, q above and below"

Units = dict[int, list[tuple[int, int]]]
Owners = dict[int, set[int]]


def _token(st: ConnectedWorldsState, cell: int, owners: Owners, units: Units, width: int, cut: list[str]) -> str:
    """``width`` characters for one hex: the owner's seat digit and what stands there, in the owner's colour.

    The text keeps a space before the next hex (at most ``width - 1``
    characters); a stack too long for that is cut, and its whole text noted in
    ``cut`` (shown under the maps) so that nothing on the board goes unsaid.
    """
    base = st.bases.get(cell)
    here = units.get(cell, [])
    text, style = "", ""
    if base is not None:
        owner, strength = base
        portal = "*" if any(cell in pt for pt in st.portals) else ""
        extra = f"+{sum(s for _, s in here)}" if here else ""
        text, style = f"{owner}B{strength}{portal}{extra}", f"bold {COLOURS[owner]}"
    elif here:
        owner = here[0][0]
        text, style = f"{owner}u" + "".join(str(s) for _, s in here), COLOURS[owner]
    if text:
        if len(text) > width - 1:
            cut.append(f"{st.board.cell_names[cell]} {text}")
            plain = f"{base[0]}B{base[1]}" if base is not None else ""  # a base without its portal and units, if that fits
            text = plain if 0 < len(plain) < width else text[: width - 2] + "…"
        return f"[{style}]{text.ljust(width)}[/]"
    k = st.board.world_below[cell] if not st.board.board_of[cell] else 0
    who = owners.get(cell, set())
    if k:
        text = f"({st.board.worlds[k - 1].key})".ljust(width)
        return f"[bold]{text}[/]" if not who else f"[{COLOURS[min(who)]}]{text}[/]"
    if len(who) > 1:
        return "[magenta]" + " ×".ljust(width) + "[/]"
    if who:
        owner = next(iter(who))
        return f"[{COLOURS[owner]}]" + f" ·{owner}".ljust(width) + "[/]"
    return "[dim]" + " .".ljust(width) + "[/]"


def _block(st: ConnectedWorldsState, k: int, owners: Owners, units: Units, width: int, cut: list[str]) -> list[str]:
    """One board as lines of equal width: its title, q above the top row, the rows of hexes (r at the left), q below.

    Each row is shifted half a hex from the one above (axial coordinates), so
    a hex's q runs down to the right; the top and bottom rulers between them
    number every q.
    """
    cells = [c for c in range(st.board.size) if st.board.board_of[c] == k]
    coords = st.board.coords
    rows: dict[int, list[int]] = {}
    for c in cells:
        rows.setdefault(coords[c][1], []).append(c)
    for row in rows.values():
        row.sort(key=lambda c: coords[c][0])
    xmin = min(2 * coords[c][0] + coords[c][1] for c in cells)
    xmax = max(2 * coords[c][0] + coords[c][1] for c in cells)
    half = width // 2
    label = max(len(str(r)) for r in rows) + 1
    span = label + half * (xmax - xmin) + width

    def ruler(r: int, mark: str) -> str:
        line = [" "] * span
        line[: len(mark)] = list(mark)
        for c in rows[r]:
            at = label + half * (2 * coords[c][0] + coords[c][1] - xmin)
            text = f"{coords[c][0]:>2}"
            line[at : at + len(text)] = text
        return "".join(line)

    top, bottom = min(rows), max(rows)
    first = label + half * min(2 * coords[c][0] + coords[c][1] - xmin for c in rows[top])
    world = st.board.worlds[k - 1] if k else None
    titles = ("Space",) if world is None else (f"World {world.key}: {world.name}", f"World {world.key}")
    for title in titles if width < WIDTH else ():
        if len(title) < first:  # on a small screen, the title goes before the first q of the top row: a line saved
            lines = [f"[bold underline]{escape(title)}[/][dim]{ruler(top, '')[len(title) :]}[/]"]
            break
    else:
        title = "Space" if world is None else f"World {world.key}: {world.name}"
        lines = [f"[bold underline]{escape(title[:span])}[/]" + " " * max(0, span - len(title)), f"[dim]{ruler(top, 'q↘')}[/]"]
    for r in sorted(rows):
        line, x = f"{r:>{label - 1}} ", xmin
        for c in rows[r]:
            cx = 2 * coords[c][0] + coords[c][1]
            line += " " * (half * (cx - x)) + _token(st, c, owners, units, width, cut)
            x = cx + 2
        lines.append(line + " " * (half * (xmax + 2 - x)))
    lines.append(f"[dim]{ruler(bottom, 'q↖')}[/]")
    return lines


def _shelves(blocks: list[list[str]], width: int, gap: int = 2) -> list[str]:
    """Blocks set side by side, left to right, a new shelf when the next would pass ``width``."""
    out: list[str] = []
    shelf: list[list[str]] = []
    used = 0

    def flush() -> None:
        if not shelf:
            return
        height = max(len(b) for b in shelf)
        for i in range(height):
            parts = [b[i] if i < len(b) else " " * markup_width(b[0]) for b in shelf]
            out.append((" " * gap).join(parts).rstrip())
        shelf.clear()

    for block in blocks:
        w = markup_width(block[0])
        if shelf and used + gap + w > width:
            flush()
            used = 0
        used = w if not shelf else used + gap + w
        shelf.append(block)
    flush()
    return out


def _interest(st: ConnectedWorldsState, k: int, seat: int | None, owners: Owners, units: Units) -> tuple[int, int]:
    """How much a board matters to the one looking (for which maps a small screen draws): lower is drawn first."""
    cells = [c for c in range(st.board.size) if st.board.board_of[c] == k]
    if k == 0 or (st.moving is not None and st.board.board_of[st.moving[0]] == k):
        return 0, k
    mine = seat is not None and any(st.bases.get(c, (-1,))[0] == seat or any(o == seat for o, _ in units.get(c, [])) for c in cells)
    if mine:
        return 1, k
    if any(c in st.bases or c in units for c in cells):
        return 2, k
    return (3 if any(c in owners for c in cells) else 4), k


def _pieces(st: ConnectedWorldsState, k: int, units: Units) -> str:
    """A board not drawn, in words: its pieces, or that it has none."""
    board = st.board
    title = f"World {board.worlds[k - 1].key}"
    found = []
    for c in range(board.size):
        if board.board_of[c] != k:
            continue
        if c in st.bases:
            owner, strength = st.bases[c]
            found.append(f"{board.cell_names[c]} {owner}B{strength}")
        if c in units:
            found.append(f"{board.cell_names[c]} {units[c][0][0]}u" + "".join(str(s) for _, s in units[c]))
    return f"{title}: {', '.join(found) if found else 'no pieces'}"


def _parts(st: ConnectedWorldsState, seat: int | None, width: int, token: int, drawn: int) -> list[tuple[str, str]]:
    """One layout: hexes ``token`` cells wide, the ``drawn`` boards that matter most drawn, the others in words."""
    board = st.board
    owners: Owners = {}
    for p in range(st.players):
        for c in st.territory(p):
            owners.setdefault(c, set()).add(p)
    units: Units = {}
    for c, o, s, _ in st.units:
        units.setdefault(c, []).append((o, s))
    everything = range(len(board.worlds) + 1)
    chosen = sorted(sorted(everything, key=lambda k: _interest(st, k, seat, owners, units))[:drawn])
    cut: list[str] = []
    blocks = [_block(st, k, owners, units, token, cut) for k in chosen]
    full = token == WIDTH
    parts: list[tuple[str, str]] = [(TEXT, _head(st, full)), (TEXT if full else EXTRA, LEGEND if full else SMALL_LEGEND)]
    parts += [(BOARD, line) for line in _shelves(blocks, width, gap=2 if full else 1)]
    if cut:
        parts.append((TEXT, "In full: " + "; ".join(cut)))
    hidden = [_pieces(st, k, units) for k in everything if k not in chosen]
    if hidden:
        parts.append((TEXT, "Not drawn: " + "; ".join(hidden)))
    parts += [(TEXT, line) for line in _state_lines(st, seat)]
    parts += [(EXTRA, f"[dim]{escape(e)}[/]") for e in st.events[-3:]]
    if st._outcome is not None:
        parts.append((TEXT, f"[bold]Game over:[/] {escape(st._outcome.reason)}"))
    return parts


def _head(st: ConnectedWorldsState, full: bool) -> str:
    """The first line: the map, the victory mode, the round and who is to play (with the game's name when ``full``)."""
    board = st.board
    to_play = f"[{COLOURS[st.turn]}]seat {st.turn}[/] to play ({PHASE_NAMES[st.phase]})"
    if full:
        first = "" if st.turn_order == "fixed" else f" (seat {st.order[0]} first)"
        return (
            f"[bold]Connected Worlds[/] — {escape(board.name)}; victory: {st.victory.value}; round {st.round}/{st.round_limit}{first}; "
            f"{to_play}"
        )
    return f"{escape(board.name)}; {st.victory.value}; round {st.round}/{st.round_limit}; {to_play}"


def _state_lines(st: ConnectedWorldsState, seat: int | None) -> list[str]:
    """The lines under the boards: portals, the moving piece, each seat's counts, ``seat``'s hand, the cards played."""
    board = st.board
    names = st.cards.cards
    lines: list[str] = []
    if st.portals:
        lines.append("Portals: " + ", ".join(f"{board.cell_names[a]}↔{board.cell_names[b]}" for a, b in st.portals))
    if st.moving is not None:
        cell, piece, left = st.moving
        lines.append(f"Moving: {'base' if piece == 0 else f'u{piece}'} on {board.cell_names[cell]}, {left} movement left")
    if st.pending:
        asked = "the piece (piece base|uN)" if st.pending_next() == "piece" else "a hex (at HEX)"
        lines.append(f"[bold]Choosing:[/] {escape(' '.join(st.pending))} — next: {asked}")
    for p in range(st.players):
        line = (
            f"[{COLOURS[p]}]seat {p}[/]: resources {st.resources[p]}, deck {len(st.decks[p])}, "
            f"hand {len(st.hands[p])}, discard {len(st.discards[p])}, territory {len(st.territory(p))}, "
            f"worlds {''.join(sorted(board.board_key(k) for k in st.worlds_with_base(p))) or '-'}"
        )
        if st.known[p] and p != seat:
            line += ", known in hand: " + ", ".join(names[i].slug for i in st.known[p])
        lines.append(line)
    if seat is not None:
        hand = ", ".join(names[i].slug for i in st.hands[seat]) or "(empty)"
        lines.append(f"Your hand (seat {seat}): {hand}")
    if st.played:
        lines.append("Played this turn: " + ", ".join(names[i].slug for i in st.played))
    return lines


def render_fit(st: ConnectedWorldsState, seat: int | None = None, *, width: int = BOARD_WIDTH, height: int = BOARD_HEIGHT) -> str:
    """Every map side by side as the width allows, with hexes six cells wide, then four; then, on a small
    terminal, only the maps that matter most to the one looking (space, the moving piece's world, their own,
    any with pieces), the others told in words.
    """
    count = len(st.board.worlds) + 1
    layouts = [functools.partial(_parts, st, seat, width, WIDTH, count)]
    layouts += [functools.partial(_parts, st, seat, width, SMALL_WIDTH, drawn) for drawn in range(count, 0, -1)]
    return first_fit(layouts, width, height)


def render(st: ConnectedWorldsState, seat: int | None = None) -> str:
    """The position in the layout that fits a 120x40 terminal."""
    return render_fit(st, seat)
