"""The terminal front end: commands, the play loop and the menu, driven with scripted input."""

from __future__ import annotations

import io
import json

from rich.console import Console
from typer.testing import CliRunner

import astrarium
import astrarium.agents
from astrarium.agents import make_agent, parse_agent_spec
from astrarium.cli import app
from astrarium.cli.app import default_players
from astrarium.cli.menu import run_menu, seat_kinds
from astrarium.cli.session import PlayLoop, parse_seats, step_through
from helpers import answers as scripted

runner = CliRunner()


def console() -> Console:
    return Console(file=io.StringIO(), width=120, color_system=None)


def output(c: Console) -> str:
    return c.file.getvalue()  # type: ignore[attr-defined]


def test_games_lists_titles_and_player_counts() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "toy-pile" in result.stdout and "2-3" in result.stdout


def test_rules_prints_the_rules_and_options() -> None:
    result = runner.invoke(app, ["rules", "toy-pile"])
    assert result.exit_code == 0
    assert "Toy Pile" in result.stdout and "target" in result.stdout


def test_unknown_game_is_one_line_not_a_traceback() -> None:
    result = runner.invoke(app, ["rules", "chess"])
    assert result.exit_code == 2
    assert "no game called 'chess'" in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output


def test_bad_option_and_seat_are_one_line_errors() -> None:
    result = runner.invoke(app, ["play", "toy-pile", "--option", "target=99"])
    assert result.exit_code == 2 and "option 'target'" in result.stderr
    result = runner.invoke(app, ["play", "toy-pile", "--seat", "5=random"])
    assert result.exit_code == 2 and "seats are numbered 0 to 2" in result.stderr  # toy-pile seats at most 3
    result = runner.invoke(app, ["play", "toy-pile", "--seat", "1=wizard"])
    assert result.exit_code == 2 and "unknown player kind 'wizard'" in result.stderr


def test_play_seats_as_many_players_as_the_seats_named() -> None:
    toy = astrarium.get_game("toy-pile")
    assert default_players(toy, []) == 2  # the game's minimum
    assert default_players(toy, [0, 2]) == 3
    assert default_players(astrarium.get_game("constellations"), [1]) == 2  # a solo-capable game, two seats named
    result = runner.invoke(app, ["play", "constellations", "--seat", "0=random", "--seat", "1=random", "--seed", "3"])
    assert result.exit_code == 0, result.stdout
    assert "Game over" in result.stdout and "seat 1" in result.stdout


def test_play_between_two_bots_runs_to_the_end() -> None:
    result = runner.invoke(app, ["play", "toy-pile", "--seat", "0=random", "--seat", "1=random", "--seed", "4"])
    assert result.exit_code == 0, result.stdout
    assert "Game over" in result.stdout


def test_human_bad_input_gets_an_error_and_the_prompt_again(tmp_path) -> None:
    state = astrarium.get_game("toy-pile").new_game(2, 1)
    c = console()
    save = tmp_path / "g.json"
    loop = PlayLoop(state, {0: "human", 1: "random"}, c, scripted(["99", "dance", "play 9", "help", "list", f"save {save}", "1"]))
    loop.run()
    text = output(c)
    assert "99 is not in the list" in text
    assert "write 'play N'" in text
    assert "Traceback" not in text
    assert json.loads(save.read_text())["game"] == "toy-pile"
    assert loop.state.move_number >= 2  # the human played 1, then the bot answered


def test_undo_takes_back_the_last_human_action_and_the_bot_reply() -> None:
    state = astrarium.get_game("toy-pile").new_game(2, 3, {"target": 60, "copies": 4})
    c = console()
    loop = PlayLoop(state, {0: "human", 1: "random"}, c, scripted(["1", "1", "undo"]))
    loop.run()
    assert loop.state.move_number == 2
    assert "Took back to move 3" in output(c)  # the header of the position taken back to says move 3 too


def test_load_continues_a_saved_game(tmp_path) -> None:
    game = astrarium.get_game("toy-pile")
    saved = game.new_game(2, 8)
    saved.apply(saved.legal_actions()[0])
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(saved.to_record()))
    c = console()
    loop = PlayLoop(game.new_game(2, 8), {0: "human", 1: "human"}, c, scripted([f"load {path}", "", "load nowhere.json"]))
    loop.run()
    assert loop.state.history == saved.history
    assert "cannot read" in output(c)


def test_replay_command_shows_the_final_position(tmp_path) -> None:
    state = astrarium.get_game("toy-pile").new_game(2, 2)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(state.to_record()))
    result = runner.invoke(app, ["replay", str(path), "--final"])
    assert result.exit_code == 0 and state.outcome.reason in result.stdout  # type: ignore[union-attr]
    c = console()
    step_through(state.to_record(), c, scripted(["", "b", "2", "x", "q"]))
    assert "position after move 2" in output(c)
    bad = runner.invoke(app, ["replay", str(tmp_path / "none.json")])
    assert bad.exit_code == 2 and "cannot read" in bad.stderr


def test_menu_sets_up_a_game_and_plays_it() -> None:
    c = console()
    ids = astrarium.list_games()
    choice = str(ids.index("toy-pile") + 1)
    bot = str(seat_kinds("toy-pile").index("random") + 1)
    # game, players, seat 0 = random, seat 1 = random (Enter), seed, then decline another game
    run_menu(c, scripted([choice, "2", bot, "", "5", "n"]))
    text = output(c)
    assert "Game over" in text and "Goodbye" in text


def test_menu_survives_bad_input_and_end_of_input() -> None:
    c = console()
    run_menu(c, scripted(["zero", "999"]))
    text = output(c)
    assert "Please type a number" in text and "Goodbye" in text


def test_seat_and_agent_specs_parse() -> None:
    assert parse_seats(["1=mcts:iterations=20"], 3) == {0: "human", 1: "mcts:iterations=20", 2: "random"}
    assert parse_agent_spec("mcts:iterations=2000,seconds=0.5,cheat=true") == (
        "mcts",
        {"iterations": 2000, "seconds": 0.5, "cheat": True},
    )
    agent = make_agent("random", seed=3)
    state = astrarium.get_game("toy-pile").new_game(2, 0)
    assert agent.choose(state) in state.legal_actions()


def test_every_game_plays_to_the_end_at_the_terminal() -> None:
    for game_id in astrarium.list_games():
        game = astrarium.get_game(game_id)
        seats = [arg for seat in range(game.min_players) for arg in ("--seat", f"{seat}=random")]
        result = runner.invoke(app, ["play", game_id, "--players", str(game.min_players), "--seed", "1", *seats])
        assert result.exit_code == 0, f"{game_id}: {result.stdout[-500:]}"
        assert "Game over" in result.stdout, game_id


def test_every_game_shows_a_human_its_position_and_choices() -> None:
    for game_id in astrarium.list_games():
        game = astrarium.get_game(game_id)
        state = game.new_game(game.min_players, 2)
        c = console()
        seats = {seat: "human" for seat in range(game.min_players)}
        loop = PlayLoop(state, seats, c, scripted(["0", "no such action", "1"]))
        loop.run()
        text = output(c)
        assert loop.state.move_number == 1, game_id
        assert "0 is not in the list" in text, game_id
        assert "Traceback" not in text
        assert "1  " in text or " 1 " in text, game_id
