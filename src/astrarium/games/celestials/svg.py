"""The picture of a Celestials position: both sides' lanes with their cards, phases, health, piles and the hand.

Drawn from one seat's ``picture_view`` alone, so the picture never holds the
other seat's hand (only its size) nor the order of a draw pile. From the top:

* the shared header: whose turn and which step, the turn count, the result;
* the opponent's panel (the Moon's when a spectator looks): character, health,
  the phase cycle with the current phase marked, hand size, draw pile, discard
  pile and graveyard sizes, the cards of the hand everyone knows;
* the board: lanes A-D as columns, positions 0-5 as rows, the viewer's half at
  the bottom (Structure, Defence, Offence, then the opponent's Offence, Defence,
  Structure); every card with its owner's letter, name, Damage, health (number
  and the seed's cubes: green = 5, red = 1) and whether it is exhausted;
* the viewer's panel, the step's prompt (the reshuffle question when open) and
  the viewer's hand with each card's text (type, phases, stats, effects, purpose);
* a legend.

Card text comes from the deck data: ``view["decks"]`` when the view carries it
(see :func:`deck_summary` for its shape), otherwise the built-in decks; a card
that is in neither is shown by its key.

Clicking (rules.md, "Pictures and clicking"): a hand card's token is its key, a
square's its location (``B1``), a card's activation its own token
``activate B1`` (the button on the card), the opponent's panel ``face``, the
viewer's draw and discard piles ``draw`` and ``discard``, the reshuffle answers
``reshuffle yes`` / ``reshuffle no``. ``nodraw``, ``end`` and ``keep`` are
buttons. Tokens are drawn only in the picture of the seat to move.

Speed: the board frame, each card face and the legend are drawn once and cached
on what they show, then placed with a ``translate``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from astrarium.core.errors import short
from astrarium.core.picture_kit import (
    BACKGROUND,
    BOARD_DARK,
    DIM,
    GUIDE,
    HEADER,
    HIGHLIGHT,
    INK,
    PANEL,
    SEAT_COLOURS,
    SEAT_MARKS,
    SEP,
    WIDTH,
    Svg,
    attr,
    badge,
    esc,
    fragment,
    game_over,
    legend,
    num,
    place,
    you_suffix,
)
from astrarium.games.celestials.cards import Card, Deck, Kind, builtin_deck

BUTTON_TOKENS: frozenset[str] = frozenset({"nodraw", "end", "keep"})
"""Verbs the picture does not draw as a thing: skip the draw, end the plays, keep the hand."""

LANES = "ABCD"
POSITIONS = ("Structure", "Defence", "Offence", "Offence", "Defence", "Structure")
HALF = (0, 0, 0, 1, 1, 1)  # whose territory each position is (seat)
GLYPHS = ("☀", "☾")  # the Sun and the Moon, beside the seat letter

MARGIN = 12
PANEL_H = 96
KNOWN_H = 18
LABEL_W = 84
LANE_W = 133
LANE_HEAD = 22
ROW_H = 62
CARD_W = LANE_W - 6
CARD_H = ROW_H - 6
BUTTON_W = 66
BADGE_R = 9.5  # the smallest seat badge: its letter is 11.4 units high
BOARD_LEFT = MARGIN + LABEL_W
BOARD_H = LANE_HEAD + 6 * ROW_H + 8
PROMPT_H = 62
QUESTION_H = 86
HAND_W = (WIDTH - 2 * MARGIN - 8) // 2
HAND_H = 104
HAND_GAP = 8
LEGEND_H = 30 + 5 * 22 + 10

CARD_FILL = ("#3a2a0c", "#10304a")  # dark tints of the seat colours
CUBE_GREEN = "#3cb371"
CUBE_RED = "#e0483e"
MAX_CUBES = 6
EMPTY_FILL = BOARD_DARK
HATCH = (
    '<defs><pattern id="cel-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    f'<line x1="0" y1="0" x2="0" y2="6" stroke="{DIM}" stroke-width="1.5" stroke-opacity="0.5"/></pattern></defs>'
)


# -- tokens ------------------------------------------------------------------------------------------
def action_tokens(notation: str) -> list[str]:
    """An action's click tokens: what to click in the picture, in the order a player would.

    ``play phoenix A1`` is the card in the hand and the square; ``play solar-flare``
    the card alone. ``move A1 B1`` is the creature's square and the empty square.
    ``activate B4 C4`` is the activation button on the card on B4 (token
    ``activate B4``: its own token, so that two cards attacking each other stay two
    actions) and the target's square; ``activate B4 face`` the button and the
    opponent's panel. ``discard phoenix`` is the card and the discard pile;
    ``reshuffle yes`` is one button. The rest are their words (``draw``: the draw pile,
    ``advance``: the Advance Phase card in the hand, ``nodraw``, ``end``, ``keep``).
    """
    words = notation.split()
    if not words:
        return []
    head = words[0]
    if head in ("play", "discard") and len(words) > 1:
        return words[1:] + (["discard"] if head == "discard" else [])
    if head == "move":
        return words[1:]
    if head == "activate" and len(words) > 1:
        return [f"activate {words[1]}", *words[2:]]
    if head == "reshuffle":
        return [notation.strip()]
    return words


# -- card faces from the deck data ---------------------------------------------------------------------
class Face(NamedTuple):
    """What a card shows: its name, type, stats, the phases it is played in, its effects as text, its purpose."""

    key: str
    name: str
    kind: str  # creature, structure, spell, advance; "" when the deck data does not know the card
    damage: int | None
    health: int | None
    phases: tuple[str, ...] | None  # None: any phase
    text: tuple[str, ...]
    purpose: str
    activates: bool  # it has an activation (its own, or the default attack with Damage above 0)


class Faces(NamedTuple):
    """One side's deck as the picture needs it: the phase cycle as (name, kind) and each card's face."""

    phases: tuple[tuple[str, str], ...]
    cards: Mapping[str, Face]


def card_text(card: Card) -> list[str]:
    """A card's effects in words, one line per effect list (``on play: draw 1``)."""
    lines = []
    if card.on_play:
        lines.append("on play: " + "; ".join(s.describe() for s in card.on_play))
    if card.on_activate is not None:
        lines.append("activation: " + "; ".join(s.describe() for s in card.on_activate))
    elif card.kind in (Kind.CREATURE, Kind.STRUCTURE) and card.damage > 0:
        lines.append(f"activation: hit an adjacent card for {card.damage}")
    if card.on_turn_start:
        lines.append("turn start: " + "; ".join(s.describe() for s in card.on_turn_start))
    return lines


def deck_summary(deck: Deck) -> dict[str, Any]:
    """A deck as plain data for a view (``view["decks"][seat]``): the phase cycle and every card's face."""
    names = [p.name for p in deck.phases]
    return {
        "phases": [{"name": p.name, "kind": p.kind.value} for p in deck.phases],
        "cards": [
            {
                "key": c.key,
                "name": c.name,
                "type": c.kind.value,
                "damage": c.damage if c.kind in (Kind.CREATURE, Kind.STRUCTURE) else None,
                "health": c.health if c.kind in (Kind.CREATURE, Kind.STRUCTURE) else None,
                "phases": None if c.phases is None else [names[i] for i in sorted(c.phases)],
                "text": card_text(c),
                "purpose": c.purpose,
                "activates": c.kind in (Kind.CREATURE, Kind.STRUCTURE) and (c.on_activate is not None or c.damage > 0),
            }
            for c in deck.cards
        ],
    }


def _int(value: object) -> int | None:
    return value if type(value) is int else None


def faces_of(summary: Mapping[str, Any]) -> Faces:
    """The faces of a deck summary (as :func:`deck_summary` writes it)."""
    phases = tuple((str(p.get("name", "")), str(p.get("kind", ""))) for p in summary.get("phases", ()))
    cards: dict[str, Face] = {}
    for c in summary.get("cards", ()):
        listed = c.get("phases")
        cards[str(c.get("key", ""))] = Face(
            str(c.get("key", "")),
            str(c.get("name", c.get("key", ""))),
            str(c.get("type", "")),
            _int(c.get("damage")),
            _int(c.get("health")),
            None if listed is None else tuple(str(p) for p in listed),
            tuple(str(t) for t in c.get("text", ())),
            str(c.get("purpose", "")),
            bool(c.get("activates", True)),
        )
    return Faces(phases, cards)


@lru_cache(maxsize=2)
def builtin_faces(seat: int) -> Faces:
    return faces_of(deck_summary(builtin_deck(("sun", "moon")[seat])))


def face(faces: Faces, key: str) -> Face:
    found = faces.cards.get(key)
    return found if found is not None else Face(key, key, "", None, None, None, (), "", True)


# -- drawing helpers ------------------------------------------------------------------------------------
def wrap(text: str, width: int) -> list[str]:
    """``text`` split into lines of at most ``width`` characters, at spaces when it can."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def cubes(svg: Svg, x: float, y: float, health: int) -> None:
    """The seed's health cubes: a green cube is 5 health, a red one 1 (only while they fit; the number is always beside)."""
    green, red = divmod(max(0, health), 5)
    if green + red > MAX_CUBES:
        return
    for i in range(green + red):
        svg.rect(x + i * 9, y, 7, 7, rx=1, fill=CUBE_GREEN if i < green else CUBE_RED, stroke=BACKGROUND, stroke_width=0.5)


# -- the board -------------------------------------------------------------------------------------------
def row_of(pos: int, bottom: int) -> int:
    """The row (0 at the top) of board position ``pos`` when ``bottom``'s half is at the bottom."""
    return 5 - pos if bottom == 0 else pos


def cell_xy(lane: int, pos: int, bottom: int) -> tuple[float, float]:
    return BOARD_LEFT + lane * LANE_W, LANE_HEAD + row_of(pos, bottom) * ROW_H


@lru_cache(maxsize=4)
def board_frame(bottom: int, clickable: bool) -> str:
    """Lane and position labels, the two halves, and the 24 squares (clickable in the picture of the seat to move)."""

    def draw(svg: Svg) -> None:
        for seat in (0, 1):
            top = min(row_of(p, bottom) for p in range(6) if HALF[p] == seat)
            svg.rect(MARGIN, LANE_HEAD + top * ROW_H - 1, WIDTH - 2 * MARGIN, 3 * ROW_H, fill=SEAT_COLOURS[seat], fill_opacity=0.07)
        for lane, letter in enumerate(LANES):
            svg.text(BOARD_LEFT + lane * LANE_W + LANE_W / 2, 15, f"lane {letter}", 12, anchor="middle", class_="dim")
        for pos in range(6):
            y = LANE_HEAD + row_of(pos, bottom) * ROW_H
            svg.text(MARGIN + 6, y + 27, pos, 16, font_weight="bold")
            svg.text(MARGIN + 22, y + 26, POSITIONS[pos], 11)
            svg.seat_badge(MARGIN + 31, y + 42, HALF[pos], BADGE_R)
            svg.text(MARGIN + 44, y + 46, "half", 11, class_="dim")
            for lane in range(4):
                x = BOARD_LEFT + lane * LANE_W
                name = f"{LANES[lane]}{pos}"
                with svg.group(class_="cell tok" if clickable else "cell", data_token=name if clickable else None, data_at=name):
                    svg.rect(x + 3, y + 3, CARD_W, CARD_H, rx=6, fill=EMPTY_FILL, stroke=GUIDE, stroke_dasharray="4 3")
                    svg.text(x + LANE_W / 2, y + ROW_H / 2 + 5, name, 13, anchor="middle", fill=GUIDE, font_weight="bold")
        middle = LANE_HEAD + 3 * ROW_H
        svg.line(MARGIN, middle, WIDTH - MARGIN, middle, stroke=DIM, stroke_width=1.5, stroke_dasharray="8 4")

    return fragment(draw)


@lru_cache(maxsize=1024)
def board_card(f: Face, owner: int, health: int, exhausted: bool) -> str:
    """A card on the board (top-left at the origin): owner's letter, name, Damage, health and cubes, type, exhaustion."""

    def draw(svg: Svg) -> None:
        colour = SEAT_COLOURS[owner]
        svg.rect(
            0, 0, CARD_W, CARD_H, rx=6, fill=CARD_FILL[owner], stroke=colour, stroke_width=2, stroke_dasharray="5 3" if exhausted else None
        )
        if exhausted:
            svg.rect(0, 0, CARD_W, CARD_H, rx=6, fill="url(#cel-hatch)")
        svg.parts.append(f'<g transform="translate(12 13)">{badge(owner % 2, BADGE_R)}</g>')
        svg.text(25, 17, short(f.name, 14), 12, font_weight="bold")
        if f.damage is not None:
            svg.text(6, 34, f"⚔{f.damage}", 12)
        cubes(svg, 34, 26, health)
        top = f"/{f.health}" if f.health is not None else ""
        svg.text(CARD_W - 5, 34, f"♥{health}{top}", 12, anchor="end", font_weight="bold")
        svg.text(6, 50, f.kind or "card", 11, class_="dim")
        if exhausted:
            svg.text(CARD_W - 5, 50, "exhausted", 11, anchor="end", font_style="italic", class_="exhausted-mark")

    return fragment(draw)


@lru_cache(maxsize=1)
def activate_button() -> str:
    def draw(svg: Svg) -> None:
        svg.rect(0, 0, BUTTON_W, 17, rx=4, fill=BACKGROUND, stroke=HIGHLIGHT, stroke_width=1.5)
        svg.text(BUTTON_W / 2, 13, "⚔ activate", 11, anchor="middle", fill=HIGHLIGHT)

    return fragment(draw)


def draw_board(
    parts: list[str], y: float, view: Mapping[str, Any], faces: Sequence[Faces], bottom: int, clickable: bool, active: int | None
) -> None:
    """The frame and every card on the board; ``active``: the seat whose ready cards get an activation button."""
    parts.append(f'<g class="board" transform="translate(0 {num(y)})">')
    parts.append(board_frame(bottom, clickable))
    buttons = []
    for cell in view.get("board", ()):
        at = str(cell["at"])
        lane, pos = LANES.index(at[0]), int(at[1])
        owner = int(cell["owner"]) % 2
        exhausted = bool(cell["exhausted"])
        x, cy = cell_xy(lane, pos, bottom)
        f = face(faces[owner], str(cell["card"]))
        data = f' data-at="{attr(at)}" data-owner="{owner}" data-card="{attr(f.key)}" data-health="{int(cell["health"])}"'
        cls = "card board-card exhausted" if exhausted else "card board-card"
        place(
            parts, board_card(f, owner, int(cell["health"]), exhausted), x + 3, cy + 3, cls=cls, token=at if clickable else None, extra=data
        )
        if owner == active and not exhausted and f.activates:
            buttons.append((x + CARD_W - BUTTON_W, cy + CARD_H - 17, at))
    for x, cy, at in buttons:  # above every card, so no card covers a button
        place(parts, activate_button(), x, cy, cls="activate", token=f"activate {at}")
    parts.append("</g>")


# -- the players' panels ----------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def phase_chips(phases: tuple[tuple[str, str], ...], current: str, seat: int) -> str:
    """The phase cycle (top-left at the origin): a chip per phase, the current one filled and marked ▶, damage phases ⚔, ↺ to the first."""
    if not any(name == current for name, _ in phases):
        phases = ((current, ""),)
    room = WIDTH - 2 * MARGIN - 52
    limit = 24
    while True:
        labels = [("▶ " if name == current else "") + short(name, limit) + (" ⚔" if kind == "damage" else "") for name, kind in phases]
        widths = [len(label) * (7.6 if name == current else 6.6) + 14 for label, (name, _) in zip(labels, phases, strict=True)]
        if sum(widths) + 14 * len(widths) <= room or limit <= 4:
            break
        limit -= 2

    def draw(svg: Svg) -> None:
        svg.text(0, 15, "phase", 11, class_="dim")
        x = 40.0
        for i, ((name, kind), label, w) in enumerate(zip(phases, labels, widths, strict=True)):
            now = name == current
            with svg.group(class_="phase current" if now else "phase", data_phase=name, data_kind=kind or None):
                svg.rect(x, 0, w, 21, rx=10, fill=SEAT_COLOURS[seat] if now else PANEL, stroke=SEAT_COLOURS[seat] if now else GUIDE)
                svg.text(x + w / 2, 15, label, 12, anchor="middle", fill=BACKGROUND if now else INK, font_weight="bold" if now else None)
            x += w + 3
            svg.text(x + 5, 15, "↺" if i == len(phases) - 1 else "›", 12, anchor="middle", class_="dim")
            x += 11

    return fragment(draw)


@lru_cache(maxsize=1024)
def pile(label: str, count: int, token: str | None, kind: str) -> tuple[str, float]:
    """A pile as a small card stack with its size (top-left at the origin), clickable with ``token``; and its width."""
    text = f"{label} {count}"
    w = len(text) * 6.8 + 30

    def draw(svg: Svg) -> None:
        with svg.group(class_=f"pile {kind} tok" if token else f"pile {kind}", data_token=token, data_count=count):
            svg.rect(0, 0, w, 22, rx=5, fill=PANEL, stroke=HIGHLIGHT if token else GUIDE, stroke_width=1.5 if token else 1)
            svg.rect(7, 5, 9, 12, rx=1.5, fill=GUIDE if count else "none", stroke=DIM, stroke_width=1)
            svg.rect(10, 3, 9, 12, rx=1.5, fill=DIM if count else "none", stroke=DIM, stroke_width=1)
            svg.text(25, 16, text, 12)

    return fragment(draw), w + 8


@lru_cache(maxsize=1024)
def panel_head(seat: int, character: str, health: object, you: bool, to_move: bool, face_token: bool, height: int) -> str:
    """A panel's frame (top-left at the origin) with the badge, the character, who moves and the health."""

    def draw(svg: Svg) -> None:
        stroke = HIGHLIGHT if to_move else GUIDE
        svg.rect(MARGIN / 2, 0, WIDTH - MARGIN, height - 6, rx=8, fill=PANEL, stroke=stroke, stroke_width=2 if to_move else 1)
        svg.seat_badge(MARGIN + 14, 20, seat, 11)
        name = f"{GLYPHS[seat]} {short(character, 24)}" + (" (you)" if you else "")
        svg.text(MARGIN + 32, 26, name, 16, font_weight="bold")
        if to_move:
            svg.text(WIDTH - MARGIN - 84, 24, "▶ to move", 12, anchor="end", fill=HIGHLIGHT, font_weight="bold")
        if face_token:
            svg.text(WIDTH - MARGIN - 84, 24, "attack ⚔ here", 11, anchor="end", fill=HIGHLIGHT)
        svg.text(WIDTH - MARGIN - 8, 27, f"♥ {health}", 20, anchor="end", font_weight="bold", class_="player-health")

    return fragment(draw)


def draw_panel(
    parts: list[str],
    y: float,
    view: Mapping[str, Any],
    seat: int,
    faces: Faces,
    *,
    you: bool,
    to_move: bool,
    face_token: bool,
    pile_token: str | None,
) -> None:
    """One player: badge, character, health, phases, piles.

    ``face_token``: the panel is the target of direct attacks (the opponent's, in the
    Damage phase); ``pile_token``: ``draw`` or ``discard`` on that pile (the viewer's, in that step).
    """
    p = view["players"][seat]
    known = [face(faces, str(k)).name for k in p.get("known_hand", ())]
    height = PANEL_H + (KNOWN_H if known else 0)
    head = panel_head(seat, str(p["character"]), p["health"], you, to_move, face_token, height)
    chips = phase_chips(faces.phases, str(p["phase"]), seat)
    parts.append(f'<g transform="translate(0 {num(y)})">')
    token = ' class="player tok" data-token="face"' if face_token else ' class="player"'
    parts.append(f'<g{token} data-seat="{seat}">{head}<g transform="translate({MARGIN + 4} 36)">{chips}</g></g>')
    x = MARGIN + 4.0
    counts = (
        ("hand", int(p["hand_size"]), None, "hand"),
        ("draw pile", int(p["draw_pile"]), "draw" if pile_token == "draw" else None, "draw"),
        ("discard", len(p.get("discard", ())), "discard" if pile_token == "discard" else None, "discard"),
        ("graveyard", len(p.get("graveyard", ())), None, "graveyard"),
    )
    for label, count, pile_tok, kind in counts:
        body, w = pile(label, count, pile_tok, kind)
        parts.append(f'<g transform="translate({num(x)} 64)">{body}</g>')
        x += w
    if known:
        text = esc(short("in hand, known to both: " + ", ".join(known), 96))
        parts.append(f'<text x="{MARGIN + 6}" y="102" font-size="11" class="known-hand">{text}</text>')
    parts.append("</g>")


# -- the hand ----------------------------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def hand_card(f: Face, seat: int, current: str) -> str:
    """A card of the hand with its text (top-left at the origin); its phases in bold when it may be played now."""

    def draw(svg: Svg) -> None:
        svg.rect(0, 0, HAND_W, HAND_H, rx=8, fill=CARD_FILL[seat], stroke=SEAT_COLOURS[seat], stroke_width=1.5)
        svg.text(10, 19, short(f.name, 26), 14, font_weight="bold")
        if f.damage is not None or f.health is not None:
            svg.text(HAND_W - 10, 19, f"⚔{f.damage or 0}  ♥{f.health or 0}", 13, anchor="end", font_weight="bold")
        kind = {"advance": "phase card", "": "card"}.get(f.kind, f.kind)
        when = "any phase" if f.phases is None else "play in " + ", ".join(f.phases)
        now = f.phases is None or current in f.phases
        svg.text(10, 36, short(f"{kind} · {when}", 46), 11, fill=INK if now else DIM, font_weight="bold" if now else None)
        lines = [line for text in f.text for line in wrap(text, 48)]
        rest = 4 - min(len(lines), 4)
        purpose = wrap(f.purpose, 48) if rest else []
        if len(purpose) > rest:
            purpose = purpose[: rest - 1] + [short(" ".join(purpose[rest - 1 :]), 48)]
        for i, line in enumerate(lines[:4]):
            svg.text(10, 53 + 14 * i, line, 11)
        for i, line in enumerate(purpose):
            svg.text(10, 53 + 14 * (len(lines) + i), line, 11, font_style="italic", class_="dim")

    return fragment(draw)


# -- prompt, status, legend --------------------------------------------------------------------------------------------
def who(view: Mapping[str, Any], seat: int) -> str:
    return f"{SEAT_MARKS[seat]} {short(str(view['players'][seat]['character']), 24)}"


def result(view: Mapping[str, Any], outcome: Mapping[str, Any]) -> str:
    """Who won a finished game (``A Sun-King wins``), or ``A draw``."""
    winners = list(outcome.get("winners", ()))
    return f"{who(view, winners[0] % 2)} wins" if len(winners) == 1 else "A draw"


def status_line(view: Mapping[str, Any]) -> str:
    outcome = view.get("outcome")
    if outcome:
        return game_over(result(view, outcome), outcome.get("reason", ""))
    last = 2 * int(view.get("turn_limit", 30))
    turn = min(int(view.get("turns_done", 0)) + 1, last)
    to_move = view.get("to_move")
    mover = f"{who(view, to_move % 2)} to move" if isinstance(to_move, int) else "nobody to move"
    step = "reshuffle question" if view.get("votes") else f"{view.get('step', '')} step"
    return SEP.join((f"Turn {turn} of {last}", mover, step)) + you_suffix(view.get("viewer"))


PROMPTS = {
    "draw": ("Draw step: click your draw pile to draw a card,", "or no draw (button)."),
    "main": (
        "Play a card (click it, then a square or a target), move a creature (it, then",
        "an empty square), ⚔ activate, play Advance Phase, or end.",
    ),
    "discard": ("Discard a card and draw one (click the card),", "or keep (button): then the turn passes."),
}


def draw_prompt(svg: Svg, y: float, view: Mapping[str, Any], clickable: bool) -> None:
    """What the seat to move is asked: the step's choices, or the reshuffle question with its two answers."""
    votes = list(view.get("votes", ()))
    if votes:
        svg.rect(MARGIN / 2, y, WIDTH - MARGIN, QUESTION_H - 6, rx=8, fill=PANEL, stroke=HIGHLIGHT, stroke_width=2, class_="reshuffle")
        svg.text(MARGIN + 6, y + 21, "Both draw piles are empty: shuffle the discard piles back?", 14, font_weight="bold")
        said = f"{who(view, 1 - votes[0] % 2)} said yes; " if len(votes) == 1 else ""
        svg.text(
            MARGIN + 6, y + 39, short(f"{said}{who(view, votes[0] % 2)} answers. Both must agree; a no is final.", 90), 12, class_="dim"
        )
        if clickable:
            for i, (token, label) in enumerate((("reshuffle yes", "yes, reshuffle"), ("reshuffle no", "no"))):
                with svg.group(class_="answer tok", data_token=token):
                    svg.rect(MARGIN + 6 + i * 140, y + 48, 130, 26, rx=6, fill=BACKGROUND, stroke=HIGHLIGHT, stroke_width=1.5)
                    svg.text(MARGIN + 71 + i * 140, y + 66, label, 13, anchor="middle", fill=HIGHLIGHT, font_weight="bold")
        return
    outcome = view.get("outcome")
    if outcome:
        lines: tuple[str, ...] = (f"Game over: {result(view, outcome)}.", *wrap(str(outcome.get("reason", "")), 88)[:2])
    elif clickable:
        lines = PROMPTS.get(str(view.get("step")), ("",))
    else:
        to_move = view.get("to_move")
        lines = (f"{who(view, to_move % 2)} is playing: {view.get('step', '')} step." if isinstance(to_move, int) else "",)
    for i, line in enumerate(lines):
        svg.text(MARGIN + 4, y + 18 + 17 * i, line, 13 if i == 0 else 12, class_=None if i == 0 else "dim")
    if not outcome and not view.get("reshuffle_open", True):
        svg.text(MARGIN + 4, y + 52, "The reshuffle was refused: the piles are not refilled again this game.", 11, class_="dim")


@lru_cache(maxsize=1)
def _legend() -> str:
    def seat_a(s: Svg, x: float, y: float) -> None:
        s.seat_badge(x, y, 0, BADGE_R)

    def seat_b(s: Svg, x: float, y: float) -> None:
        s.seat_badge(x, y, 1, BADGE_R)

    def stats(s: Svg, x: float, y: float) -> None:
        s.text(x, y + 5, "⚔", 14, anchor="middle")

    def health(s: Svg, x: float, y: float) -> None:
        s.rect(x - 9, y - 3, 7, 7, rx=1, fill=CUBE_GREEN)
        s.rect(x + 1, y - 3, 7, 7, rx=1, fill=CUBE_RED)

    def exhausted(s: Svg, x: float, y: float) -> None:
        s.rect(x - 8, y - 7, 16, 14, rx=3, fill="url(#cel-hatch)", stroke=DIM, stroke_dasharray="3 2")

    def button(s: Svg, x: float, y: float) -> None:
        s.rect(x - 8, y - 6, 16, 12, rx=3, fill=BACKGROUND, stroke=HIGHLIGHT, stroke_width=1.5)

    def phase(s: Svg, x: float, y: float) -> None:
        s.rect(x - 8, y - 6, 16, 12, rx=6, fill=SEAT_COLOURS[0])
        s.text(x, y + 4, "▶", 11, anchor="middle", fill=BACKGROUND)

    def empty(s: Svg, x: float, y: float) -> None:
        s.rect(x - 8, y - 6, 16, 12, rx=3, fill=EMPTY_FILL, stroke=GUIDE, stroke_dasharray="3 2")

    def half(s: Svg, x: float, y: float) -> None:
        s.line(x - 8, y, x + 8, y, stroke=DIM, stroke_width=1.5, stroke_dasharray="4 2")

    def hp(s: Svg, x: float, y: float) -> None:
        s.text(x, y + 5, "♥", 14, anchor="middle")

    entries = [
        (seat_a, "☀ Sun (seat A): positions 0-2"),
        (seat_b, "☾ Moon (seat B): positions 3-5"),
        (stats, "Damage of a card"),
        (hp, "health now / maximum"),
        (health, "health cubes: green 5, red 1"),
        (exhausted, "exhausted: cannot act"),
        (phase, "current phase (⚔ = damage phase)"),
        (button, "click: activate, pile, answer"),
        (empty, "empty location (lane + position)"),
        (half, "the front: where the halves meet"),
    ]
    return legend(entries, MARGIN, 24, (MARGIN, 16, 14))[0]


# -- the picture ---------------------------------------------------------------------------------------------------------
def _panel_height(players: Sequence[Mapping[str, Any]], seat: int) -> int:
    """A seat's panel, with the line of its known hand when it has one."""
    return PANEL_H + (KNOWN_H if players[seat].get("known_hand") else 0)


def _active_seat(faces: Sequence[Faces], players: Sequence[Mapping[str, Any]], mover: int | None, main: bool) -> int | None:
    """The seat whose ready cards may activate: the viewer to move, in its Damage phase (or one the data does not know).

    ``main``: the viewer may click and is in the main step with no question open.
    """
    if not main or mover is None:
        return None
    kinds = dict(faces[mover].phases)
    return mover if kinds.get(str(players[mover]["phase"]), "damage") == "damage" else None


def _draw_hand(svg: Svg, y: float, hand: list[str], faces: Faces, seat: int, current: str, you: bool, clickable: bool) -> float:
    """The viewer's hand, two cards to a row (or the line that hands are hidden); returns the y below it."""
    if you:
        svg.text(MARGIN, y + 16, f"Your hand ({len(hand)})", 14, font_weight="bold")
    else:
        svg.text(MARGIN, y + 16, "Hands are hidden: only their sizes are shown.", 13, class_="dim")
    y += 28
    for i, key in enumerate(hand):
        f = face(faces, key)
        x, at_y = MARGIN + (i % 2) * (HAND_W + 8), y + (i // 2) * (HAND_H + HAND_GAP)
        token = key if clickable else None
        place(svg.parts, hand_card(f, seat, current), x, at_y, cls="card hand-card", token=token, extra=f' data-card="{attr(key)}"')
    return y + (len(hand) + 1) // 2 * (HAND_H + HAND_GAP)


def render_svg(view: Mapping[str, Any]) -> str:
    """The position as an SVG picture, from ``view`` (a ``picture_view``) alone."""
    decks = view.get("decks")
    faces = [faces_of(decks[s]) if decks else builtin_faces(s) for s in (0, 1)]
    players = view["players"]
    viewer = view.get("viewer")
    bottom = viewer % 2 if isinstance(viewer, int) else 0
    top = 1 - bottom
    to_move = view.get("to_move")
    over = bool(view.get("outcome"))
    clickable = not over and isinstance(to_move, int) and viewer == to_move
    hand = [str(k) for k in players[bottom].get("hand", ())] if isinstance(viewer, int) else []
    votes = bool(view.get("votes"))
    step = str(view.get("step", ""))

    rows = (len(hand) + 1) // 2
    height = (
        HEADER + 8 + _panel_height(players, top) + BOARD_H + _panel_height(players, bottom) + (QUESTION_H if votes else PROMPT_H) + 28
        + rows * (HAND_H + HAND_GAP) + LEGEND_H
    )  # fmt: skip
    title = f"Celestials: {players[0]['character']} against {players[1]['character']}"
    svg = Svg(WIDTH, height, "Celestials", title)
    svg.parts.append(HATCH)
    svg.header("Celestials", status_line(view))
    y = HEADER + 8.0

    mover = to_move % 2 if isinstance(to_move, int) and not over else None
    choosing = clickable and not votes  # the viewer to move, with no question open
    active = _active_seat(faces, players, mover, choosing and step == "main")
    draw_panel(svg.parts, y, view, top, faces[top], you=False, to_move=mover == top, face_token=active is not None, pile_token=None)
    y += _panel_height(players, top)

    draw_board(svg.parts, y, view, faces, bottom, choosing, active)
    y += BOARD_H

    you = isinstance(viewer, int)
    pile_token = step if choosing and step in ("draw", "discard") else None
    draw_panel(svg.parts, y, view, bottom, faces[bottom], you=you, to_move=mover == bottom, face_token=False, pile_token=pile_token)
    y += _panel_height(players, bottom)
    draw_prompt(svg, y, view, clickable)
    y += QUESTION_H if votes else PROMPT_H

    current = str(players[bottom]["phase"])
    y = _draw_hand(svg, y, hand, faces[bottom], bottom, current, you, choosing and step in ("main", "discard"))
    place(svg.parts, _legend(), 0, y, cls="legend")
    return svg.to_string()
