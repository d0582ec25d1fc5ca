"""The contract: every game declares its parts, registration refuses a game whose parts are wrong, and games are found
through the entry points of the group ``astrarium.games``."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Iterator
from dataclasses import replace
from importlib.metadata import EntryPoint
from typing import Any

import pytest
from typer.testing import CliRunner

import astrarium
from astrarium.agents.base import agent_names, make_agent, resolve_player
from astrarium.cli import app
from astrarium.core import Option, registry
from astrarium.core.contract import LEVEL_NAMES, Help, Parts, Picture, check_contract
from astrarium.core.errors import ContractError
from astrarium.web.catalogue import file_options
from toygame import PileGame

SHIPPED = ["celestials", "connected-worlds", "constellations", "orbital-combat", "streamlines"]


# -- every shipped game declares its parts --------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", SHIPPED)
def test_every_shipped_game_declares_complete_typed_parts(game_id: str) -> None:
    game = astrarium.get_game(game_id)
    parts = game.parts
    assert check_contract(game) is parts and isinstance(parts, Parts)
    assert isinstance(parts.picture, Picture) and isinstance(parts.help, Help)
    assert callable(parts.describe) and callable(parts.render_fit)
    assert tuple(parts.levels) == LEVEL_NAMES and all(isinstance(spec, str) and spec for spec in parts.levels.values())
    assert isinstance(parts.search, str) and set(parts.level_summaries) <= set(LEVEL_NAMES)
    # Every game's picture module is its own package's, and so are its words, board and help texts.
    package = type(game).__module__
    hooks: list[Callable[..., Any] | None] = [parts.picture.render_svg, parts.describe, parts.render_fit, parts.help.things]
    assert all(hook is None or hook.__module__.startswith(package + ".") for hook in hooks)


@pytest.mark.parametrize("game_id", SHIPPED)
def test_every_declared_player_and_level_can_be_built(game_id: str) -> None:
    parts = astrarium.get_game(game_id).parts
    for name, reference in parts.players.items():
        assert name in agent_names(game_id) and resolve_player(game_id, name, reference).name == name  # type: ignore[attr-defined]
    for spec in (*parts.levels.values(), *([parts.guide] if parts.guide else [])):
        make_agent(spec, seed=1, game=game_id)


@pytest.mark.parametrize("game_id", SHIPPED)
def test_a_declared_judgement_is_the_one_the_state_gives(game_id: str) -> None:
    game = astrarium.get_game(game_id)
    evaluate = game.parts.evaluate
    assert evaluate is not None, f"{game_id} declares no judgement (evaluate.py, parts.evaluate)"
    state = game.new_game(game.min_players, 3)
    for _ in range(30):
        if state.is_over:
            break
        assert [evaluate(state, seat) for seat in range(state.players)] == [state.evaluate(seat) for seat in range(state.players)]
        state.apply(state.legal_actions()[0])


def test_the_file_naming_options_are_flagged_on_the_options() -> None:
    found = {game_id: file_options(astrarium.get_game(game_id)) for game_id in SHIPPED}
    assert found == {
        "celestials": {"sun_deck", "moon_deck"},
        "connected-worlds": {"cards"},
        "constellations": {"deck_file"},
        "orbital-combat": {"ring_table"},
        "streamlines": {"scenario_file"},
    }


# -- registration refuses a game whose parts are wrong --------------------------------------------------------------
def refusal(**changes: Any) -> str:
    """The message registering the toy game with ``changes`` to its parts raises (it must be refused)."""

    class Broken(PileGame):
        id = "toy-broken"
        parts = replace(PileGame.parts, **changes)

    with pytest.raises(ContractError) as caught:
        registry.register(Broken)
    assert "toy-broken" not in astrarium.list_games()
    message = str(caught.value)
    assert message.startswith("game 'toy-broken': ")
    return message


def test_a_game_without_parts_is_refused_naming_it() -> None:
    class Bare(astrarium.Game):
        id = "toy-bare"
        title = "Bare"
        min_players = max_players = 2
        state_class = PileGame.state_class

        def max_moves(self, players: int, options: Any) -> int:
            return 1

    with pytest.raises(ContractError, match=r"game 'toy-bare': parts: Bare declares no parts"):
        registry.register(Bare)


def test_parts_of_the_wrong_type_are_refused() -> None:
    class Loose(PileGame):
        id = "toy-loose"
        parts = {"picture": None}  # type: ignore[assignment]

    with pytest.raises(ContractError, match=r"game 'toy-loose': parts: expected a Parts, got dict"):
        registry.register(Loose)


def test_a_misspelt_hook_is_refused_naming_the_part() -> None:
    def render_fit(state: Any, seat: int | None = None, *, widht: int = 80, height: int = 18) -> str:
        return ""

    assert "render_fit: render_fit(state" in refusal(render_fit=render_fit)
    assert "describe: expected a function, got 'words'" in refusal(describe="words")
    picture = Picture(render_svg=lambda view: "", action_tokens=str.split, button_tokens=frozenset({"end"}))
    assert "picture.button_tokens: expected a frozenset" in refusal(picture=replace(picture, button_tokens={"end"}))
    assert "picture.render_svg: <lambda>(view, seat)" in refusal(picture=replace(picture, render_svg=lambda view, seat: ""))
    assert "help: expected a Help or None, got dict" in refusal(help={"cards": None})
    assert "evaluate: " in refusal(evaluate=lambda state: 0.0)


def test_levels_must_name_easy_medium_and_hard() -> None:
    assert "levels: hard missing" in refusal(levels={"easy": "greedy", "medium": "mcts"})
    assert "levels: 'expert' is no level" in refusal(levels={"easy": "greedy", "medium": "mcts", "hard": "mcts", "expert": "mcts"})
    assert "levels['hard']: expected a player spec, got ''" in refusal(levels={"easy": "greedy", "medium": "mcts", "hard": ""})
    assert "level_summaries: 'expert'" in refusal(level_summaries={"expert": "plays well"})
    assert "search: 'depth' should look like name=value" in refusal(search="depth")


def test_a_player_reference_must_read_module_colon_attribute() -> None:
    assert "players['toy-x']: expected 'module:attribute', got 'toygame.Play'" in refusal(players={"toy-x": "toygame.Play"})
    assert "players: 'Toy X' is no player name" in refusal(players={"Toy X": "toygame:Play"})


def test_a_names_file_flag_on_an_option_that_is_not_text_is_refused() -> None:
    class Flagged(PileGame):
        id = "toy-flagged"
        options = (*PileGame.options, Option("deck_size", 3, "cards", int, names_file=True))

    with pytest.raises(ContractError, match=r"game 'toy-flagged': option 'deck_size': names_file is set on an option of kind int"):
        registry.register(Flagged)


@pytest.mark.parametrize(
    ("reference", "problem"),
    [
        ("astrarium.agents.no_such_players:Player", "does not import"),
        ("astrarium.agents.scripted_orbital:NoSuchPlayer", "has no 'NoSuchPlayer'"),
        ("astrarium.agents.scripted_orbital:GAME_ID", "is a str, not a player"),
        ("astrarium.agents.scripted_orbital:GunnerPlayer", "is the player 'orbital-gunner', not 'orbital-turtle'"),
    ],
)
def test_a_bad_player_reference_is_an_error_naming_the_game_and_the_player(reference: str, problem: str) -> None:
    with pytest.raises(ContractError, match=r"game 'orbital-combat': players\['orbital-turtle'\]: ") as caught:
        resolve_player("orbital-combat", "orbital-turtle", reference)
    assert problem in str(caught.value)


# -- discovery through entry points ---------------------------------------------------------------------------------
def test_astrarium_declares_its_games_as_entry_points() -> None:
    points = importlib.metadata.entry_points(group=registry.ENTRY_POINT_GROUP)
    assert sorted(point.name for point in points) == SHIPPED
    assert all(point.value.startswith("astrarium.games.") for point in points)


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Stand in for the installed packages' entry points, and discover afresh from them."""
    agent_names()  # the shipped games' scripted players stay registered, as they were found before

    def install(**points: str) -> None:
        found = [EntryPoint(name, value, registry.ENTRY_POINT_GROUP) for name, value in points.items()]

        def entry_points(*, group: str) -> list[EntryPoint]:
            return found if group == registry.ENTRY_POINT_GROUP else []

        monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
        monkeypatch.setattr(registry, "_GAMES", {})
        monkeypatch.setattr(registry, "_BROKEN", {})
        monkeypatch.setattr(registry, "_discovered", False)

    yield install


def test_games_are_discovered_through_entry_points(installed: Callable[..., None]) -> None:
    installed(**{"toy-pile": "toygame:PileGame"})
    assert astrarium.list_games() == ["toy-pile"]
    assert isinstance(astrarium.get_game("toy-pile"), PileGame) and registry.discovery_errors() == []


def test_a_broken_entry_point_is_an_error_naming_it(installed: Callable[..., None]) -> None:
    installed(
        **{"toy-pile": "toygame:PileGame", "lost": "no_such_package.game:LostGame", "other": "toygame:PileGame", "plain": "toygame:Play"}
    )
    assert astrarium.list_games() == ["toy-pile"]
    messages = [str(error) for error in registry.discovery_errors()]
    assert messages[0].startswith("game 'lost': entry point lost = no_such_package.game:LostGame (astrarium.games): cannot be loaded: ")
    assert "names the game 'toy-pile'; the entry point's name must be its id" in messages[1]
    assert "names type" in messages[2] and "not a Game" in messages[2]
    with pytest.raises(ContractError, match=r"game 'lost': entry point lost"):
        astrarium.get_game("lost")


def test_astrarium_games_lists_the_good_games_and_names_the_broken_entry_point(installed: Callable[..., None]) -> None:
    installed(**{"toy-pile": "toygame:PileGame", "lost": "no_such_package.game:LostGame"})
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 2
    assert "toy-pile" in result.stdout
    assert "error: game 'lost': entry point lost = no_such_package.game:LostGame" in result.stderr
