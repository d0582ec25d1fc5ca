"""Pictures in a real browser: headless Chromium (Debian's package) driven by Playwright.

For every game: a position's page loads with no console error, is not blank,
and clicking the tokens of a legal action in the picture narrows to exactly
that action; the HTML replay of a game steps forward and back by keyboard.
Screenshots are kept in build/test-artifacts/. CI installs Chromium when it is
missing and these tests fail there without it; elsewhere they skip, saying what
to install.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import astrarium
from astrarium.pictures import position_page, record_to_html

ARTIFACTS = Path(__file__).resolve().parent.parent / "build" / "test-artifacts"

GAMES = [g for g in astrarium.list_games() if g != "toy-pile"]


def mid_game(game_id: str, seed: int = 3, moves: int = 12):
    """A position some random moves in, with a seat to move."""
    game = astrarium.get_game(game_id)
    rng = random.Random(seed)
    state = game.new_game(max(2, game.min_players), seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def open_page(browser, html: str, name: str, width: int = 900):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    page = browser.new_page(viewport={"width": width, "height": 1100})
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(path.as_uri())
    return page, errors


def assert_not_blank(page) -> None:
    size = page.evaluate("() => { const r = document.querySelector('svg').getBoundingClientRect(); return [r.width, r.height]; }")
    assert size[0] > 200 and size[1] > 200
    drawn = page.evaluate("() => document.querySelectorAll('svg *').length")
    assert drawn > 20


@pytest.mark.parametrize("game_id", GAMES)
def test_a_position_is_drawn_and_clicking_its_tokens_picks_the_action(browser, game_id: str) -> None:
    state = mid_game(game_id)
    seat = state.current_player
    game = state.game
    page, errors = open_page(browser, position_page(state, seat), f"{game_id}-position")
    assert_not_blank(page)
    legal = [str(a) for a in state.legal_actions()]
    buttons = game.button_tokens()
    for notation in random.Random(1).sample(legal, min(3, len(legal))):
        page.click("#clear")
        for token in game.action_tokens(notation):
            drawn = page.locator(f'svg [data-token="{token}"]')
            if drawn.count():
                drawn.first.dispatch_event("click")
            else:
                assert token in buttons, f"{token!r} is neither drawn nor a button"
                page.click(f'#buttons [data-button="{token}"]')
        assert page.evaluate("() => document.body.dataset.chosen") == notation
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-position.png"), full_page=True)
    assert not errors, errors
    phone = browser.new_page(viewport={"width": 360, "height": 740})
    phone.goto((ARTIFACTS / f"{game_id}-position.html").as_uri())
    width = phone.evaluate("() => document.querySelector('svg').getBoundingClientRect().width")
    assert 300 <= width <= 360
    phone.screenshot(path=str(ARTIFACTS / f"{game_id}-phone.png"))
    phone.close()
    page.close()


@pytest.mark.parametrize("game_id", GAMES)
def test_the_html_replay_steps_through_a_game(browser, game_id: str) -> None:
    state = mid_game(game_id, seed=5, moves=30)
    record = state.to_record(public=not state.is_over)
    page, errors = open_page(browser, record_to_html(record), f"{game_id}-replay")
    assert_not_blank(page)  # the start is drawn before the moves are unpacked
    page.wait_for_selector("body[data-ready]")
    assert page.inner_text("#where") == "start"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#where").startswith("after move 2")
    page.keyboard.press("End")
    assert page.inner_text("#where") == f"after move {state.move_number} of {state.move_number}"
    page.click("#moves li >> nth=0")
    assert page.inner_text("#where").startswith("after move 1")
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-replay.png"), full_page=True)
    assert not errors, errors
    page.close()
