"""Small replays: the pictures packed as differences and gzip, unpacked by the page itself, offline.

The packing gives back every picture exactly; a 600-move game's page stays
under 2 MB; in headless Chromium each game's long replay shows its first and
last position (the same text as the pictures drawn in Python), steps by
keyboard and by the move list, logs no console error and sends no request
(a route fails any); served with the web table's sandboxed policy
(``replay_csp``) it works the same.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import astrarium
from astrarium.pictures import record_to_html, replay_frames
from astrarium.pictures.packing import apply_ops, diff_indices, gzip_base64, pack_pictures, ungzip_base64, unpack_pictures
from helpers import BROWSER_ARTIFACTS, load_script, open_offline

GAMES = [g for g in astrarium.list_games() if g != "toy-pile"]
#: The target: a game of 600 moves (or the longest a game allows) fits in this many bytes.
MAX_BYTES = 2_000_000


SIZES = load_script("replay_sizes")  # the seeded long games of the figures in docs/performance.md


def long_record(game_id: str, moves: int = 600, seed: int = 1) -> dict[str, Any]:
    """A seeded random game of at most ``moves`` actions, every limit raised (public while unfinished)."""
    record: dict[str, Any] = SIZES.long_record(game_id, seed, moves)
    return record


@functools.cache
def long_page(game_id: str) -> str:
    """The HTML replay of :func:`long_record` (made once a game: the size check and the browser both read it)."""
    return record_to_html(long_record(game_id))


def svg_text(svg: str) -> str:
    """The text a picture shows, as the browser's ``textContent`` gives it."""
    return "".join(ET.fromstring(svg).itertext())


# -- the packing ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [([], []), ([], [1, 2, 3]), ([1, 2, 3], []), ([1, 2, 3, 4], [1, 2, 9, 3, 4]), ([5, 6, 7, 8], [7, 8, 5, 6]), ([1, 1, 1], [1, 1, 1, 1])],
)
def test_a_difference_rebuilds_the_next_list(before: list[int], after: list[int]) -> None:
    assert apply_ops(before, diff_indices(before, after)) == after


def test_packed_pictures_come_back_exactly_and_a_move_costs_little() -> None:
    record = long_record("connected-worlds", moves=120)
    game, frames = replay_frames(record)
    pictures = [game.render_svg(frame) for frame in frames]
    packed = pack_pictures(pictures)
    assert unpack_pictures(ungzip_base64(gzip_base64(packed))) == pictures
    assert len(gzip_base64(packed)) < sum(map(len, pictures)) / 50


@pytest.mark.parametrize("game_id", ["connected-worlds", "celestials"])
def test_a_600_move_game_replays_in_at_most_2_mb(game_id: str) -> None:
    record = long_record(game_id)
    assert len(record["actions"]) == 600
    page = long_page(game_id).encode("utf-8")
    assert len(page) <= MAX_BYTES, f"{game_id}: {len(page):,} bytes for 600 moves"


# -- in a real browser ------------------------------------------------------------------------------------------


def shown_text(page: Any) -> str:
    return str(page.evaluate("() => document.querySelector('#board svg').textContent"))


def check_stepping(page: Any, pictures: list[str]) -> None:
    """First and last positions show their own pictures; keys, the slider's ends and the move list step."""
    last = len(pictures) - 1
    assert page.inner_text("#where") == "start" and shown_text(page) == svg_text(pictures[0])
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#where") == f"after move 2 of {last}" and shown_text(page) == svg_text(pictures[2])
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#where") == f"after move 1 of {last}"
    page.keyboard.press("End")
    assert page.inner_text("#where") == f"after move {last} of {last}" and shown_text(page) == svg_text(pictures[last])
    page.click(f"#moves li >> nth={last // 2 - 1}")
    assert page.inner_text("#where") == f"after move {last // 2} of {last}" and shown_text(page) == svg_text(pictures[last // 2])
    page.keyboard.press("Home")
    assert page.inner_text("#where") == "start"
    assert page.locator("#moves li").count() == last and page.locator("#unpacking").is_hidden()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_long_replay_works_offline_in_chromium(browser: Any, game_id: str) -> None:
    record = long_record(game_id)
    game, frames = replay_frames(record)
    pictures = [game.render_svg(frame) for frame in frames]
    html = long_page(game_id)
    assert len(html.encode("utf-8")) <= MAX_BYTES
    page, errors, requests = open_offline(browser, html, f"{game_id}-long-replay", ready="body[data-ready]")
    check_stepping(page, pictures)
    page.screenshot(path=str(BROWSER_ARTIFACTS / f"{game_id}-long-replay.png"))
    assert not errors, errors
    assert not requests, requests
    page.close()


def test_the_replay_works_under_the_web_tables_sandboxed_policy(browser: Any) -> None:
    from astrarium.web.app import replay_csp

    record = long_record("orbital-combat", moves=80)
    game, frames = replay_frames(record)
    html = record_to_html(record)
    page, errors, requests = open_offline(browser, html, "replay-under-csp", csp=replay_csp(html), ready="body[data-ready]")
    check_stepping(page, [game.render_svg(frame) for frame in frames])
    assert not errors, errors
    assert not requests, requests
    page.close()
