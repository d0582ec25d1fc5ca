"""What each Connected Worlds card, piece and word on the screen means, in a player's words.

Card texts are made from the game's card table (a designer's table given as
the ``cards`` option is described as it is). Every front end shows them: the
terminal's ``card NAME`` and ``info THING``, the web table.
"""

from __future__ import annotations

from typing import Any

from astrarium.games.connected_worlds.data import Card, CardTable, Special, load_cards

#: What each special action does, after "or for its special action:".
SPECIALS = {
    Special.RESEARCH: "research, buy one action card whose cost you can pay ('research CARD BUY'); it goes to your discard pile",
    Special.BUILD_UNITS: "build units, buy one unit card whose cost you can pay ('build CARD BUY'); it goes to your discard pile",
    Special.CONNECT_BASES: "connect bases, open a portal between two of your bases ('connect CARD HEX HEX')",
    Special.GATHER_RESOURCES: "gather resources ('gather CARD'), which needs a base of yours on the map",
}


def _table(state: Any) -> CardTable:
    table = getattr(state, "cards", None)
    return table if isinstance(table, CardTable) else load_cards(None)


def card_line(card: Card) -> str:
    """One card in words: its cost, then what playing it does."""
    if card.is_unit:
        piece = f"a base of strength {card.strength}" if card.is_base else f"a unit of strength {card.strength}"
        claim = " A base claims the hexes around it as your territory." if card.is_base else ""
        return (
            f"{card.name}, unit card, costs {card.cost}. Deploy it ('deploy {card.slug} HEX') to place {piece} on a hex of your "
            f"territory; the card then leaves the game.{claim}"
        )
    special = SPECIALS.get(card.special, "no special action") if card.special is not None else "no special action"
    if card.special is Special.GATHER_RESOURCES:
        special = f"gather {card.resources} resources ('gather {card.slug}'), which needs a base of yours on the map"
    return (
        f"{card.name}, action card, costs {card.cost}. Play it as movement ('move {card.slug} HEX u2' or '... base'): "
        f"one of your pieces moves up to {card.movement} step{'s' if card.movement != 1 else ''}; or for its special action: {special}."
    )


def cards(state: Any = None) -> dict[str, str]:
    """Every card of the table by its slug (``plasma-furnace``)."""
    return {card.slug: card_line(card) for card in _table(state).cards}


def things(state: Any = None) -> dict[str, str]:
    """The pieces, the places on the maps and the words of the screen."""
    return {
        "base": "a piece of strength 1 to 4 (0B2: seat 0's base of strength 2); it claims territory around it and defends "
        "its hex. Bases are deployed from unit cards; the first one is founded ('found HEX').",
        "unit": "a fighting piece of strength 2 to 5 (1u23: seat 1's units of strength 2 and 3); it moves with action cards "
        "played as movement and fights enemy pieces in its hex.",
        "territory": "the hexes your bases claim (·0 on the map; × where two players' claims overlap). Units and bases are "
        "deployed only into your territory; the expansion victory counts it.",
        "portal": "a link between two of your bases made with a Portal card's special action; a unit may step through it.",
        "space": "the map of hexes S:q,r between the worlds; (A) marks world A's hex in space. Units launch into space from "
        "your territory on a planet and land on any planet from its hex in space.",
        "beachhead": "landing on a planet where you hold no territory: the piece lands on a hex without enemies and may not "
        "move again this turn.",
        "world": "a planet with its own map of hexes (A:q,r on world A); bases on 3 different worlds are part of the expansion victory.",
        "hex": "a place on a map, written world:q,r (C:-1,0) or S:q,r in space.",
        "combat": "at the end of a turn, in every hex where enemy pieces meet, each side's strength is compared; see the "
        "complete rules ('astrarium rules connected-worlds --full').",
        "resources": "your pool, filled by gathering and spent on research and building; pools are public.",
        "expansion": "the default victory: at the end of a round, bases on 3 worlds and strictly the most territory.",
        "capture": "a victory mode: at the end of a round, every base on the map is yours.",
        "annihilation": "a victory mode: at the end of a round, no enemy unit or base is left on the map.",
        "round": "every player's turn once; victory is checked at the end of each round, and round 30 is the last.",
    }
