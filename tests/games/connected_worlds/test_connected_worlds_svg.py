"""The picture of a Connected Worlds position: what it draws, how its clicks pick actions, and that it shows only the view."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from typing import Any

import astrarium
from astrarium.core import Rng, State
from astrarium.core.svg import SEAT_COLOURS, SEAT_MARKS, chosen, narrow
from astrarium.games.connected_worlds.svg import BUTTON_TOKENS, action_tokens, render_svg

GAME = astrarium.get_game("connected-worlds")
NS = "{http://www.w3.org/2000/svg}"
#: Verbs that put pieces, portals and purchases on the table, so busy positions come up often.
BUSY = ("deploy", "connect", "move", "step", "research", "build", "found")


def busy_positions(count: int, seed: int = 0) -> Iterator[State]:
    """``count`` positions of 2 to 4 players where the seats mostly deploy, move, connect and buy (every phase, games over too)."""
    rng = random.Random(seed)
    made = game_seed = 0
    while made < count:
        options = {"victory": rng.choice(("expansion", "capture", "annihilation")), "round_limit": rng.choice((2, 4, 30))}
        state = GAME.new_game(rng.randint(2, 4), game_seed, options)
        game_seed += 1
        for _ in range(8):
            for _ in range(rng.randint(5, 120)):
                if state.is_over:
                    break
                legal = state.legal_actions()
                busy = [a for a in legal if str(a).split()[0] in BUSY]
                state.apply_unchecked(rng.choice(busy if busy and rng.random() < 0.8 else legal))
            yield state.clone()
            made += 1
            if made >= count or state.is_over:
                break


def picture(state: State, seat: int | None) -> ET.Element:
    return ET.fromstring(state.render_svg(seat))


def classed(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in el.attrib.get("class", "").split()]


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{NS}text")]


def tokens_in(root: ET.Element) -> set[str]:
    return {el.attrib["data-token"] for el in root.iter() if "data-token" in el.attrib}


def scenario(body: str, *players: str, **options: Any) -> State:
    text = body + "".join(f"\n[[player]]\n{p}\n" for p in players)
    return GAME.new_game(len(players), 5, {"scenario": text, **options})


BUSY_TURN = """
[[base]]
at = "A:0,0"
owner = 0
strength = 1
[[base]]
at = "C:1,0"
owner = 0
strength = 2
[[base]]
at = "D:0,0"
owner = 0
strength = 1
[[base]]
at = "B:0,0"
owner = 1
strength = 3
[[unit]]
at = "A:0,0"
owner = 0
strength = 2
[[unit]]
at = "A:1,0"
owner = 0
strength = 3
[[unit]]
at = "A:1,0"
owner = 0
strength = 3
[[unit]]
at = "S:0,0"
owner = 1
strength = 4
[[portal]]
between = ["A:0,0", "C:1,0"]
"""
SEAT0 = 'resources = 12\nhand = ["scientists", "engineers", "portal", "harvester", "assault-team"]\ndeck = ["excavater"]'
SEAT1 = 'resources = 4\nhand = ["plasma-furnace", "titan-force", "metroplex"]\ndeck = ["capital-army", "outpost"]'


# -- drawing what the view holds ---------------------------------------------------------------------------------------


def test_pictures_of_200_busy_positions_draw_every_base_unit_portal_territory_hex_and_card_the_view_holds() -> None:
    seen = Counter[str]()
    for state in busy_positions(200):
        seat = state.current_player
        view = state.picture_view(seat)
        root = picture(state, seat)
        bases = sorted((b.attrib["data-hex"], int(b.attrib["data-seat"]), int(b.attrib["data-strength"])) for b in classed(root, "base"))
        assert bases == sorted((h, o, s) for h, o, s in view["bases"])
        units = Counter[tuple[str, int, int, bool]]()
        for u in classed(root, "unit"):
            key = (u.attrib["data-hex"], int(u.attrib["data-seat"]), int(u.attrib["data-strength"]), "data-engaged" in u.attrib)
            units[key] += int(u.attrib["data-count"])
            assert f"{SEAT_MARKS[key[1]]}{key[2]}" in "".join(texts(u))
        assert units == Counter((h, o, s, e) for h, o, s, e in view["units"])
        assert len([el for el in classed(root, "portal") if el.tag == f"{NS}line"]) == len(view["portals"])
        for p, row in enumerate(view["players"]):
            assert len([t for t in classed(root, "terr") if t.attrib["data-seat"] == str(p)]) == row["territory"]
        assert len(classed(root, "hex")) == state.board.size
        hand = view["players"][seat]["hand"] if seat is not None else []
        assert sorted(c.attrib["data-card"] for c in classed(root, "card")) == sorted(hand)
        assert [c.attrib["data-card"] for c in classed(root, "played")] == view["played"]
        assert len(classed(root, "player")) == len(view["players"])
        seen.update(k for k in ("bases", "units", "portals", "played") if view[k])
        seen.update(["moving"] if view["moving"] else [])
        seen.update(["over"] if view["outcome"] else [])
    assert all(seen[k] >= 10 for k in ("bases", "units", "portals", "played", "moving", "over")), seen


def test_every_hex_is_labelled_with_both_coordinates_and_carries_its_name_as_its_token() -> None:
    state = GAME.new_game(4, 1)
    root = picture(state, 0)
    hexes = classed(root, "hex")
    assert sorted(h.attrib["data-token"] for h in hexes) == sorted(state.board.cell_names)
    for h in hexes:
        assert h.attrib["data-token"].split(":")[1] in texts(h)
    titles = " ".join(" ".join(texts(t)) for t in classed(root, "board-title"))
    assert all(f"{w.key} · {w.name}" in titles for w in state.board.worlds)
    assert {h.attrib["data-world"] for h in classed(root, "homeworld")} == {w.key for w in state.board.worlds}


def test_header_shows_the_round_who_plays_first_whose_turn_the_phase_and_the_victory_mode() -> None:
    state = scenario("round = 4\nturn = 1\n" + BUSY_TURN, SEAT0, SEAT1, victory="capture", round_limit=12)
    status = texts(ET.fromstring(state.render_svg(1)))[1]
    assert status == "Round 4/12 (A first) · B (seat 1) to play · main phase · victory: capture"  # a scenario's round: seat order
    fixed = scenario("round = 4\nturn = 1\n" + BUSY_TURN, SEAT0, SEAT1, victory="capture", round_limit=12, turn_order="fixed")
    assert texts(ET.fromstring(fixed.render_svg(1)))[1] == "Round 4/12 · B (seat 1) to play · main phase · victory: capture"
    assert "you are A" in texts(ET.fromstring(state.render_svg(0)))[1]


def test_a_seat_with_the_turn_sees_its_hand_resources_and_pile_counts_of_every_seat() -> None:
    state = scenario(BUSY_TURN, SEAT0, SEAT1)
    root = picture(state, 0)
    assert [c.attrib["data-card"] for c in classed(root, "card")] == state.view(0)["players"][0]["hand"]
    rows = classed(root, "player")
    for p, row in enumerate(state.view(0)["players"]):
        cells = {t.attrib.get("class"): t.text for t in rows[p].iter(f"{NS}text")}
        assert cells["resources"] == str(row["resources"])
        assert cells["deck"] == str(row["deck"])
        assert cells["hand"] == str(row["hand_size"])
        assert cells["discard"] == str(sum(row["discard"].values()))
        assert cells["territory"] == str(row["territory"])


def test_portals_show_which_pair_they_connect() -> None:
    state = scenario(BUSY_TURN, SEAT0, SEAT1)
    root = picture(state, 0)
    ends = {el.attrib["data-hex"]: texts(el) for el in classed(root, "portal-end")}
    assert ends == {"A:0,0": ["1"], "C:1,0": ["1"]}
    assert any("1 A:0,0↔C:1,0" in t for t in texts(root))


def test_cards_in_play_this_turn_are_drawn_in_the_turn_panel() -> None:
    state = scenario(BUSY_TURN, SEAT0, SEAT1)
    state.apply("gather harvester")
    state.apply("move portal A:1,0 u3")
    root = picture(state, 1)
    assert [c.attrib["data-card"] for c in classed(root, "played")] == ["harvester", "portal"]
    assert any("moving the u3 from A:1,0: 2 movement left" in t for t in texts(root))


# -- clicking ---------------------------------------------------------------------------------------------------------


def test_action_tokens_are_the_card_then_the_piece_place_or_purchase() -> None:
    assert action_tokens("found A:0,0") == ["A:0,0"]
    assert action_tokens("step S:-1,0") == ["S:-1,0"]
    assert action_tokens("move portal C:-1,1 u3") == ["portal", "C:-1,1 u3"]
    assert action_tokens("move portal C:-1,1 base") == ["portal", "C:-1,1"]
    assert action_tokens("research scientists excavater") == ["scientists", "buy excavater"]
    assert action_tokens("build engineers titan-force") == ["engineers", "buy titan-force"]
    assert action_tokens("connect portal A:0,0 B:1,0") == ["portal", "A:0,0", "B:1,0"]
    assert action_tokens("deploy assault-team A:1,0") == ["assault-team", "A:1,0"]
    assert action_tokens("gather harvester") == ["gather", "harvester"]
    assert action_tokens("end") == ["end"] and action_tokens("stop") == ["stop"]
    assert {"gather", "stop", "end"} == BUTTON_TOKENS


def test_in_a_busy_turn_every_legal_action_is_picked_by_clicking_its_drawn_tokens() -> None:
    state = scenario(BUSY_TURN, SEAT0, SEAT1)
    legal = [str(a) for a in state.legal_actions()]
    assert {n.split()[0] for n in legal} == {"move", "gather", "research", "build", "connect", "deploy", "end"}
    drawn = tokens_in(picture(state, 0))
    assert {"A:1,0 u3", "A:0,0 u2", "scientists", "buy excavater", "buy titan-force"} <= drawn
    assert "S:0,0 u4" not in drawn  # an enemy unit is no token: a click on it reaches its hex
    for notation in legal:
        clicks = action_tokens(notation)
        assert all(t in drawn or t in BUTTON_TOKENS for t in clicks), notation
        assert chosen(legal, clicks, action_tokens) == notation
    for token in drawn | BUTTON_TOKENS:
        assert set(narrow(legal, [token], action_tokens)) <= set(legal)
    state.apply("move harvester A:1,0 u3")
    legal = [str(a) for a in state.legal_actions()]
    drawn = tokens_in(picture(state, 0))
    assert not any(t.endswith(" u3") for t in drawn)  # while a piece moves, a click on a unit's hex is a step
    assert all(chosen(legal, action_tokens(n), action_tokens) == n for n in legal)
    assert all(t in drawn or t in BUTTON_TOKENS for n in legal for t in action_tokens(n))


def test_only_the_seat_to_play_gets_clickable_cards_and_units() -> None:
    state = scenario(BUSY_TURN, SEAT0, SEAT1)
    other = picture(state, 1)
    assert not [c for c in classed(other, "card") if "tok" in c.attrib["class"]]
    assert {c.attrib["data-card"] for c in classed(other, "card")} == {"plasma-furnace", "titan-force", "metroplex"}
    spectator = picture(state, None)
    assert not classed(spectator, "card")
    assert all("tok" not in u.attrib["class"] or u.attrib["data-seat"] == "0" for u in classed(spectator, "unit"))


# -- escaping, colour, hidden information -------------------------------------------------------------------------------


def test_text_from_the_view_is_escaped_and_the_picture_still_parses() -> None:
    state = scenario(BUSY_TURN, SEAT0, SEAT1)
    view: dict[str, Any] = state.picture_view(0)
    nasty = '<script>alert("x")</script> & <b>'
    view["map"] = nasty
    view["events"] = [nasty]
    view["players"][0]["hand"] = [nasty, "harvester"]
    view["players"][1]["discard"] = {nasty: 2}
    view["players"][1]["known_in_hand"] = [nasty]
    root = ET.fromstring(render_svg(view))
    assert not any(el.tag.endswith("script") or el.tag == f"{NS}b" for el in root.iter())
    assert root.find(f"{NS}title").text == f"Connected Worlds · {nasty}"  # type: ignore[union-attr]
    assert nasty in texts(root)
    assert any(c.attrib.get("data-token") == nasty for c in classed(root, "card"))
    assert any(nasty in t for t in texts(root) if t.startswith("discard pile"))


def test_a_designers_map_is_drawn_whole_from_the_boards_the_view_holds(tmp_path: Any) -> None:
    path = tmp_path / "tom.toml"
    path.write_text(
        'name = "Tom & Jerry\'s worlds"\nplayers = [2]\n[space]\nradius = 1\nhomeworlds = [[1, 0], [-1, 0], [0, 1]]\n'
        + "".join(
            f'[[world]]\nkey = "{k}"\nname = "W {k}"\nkind = "player"\nradius = 1\nat = {at}\n'
            for k, at in (("P", "[1, 0]"), ("Q", "[-1, 0]"), ("R", "[0, 1]"))
        )
    )
    state = GAME.new_game(2, 0, {"map": str(path)})
    state.apply("found P:0,0")
    state.apply("found Q:1,0")
    root = picture(state, 0)
    assert root.find(f"{NS}title").text == "Connected Worlds · Tom & Jerry's worlds"  # type: ignore[union-attr]
    assert sorted(b.attrib["data-hex"] for b in classed(root, "base")) == ["P:0,0", "Q:1,0"]
    assert {"P:0,0", "Q:1,0"} <= tokens_in(root)
    boards = state.view(0)["boards"]
    assert [b["key"] for b in boards] == ["S", "P", "Q", "R"]
    every_hex = {f"{b['key']}:{q},{r}" for b in boards for q, r in b["hexes"]}
    assert len(every_hex) == 4 * 7
    assert {g.attrib["data-token"] for g in classed(root, "hex")} == every_hex


def test_colour_is_never_alone_each_seat_has_its_own_letter_and_territory_hatch() -> None:
    state = scenario(
        "".join(
            f'[[base]]\nat = "{k}:0,0"\nowner = {p}\nstrength = {p + 1}\n[[unit]]\nat = "{k}:1,0"\nowner = {p}\nstrength = 2\n'
            for p, k in enumerate("ABCD")
        ),
        *["resources = 0"] * 4,
    )
    root = picture(state, 0)
    for p in range(4):
        (base,) = [b for b in classed(root, "base") if b.attrib["data-seat"] == str(p)]
        assert texts(base) == [f"{SEAT_MARKS[p]}{p + 1}"]
        (unit,) = [u for u in classed(root, "unit") if u.attrib["data-seat"] == str(p)]
        assert texts(unit) == [f"{SEAT_MARKS[p]}2"]
        assert {t.attrib["fill"] for t in classed(root, "terr") if t.attrib["data-seat"] == str(p)} == {f"url(#cw-terr{p})"}
    hatches = {el.attrib["id"]: el for el in root.iter(f"{NS}pattern")}
    assert len({h.attrib["patternTransform"] for h in hatches.values()}) == 4  # four directions of hatch lines, not only four colours
    for p in range(4):
        line = hatches[f"cw-terr{p}"].find(f"{NS}line")
        assert line is not None and line.attrib["stroke"] == SEAT_COLOURS[p]
    legend = " ".join(texts(classed(root, "legend")[0]))
    assert all(f"territory of {m}: hatch" in legend for m in SEAT_MARKS)


def test_the_picture_is_drawn_from_the_view_alone_hidden_cards_change_nothing() -> None:
    for state in busy_positions(40, seed=3):
        if state.is_over:
            continue
        seat = state.current_player
        assert seat is not None
        other = state.determinize(seat, Rng(7))  # every other hand and every deck re-dealt from the same cards
        assert other.render_svg(seat) == state.render_svg(seat)
        assert other.render_svg(None) == state.render_svg(None)
        full = state.full_view()
        drawn = sorted(c.attrib["data-card"] for c in classed(picture(state, seat), "card"))
        assert drawn == sorted(full["players"][seat]["hand"])
