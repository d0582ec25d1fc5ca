"""Clicking a choice that a game's options split into parts: Connected Worlds under ``choices = steps`` at the web table.

A head (``move harvester``), a piece (``piece u2``) and the like name nothing the
picture draws; the table offers them as buttons (``core.svg.buttons``, the rule
the page's ``buttons`` in narrow.js follows), so every part can be chosen by
clicking, as every whole action can.
"""

from __future__ import annotations

import random
import re
from html import unescape

from fastapi.testclient import TestClient
from webclient import Player, new_game, persons, seat_token

from astrarium.core.svg import buttons, chosen

STEPS = {"choices": "steps"}


def drawn_tokens(picture: str) -> set[str]:
    return {unescape(token) for token in re.findall(r'data-token="([^"]*)"', picture)}


def test_buttons_are_the_declared_ones_then_each_undrawn_token_of_a_legal_action_once() -> None:
    legal = ["move harvester", "gather harvester", "piece base", "piece u2", "end"]
    drawn = {"harvester"}
    assert buttons(["end", "gather", "stop"], legal, drawn) == ["end", "gather", "stop", "move", "piece", "base", "u2"]
    assert buttons(["end"], [], drawn) == ["end"]


def test_every_part_of_a_connected_worlds_choice_can_be_clicked_at_the_web_table(client: TestClient) -> None:
    made = new_game(client, "connected-worlds", persons(2), me=0, options=STEPS)
    pick = random.Random(2)
    kinds: set[str] = set()
    with Player(client, made["table"], seat_token(made, 0)) as a, Player(client, made["table"], seat_token(made, 1)) as b:
        declared = a.until(lambda m: m["type"] == "welcome")["game"]["buttons"]
        players = {0: a, 1: b}
        state = a.state()
        while len(kinds) < 3 and not state["over"]:
            mover = players[state["to_move"]]
            state = mover.position(state["move"])
            legal, tokens_of = state["legal"], state["tokens"].__getitem__
            drawn = drawn_tokens(state["picture"])
            offered = buttons(declared, legal, drawn, tokens_of)
            for notation in legal:
                clicks = tokens_of(notation)
                assert set(clicks) <= drawn | set(offered), f"{notation!r}: {clicks} cannot be clicked"
                assert chosen(legal, clicks, tokens_of) == notation
            parts = [n for n in legal if n.split()[0] in ("move", "at", "piece", "deploy", "connect")]
            notation = pick.choice(parts or [n for n in legal if n != "end"] or legal)
            kinds |= {notation.split()[0]} & {"move", "at", "piece"}
            mover.act(notation, state["move"])
            state = a.state(state["move"] + 1)
    assert kinds == {"move", "at", "piece"}
