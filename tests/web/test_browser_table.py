"""The web table in a real browser: headless Chromium (Debian's package) driven by Playwright, against a real server.

For every game: a person and a computer player are set up from the lobby's
form, the person plays several moves by clicking the picture (or the action
buttons where a game has no picture yet), reloads the page and goes on, while
a spectator watches in a second browser context. Two people in two contexts
each play a Streamlines turn. Screenshots are kept in build/test-artifacts/.
CI installs Chromium and these tests fail there without it; elsewhere they skip.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import astrarium
from astrarium.web.catalogue import has_picture

ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts"

GAMES = [g for g in astrarium.list_games() if type(astrarium.get_game(g)).__module__.startswith("astrarium.games.")]
MOVES = 3


class Tab:
    """One page, with the console errors it logged."""

    def __init__(self, context: Any) -> None:
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.set_default_timeout(20_000)

    def moves(self) -> int:
        return int(self.page.locator("#log li[value]").count())

    def wait_my_turn(self) -> None:
        # (Locators, not wait_for_function: the page's content security policy forbids the eval it would need.)
        self.page.wait_for_selector("body[data-my-turn='yes'], #over:not([hidden])")

    def over(self) -> bool:
        return bool(self.page.locator("#over").is_visible())

    def play_one(self, game_id: str) -> str:
        """Play the first legal action by clicking its tokens in the picture (buttons for verbs); returns its notation."""
        page = self.page
        self.wait_my_turn()
        notation = str(page.locator("#legal button[data-action]").first.get_attribute("data-action"))
        before = self.moves()
        game = astrarium.get_game(game_id)
        if has_picture(game):
            for token in game.action_tokens(notation):
                if page.locator("#status").inner_text().startswith("Playing") or self.moves() > before:
                    break  # the tokens clicked so far picked it
                drawn = page.locator(f'#board [data-token="{token}"]')
                if drawn.count():
                    drawn.first.dispatch_event("click")
                else:
                    page.locator(f'#buttons [data-button="{token}"]').click()
        else:
            page.locator(f'#legal button[data-action="{notation}"]').click()
        page.locator("#log li[value]").nth(before).wait_for()
        assert page.locator("#log li[value]").nth(before).inner_text().endswith(notation)
        return notation


def new_context(browser: Any, phone: bool = False) -> Any:
    size = {"width": 390, "height": 844} if phone else {"width": 1200, "height": 1000}
    return browser.new_context(viewport=size)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_person_plays_a_computer_from_the_lobby_reloads_and_is_watched(browser: Any, server: str, game_id: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    game = astrarium.get_game(game_id)
    player_context = new_context(browser, phone=game_id == "streamlines")
    me = Tab(player_context)
    page = me.page
    page.goto(server + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game_id)
    players = max(2, game.min_players)
    page.select_option("#players", str(players))
    for seat in range(1, players):
        page.select_option(f"[name=kind{seat}]", "computer:easy")
    page.click("#create")
    page.wait_for_selector("#made:not([hidden])")
    watch_link = page.locator("#made-links input").last.input_value()
    page.click("#made-go")
    page.wait_for_selector("#who:has-text('You play seat 0')")
    played = []
    for _ in range(MOVES):
        if me.over():
            break
        played.append(me.play_one(game_id))
    page.screenshot(path=str(ARTIFACTS / f"web-{game_id}-player.png"), full_page=True)
    page.reload()
    page.wait_for_selector("#link-state:has-text('connected')")
    # The welcome says "connected"; the position (and its log) is the next message, so wait for the moves to be drawn again.
    if played:
        page.locator("#log li[value]").nth(len(played) - 1).wait_for()
    count = me.moves()
    assert count >= len(played)
    if not me.over():
        played.append(me.play_one(game_id))
    watcher_context = new_context(browser)
    watcher = Tab(watcher_context)
    watcher.page.goto(watch_link)
    watcher.page.wait_for_selector("#who:has-text('You are watching')")
    watcher.page.locator("#log li[value]").nth(count).wait_for()
    assert watcher.page.locator("#choice").is_hidden()
    if has_picture(game):
        assert watcher.page.locator("#board svg").count() == 1
    watcher.page.screenshot(path=str(ARTIFACTS / f"web-{game_id}-spectator.png"), full_page=True)
    assert me.errors == [] and watcher.errors == []
    player_context.close()
    watcher_context.close()


def test_two_people_in_two_browsers_each_play_a_streamlines_turn(browser: Any, server: str) -> None:
    import httpx

    made = httpx.post(server + "/api/tables", json={"game": "streamlines", "seats": [{"kind": "person"}] * 2}).json()
    contexts = [new_context(browser), new_context(browser, phone=True)]
    tabs = [Tab(c) for c in contexts]
    for tab, seat in zip(tabs, made["seats"], strict=True):
        tab.page.goto(server + seat["link"])
        tab.page.wait_for_selector("#link-state:has-text('connected')")
    turns_done = 0
    mover = 0
    while turns_done < 2:
        tab = tabs[mover]
        tab.play_one("streamlines")
        still_mine = tab.page.get_attribute("body", "data-my-turn") == "yes"
        if not still_mine:
            turns_done += 1
            mover = 1 - mover
            tabs[mover].wait_my_turn()
    for number, tab in enumerate(tabs):
        tab.page.screenshot(path=str(ARTIFACTS / f"web-streamlines-two-people-{number}.png"), full_page=True)
        assert tab.errors == []
    assert tabs[0].moves() == tabs[1].moves()
    for context in contexts:
        context.close()


def test_a_person_clicks_each_part_of_a_connected_worlds_choice_split_into_steps(browser: Any, server: str) -> None:
    import httpx

    seats = [{"kind": "person"}, {"kind": "computer", "level": "medium"}]
    made = httpx.post(server + "/api/tables", json={"game": "connected-worlds", "seats": seats, "options": {"choices": "steps"}}).json()
    context = new_context(browser)
    me = Tab(context)
    me.page.goto(server + made["seats"][0]["link"])
    me.page.wait_for_selector("#link-state:has-text('connected')")
    played = [me.play_one("connected-worlds") for _ in range(4)]
    assert [n.split()[0] for n in played] == ["found", "move", "at", "piece"]
    assert me.page.locator('#buttons [data-button="move"]').count() == 0  # offered only while a head is legal
    me.page.screenshot(path=str(ARTIFACTS / "web-connected-worlds-steps.png"), full_page=True)
    assert me.errors == []
    context.close()
