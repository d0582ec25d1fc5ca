"""What each seat sees: the JSON view and the terminal picture (Rich markup).

Everything on the maps and every resource pool is public; a player's hand is seen
only by that player, and nobody sees the order of any deck. Discard piles are
face up (their contents are public), and so are the cards a draw that emptied a
deck put into a hand (``known_in_hand``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from astrarium.games.connected_worlds.data import SPACE, Board, CardTable

if TYPE_CHECKING:
    from astrarium.games.connected_worlds.state import ConnectedWorldsState

COLOURS = ("red", "blue", "green", "yellow")
PHASES = ("setup", "main", "moving")
WIDTH = 6


_PUBLIC_DATA: dict[int, tuple[object, Any]] = {}


def _public_data(obj: object, make: Callable[[], Any]) -> Any:
    """The JSON of a map or card table, built once per loaded object (held with it, so an id is never reused)."""
    held = _PUBLIC_DATA.get(id(obj))
    if held is None or held[0] is not obj:
        if len(_PUBLIC_DATA) > 64:
            _PUBLIC_DATA.clear()
        held = _PUBLIC_DATA[id(obj)] = (obj, make())
    return held[1]


def boards_json(board: Board) -> list[dict[str, Any]]:
    """Every board of the map as public data: key, name, kind, the space hex it lies over, its hexes (axial q, r)."""
    coords = board.coords
    out: list[dict[str, Any]] = [
        {
            "key": SPACE,
            "name": "Space",
            "kind": "space",
            "over": None,
            "hexes": [list(coords[c]) for c in range(board.size) if board.board_of[c] == 0],
        }
    ]
    for w in board.worlds:
        out.append(
            {
                "key": w.key,
                "name": w.name,
                "kind": w.kind,
                "over": board.cell_names[w.space_cell],
                "hexes": [list(coords[c]) for c in w.cells],
            }
        )
    return out


def cards_json(table: CardTable) -> list[dict[str, Any]]:
    """The card table as public data: what every card is, costs and does."""
    return [
        {
            "slug": c.slug,
            "name": c.name,
            "cost": c.cost,
            "unit": c.is_unit,
            "base": c.is_base,
            "strength": c.strength,
            "movement": c.movement,
            "special": None if c.special is None else c.special.value,
            "resources": c.resources,
        }
        for c in table.cards
    ]


def _card_counts(st: ConnectedWorldsState, cards: list[int]) -> dict[str, int]:
    table = st.cards.cards
    return {table[i].slug: n for i, n in sorted(Counter(cards).items())}


def view(st: ConnectedWorldsState, seat: int | None, *, full: bool) -> dict[str, Any]:
    names = st.board.cell_names
    players = []
    for p in range(st.players):
        row: dict[str, Any] = {
            "resources": st.resources[p],
            "deck": len(st.decks[p]),
            "hand_size": len(st.hands[p]),
            "known_in_hand": [st.cards.cards[i].slug for i in st.known[p]],
            "discard": _card_counts(st, st.discards[p]),
            "deployed": st.removed[p],
            "bought": st.bought[p],
            "territory": len(st.territory(p)),
            "worlds": sorted(st.board.board_key(k) for k in st.worlds_with_base(p)),
        }
        if full or p == seat:
            row["hand"] = [st.cards.cards[i].slug for i in st.hands[p]]
        if full:
            row["deck_order"] = [st.cards.cards[i].slug for i in reversed(st.decks[p])]
        players.append(row)
    moving = None
    if st.moving is not None:
        cell, piece, left = st.moving
        moving = {"at": names[cell], "piece": "base" if piece == 0 else f"u{piece}", "movement_left": left}
    return {
        "map": st.board.name,
        "victory": st.victory.value,
        "round": st.round,
        "round_limit": st.round_limit,
        "turn": st.turn,
        "phase": PHASES[st.phase],
        "played": [st.cards.cards[i].slug for i in st.played],
        "moving": moving,
        "bases": [[names[c], o, s] for c, (o, s) in sorted(st.bases.items())],
        "units": [[names[c], o, s, e == 1] for c, o, s, e in st.units],
        # Pieces that may not move again this turn without being in combat: they landed on a beachhead
        # (or a unit was deployed while the option deploy_moves is off).
        "held": [[names[c], o, s] for c, o, s, e in st.units if e == 2],
        "held_bases": [names[c] for c in st.held_bases],
        "portals": [[names[a], names[b]] for a, b in st.portals],
        "players": players,
        "events": list(st.events),
        "over": st._outcome.to_json() if st._outcome is not None else None,
        "worlds_needed": st.worlds_needed,
        "boards": _public_data(st.board, lambda: boards_json(st.board)),
        "cards": _public_data(st.cards, lambda: cards_json(st.cards)),
    }


def _token(st: ConnectedWorldsState, cell: int, owners: dict[int, set[int]], units: dict[int, list[tuple[int, int]]]) -> str:
    """Six characters for one hex: the owner's seat digit and what stands there, in the owner's colour."""
    base = st.bases.get(cell)
    here = units.get(cell, [])
    if base is not None:
        owner, strength = base
        portal = "*" if any(cell in pt for pt in st.portals) else ""
        extra = f"+{sum(s for _, s in here)}" if here else ""
        text = f"{owner}B{strength}{portal}{extra}"[:WIDTH].ljust(WIDTH)
        return f"[bold {COLOURS[owner]}]{text}[/]"
    if here:
        owner = here[0][0]
        text = (f"{owner}u" + "".join(str(s) for _, s in here))[:WIDTH].ljust(WIDTH)
        return f"[{COLOURS[owner]}]{text}[/]"
    k = st.board.world_below[cell] if not st.board.board_of[cell] else 0
    who = owners.get(cell, set())
    if k:
        text = f"({st.board.worlds[k - 1].key})".ljust(WIDTH)
        return f"[bold]{text}[/]" if not who else f"[{COLOURS[min(who)]}]{text}[/]"
    if len(who) > 1:
        return "[magenta] ×".ljust(WIDTH + 9) + "[/]"
    if who:
        owner = next(iter(who))
        return f"[{COLOURS[owner]}] ·{owner}".ljust(WIDTH + len(COLOURS[owner]) + 2) + "[/]"
    return "[dim] .".ljust(WIDTH + 5) + "[/]"


def _grid(st: ConnectedWorldsState, k: int, owners: dict[int, set[int]], units: dict[int, list[tuple[int, int]]]) -> list[str]:
    """One board as rows of hexes; each row is shifted half a hex from the one above (axial coordinates)."""
    cells = [c for c in range(st.board.size) if st.board.board_of[c] == k]
    coords = st.board.coords
    rows: dict[int, list[int]] = {}
    for c in cells:
        rows.setdefault(coords[c][1], []).append(c)
    xmin = min(2 * coords[c][0] + coords[c][1] for c in cells)
    half = " " * (WIDTH // 2)
    lines = []
    for r in sorted(rows):
        line, x = "", xmin
        for c in sorted(rows[r], key=lambda c: coords[c][0]):
            cx = 2 * coords[c][0] + coords[c][1]
            line += half * (cx - x) + _token(st, c, owners, units)
            x = cx + 2
        lines.append(f"{r:>3} {line.rstrip()}")
    return lines


def render(st: ConnectedWorldsState, seat: int | None = None) -> str:
    board = st.board
    owners: dict[int, set[int]] = {}
    for p in range(st.players):
        for c in st.territory(p):
            owners.setdefault(c, set()).add(p)
    units: dict[int, list[tuple[int, int]]] = {}
    for c, o, s, _ in st.units:
        units.setdefault(c, []).append((o, s))
    out = [
        f"[bold]Connected Worlds[/] — {board.name}; victory: {st.victory.value}; round {st.round}/{st.round_limit}; "
        f"[{COLOURS[st.turn]}]seat {st.turn}[/] to play ({PHASES[st.phase]})",
        "Legend: 0B2 seat 0's base of strength 2 (* with a portal, +n units on it), 1u23 seat 1's units of strength 2 and 3, "
        "·0 seat 0's territory, × shared territory, (A) world A in space",
    ]
    for k in range(len(board.worlds) + 1):
        title = "Space" if k == 0 else f"World {board.worlds[k - 1].key}: {board.worlds[k - 1].name}"
        out.append(f"[bold underline]{title}[/] (hexes {board.board_key(k)}:q,r; rows are r)")
        out += _grid(st, k, owners, units)
    if st.portals:
        out.append("Portals: " + ", ".join(f"{board.cell_names[a]}↔{board.cell_names[b]}" for a, b in st.portals))
    if st.moving is not None:
        cell, piece, left = st.moving
        out.append(f"Moving: {'base' if piece == 0 else f'u{piece}'} on {board.cell_names[cell]}, {left} movement left")
    for p in range(st.players):
        line = (
            f"[{COLOURS[p]}]seat {p}[/]: resources {st.resources[p]}, deck {len(st.decks[p])}, "
            f"hand {len(st.hands[p])}, discard {len(st.discards[p])}, territory {len(st.territory(p))}, "
            f"worlds {''.join(sorted(board.board_key(k) for k in st.worlds_with_base(p))) or '-'}"
        )
        if st.known[p] and p != seat:
            line += ", known in hand: " + ", ".join(st.cards.cards[i].slug for i in st.known[p])
        out.append(line)
    if seat is not None:
        hand = ", ".join(st.cards.cards[i].slug for i in st.hands[seat]) or "(empty)"
        out.append(f"Your hand (seat {seat}): {hand}")
    if st.played:
        out.append("Played this turn: " + ", ".join(st.cards.cards[i].slug for i in st.played))
    out += [f"[dim]{e}[/]" for e in st.events[-3:]]
    if st._outcome is not None:
        out.append(f"[bold]Game over:[/] {st._outcome.reason}")
    return "\n".join(out)
