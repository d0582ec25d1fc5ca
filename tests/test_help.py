"""Help written for players: How to play per game, card and piece texts, hints, the menu's options, flags in --help.

The worked example of each How to play is played move by move from its seed, so every notation it
prints is checked to be legal in the position where it is printed.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

import astrarium
from astrarium.agents.hint import suggest
from astrarium.agents.levels import level_summary, table_spec
from astrarium.cli.app import app
from astrarium.cli.menu import choose_options, menu_options
from astrarium.cli.session import COMMANDS, PlayLoop

GAMES = [g for g in astrarium.list_games() if not g.startswith("toy")]
runner = CliRunner()

#: Each How to play's worked example: the seed it names (two players, default options) and every action typed, in order.
EXAMPLES: dict[str, tuple[int, list[str]]] = {
    "constellations": (7, ["rot a1", "rot d6", "play g/1"]),
    "orbital-combat": (7, ["coast w7 d3", "coast w8 d2", "rot burn retro soft w4 d4", "burn pro hard w3 d5"]),
    "celestials": (7, ["play phoenix A1", "play sun-temple A0", "advance", "discard solar-archer"]),
    "connected-worlds": (
        7,
        [
            "found C:-1,1",
            "found B:0,-1",
            "gather harvester",
            "end",
            "end",
            "deploy assault-team C:0,0",
            "move harvester C:0,0 u2",
            "step S:0,-2",
        ],
    ),
    "streamlines": (7, ["move e6", "move e7", "end", "move e6", "end", "move e8", "draw"]),
}
#: Actions of an example that its text does not print (the other seat's plain ``end``), per game.
UNPRINTED = {"connected-worlds": {"end"}}


def console(width: int = 120) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None)


def output(c: Console) -> str:
    return c.file.getvalue()  # type: ignore[attr-defined]


class Person:
    """Answers each turn's prompt from a list; then leaves the game (and says yes to leaving, no to saving)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def __call__(self, prompt: str) -> str:
        if prompt.startswith("Leave this unfinished game"):
            return "y"
        if prompt.startswith("Save"):
            return ""
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def plain(markup: str) -> str:
    """Rich markup as the plain text a person reads."""
    from rich.text import Text

    return Text.from_markup(markup).plain


def worked_example(text: str) -> str:
    """The paragraph of a How to play that holds its worked example."""
    start = text.index("**A worked example**")
    end = text.find("\n\n", start)
    return text[start : end if end != -1 else len(text)]


# -- How to play ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_how_to_play_is_one_short_page_for_a_newcomer(game_id: str) -> None:
    text = astrarium.get_game(game_id).how_to_play()
    lines = text.strip().splitlines()
    assert 15 <= len(lines) <= 40
    assert lines[0] == f"# How to play {astrarium.get_game(game_id).title}"
    for part in ("**Goal.**", "**Typing actions.**", "**A worked example**"):
        assert part in text
    assert "turn" in text.lower() or "round" in text.lower()
    for word in ("view(", "OptionError", "evaluate(", ".txt", "seed_"):  # no API names, no seed file names
        assert word not in text


@pytest.mark.parametrize("game_id", GAMES)
def test_how_to_play_worked_example_is_legal_move_by_move(game_id: str) -> None:
    seed, moves = EXAMPLES[game_id]
    game = astrarium.get_game(game_id)
    example = worked_example(game.how_to_play())
    assert f"astrarium play {game_id} --seed {seed}" in example
    state = game.new_game(2, seed)
    start = plain(state.render(0))
    for move in moves:
        legal = [str(action) for action in state.legal_actions()]
        assert move in legal, f"{move!r} is not legal at move {state.move_number + 1}"
        state.apply(move)
    printed = set(re.findall(r"`([^`]+)`", example)) - {f"astrarium play {game_id} --seed {seed}"}
    # Every notation the example prints is one of its moves (checked above) or shown on seat 0's first screen
    # (the cards of its hand), and every move it makes is printed.
    assert all(item in moves or item in start for item in printed), printed - set(moves)
    assert set(moves) - UNPRINTED.get(game_id, set()) <= printed


def test_rules_shows_how_to_play_and_full_shows_everything() -> None:
    short = runner.invoke(app, ["rules", "streamlines"])
    assert short.exit_code == 0
    assert "How to play Streamlines" in short.stdout and "astrarium rules streamlines --full" in short.stdout
    assert "Decisions" not in short.stdout
    full = runner.invoke(app, ["rules", "streamlines", "--full"])
    assert full.exit_code == 0
    assert "Decisions" in full.stdout and "options (--option name=value)" in full.stdout


def test_rules_at_the_prompt_shows_how_to_play_then_the_board_again() -> None:
    c = console()
    state = astrarium.get_game("constellations").new_game(2, 7)
    PlayLoop(state, {0: "human", 1: "human"}, c, Person(["rules"])).run()
    text = output(c)
    how_to = text.index("How to play Constellations")
    assert "rules full" in text[how_to:]
    assert "Constellations: move 1, seat 0" in text[how_to:]  # the position is drawn again after the text


def test_rules_full_at_the_prompt_shows_the_complete_rules() -> None:
    c = console()
    state = astrarium.get_game("constellations").new_game(2, 7)
    PlayLoop(state, {0: "human", 1: "human"}, c, Person(["rules full"])).run()
    assert "Decisions" in output(c)


# -- card and info -------------------------------------------------------------------------------------


def test_every_card_of_the_card_games_has_its_text_from_the_data() -> None:
    celestials = astrarium.get_game("celestials").cards()
    for key in ("solar-lion", "phoenix", "sunspear", "night-wolf", "moon-well", "advance"):
        assert key in celestials
    assert "Damage 2, health 3" in celestials["phoenix"] and "Dawn" in celestials["phoenix"]
    worlds = astrarium.get_game("connected-worlds").cards()
    assert "gather 3 resources" in worlds["harvester"] and "costs 3" in worlds["harvester"]
    assert "base of strength 3" in worlds["outpost"]
    streams = astrarium.get_game("streamlines").cards()
    for key in ("refugee", "tee", "gate-a", "collapse", "tailwind", "extra-move"):
        assert key in streams
    assert astrarium.get_game("orbital-combat").cards() == {}


def test_a_designers_deck_is_described_as_given(tmp_path) -> None:
    """The card texts come from the game's own cards: a state with another card table is described by it."""
    game = astrarium.get_game("connected-worlds")
    state = game.new_game(2, 1)
    assert game.card_text("titan-force", state).startswith("titan-force: Titan Force, unit card, costs 12.")


@pytest.mark.parametrize(
    ("game_id", "line", "expect"),
    [
        ("celestials", "card solar lion", "solar-lion: Solar Lion, the Sun's creature"),
        ("connected-worlds", "card Harvester", "harvester: Harvester, action card, costs 3"),
        ("streamlines", "card refugee", "refugee: Cargo: carry it to an Escape square"),
        ("orbital-combat", "info ring 4", "ring 4: ring 4 of 8: a ship on it moves 6 of its 48 sectors a round"),
        ("constellations", "info black hole", "black hole: B on the board: a star, black (k)"),
        ("celestials", "info zenith", "Zenith: the Sun's phase 2 of 3"),
        ("streamlines", "info escape", "escape: ESC on the board"),
        ("connected-worlds", "info beachhead", "beachhead: landing on a planet"),
    ],
)
def test_card_and_info_at_the_prompt_say_what_a_thing_is(game_id: str, line: str, expect: str) -> None:
    c = console(width=400)
    state = astrarium.get_game(game_id).new_game(2, 7)
    before = state.to_record()
    loop = PlayLoop(state, {0: "human", 1: "human"}, c, Person([line]))
    loop.run()
    assert expect in output(c)
    assert loop.state.to_record() == before  # asking changes nothing


@pytest.mark.parametrize(
    ("game_id", "line", "expect"),
    [
        ("celestials", "card solar lino", "Celestials has no card called 'solar lino'; did you mean solar-lion"),
        ("orbital-combat", "card scoop", "Orbital Combat has no cards; 'info THING' tells what a piece or square is"),
        ("streamlines", "card", "card needs a name, e.g. card action; known:"),
        ("constellations", "info wormhole", "Constellations has no card, piece or term called 'wormhole'"),
    ],
)
def test_an_unknown_card_or_thing_is_a_clear_line(game_id: str, line: str, expect: str) -> None:
    c = console(width=400)
    state = astrarium.get_game(game_id).new_game(2, 7)
    PlayLoop(state, {0: "human", 1: "human"}, c, Person([line])).run()
    assert expect in output(c)


# -- hint ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_hint_names_a_legal_action_and_says_why_in_one_line(game_id: str) -> None:
    c = console(width=400)
    state = astrarium.get_game(game_id).new_game(2, 7)
    before = state.to_record()
    loop = PlayLoop(state, {0: "human", 1: "human"}, c, Person(["hint"]))
    loop.run()
    hints = [line for line in output(c).splitlines() if line.startswith("Hint: ")]
    assert len(hints) == 1
    notation = hints[0].removeprefix("Hint: ").split(": ", 1)[0]
    assert notation in [str(action) for action in state.legal_actions()]
    assert "evaluation" in hints[0] or "wins the game" in hints[0]
    assert loop.state.to_record() == before  # a hint is not played


def test_hint_takes_a_winning_move_and_says_so() -> None:
    # Orbital Combat, ship B at 2 hull right beside ship A: full weapons destroy it this round.
    game = astrarium.get_game("orbital-combat")
    state = game.new_game(2, 1, {"ships": ["r3 s1", "r3 s2 h2"]})
    hint = suggest(state)
    assert hint.after == 1.0 and "it wins the game" in hint.line()
    assert str(hint.action) in [str(a) for a in state.legal_actions()]


def test_the_prompt_completes_the_new_commands() -> None:
    assert {"hint", "card", "info", "rules"} <= set(COMMANDS)


# -- the menu's options ---------------------------------------------------------------------------------


def test_the_menu_offers_modes_scenarios_and_variants_with_their_descriptions() -> None:
    names = {game_id: [o.name for o in menu_options(astrarium.get_game(game_id))] for game_id in GAMES}
    assert "scenario" in names["streamlines"]
    assert "victory" in names["connected-worlds"]
    assert "swap" in names["constellations"]  # the designer's variant switch
    c = console(width=200)
    answers = iter(["1", "1", ""])  # option 1 (scenario), its first choice (introductory), then play
    chosen = choose_options(lambda prompt: next(answers), c, astrarium.get_game("streamlines"), 2)
    assert chosen == {"scenario": "introductory"}
    text = output(c)
    assert astrarium.get_game("streamlines").option("scenario").help in text


def test_the_menu_switches_a_variant_and_picks_a_victory_mode() -> None:
    game = astrarium.get_game("constellations")
    swap = [o.name for o in menu_options(game)].index("swap") + 1
    answers = iter([str(swap), ""])
    assert choose_options(lambda prompt: next(answers), console(), game, 2) == {"swap": True}
    game = astrarium.get_game("connected-worlds")
    victory = [o.name for o in menu_options(game)].index("victory") + 1
    answers = iter([str(victory), "2", ""])
    assert choose_options(lambda prompt: next(answers), console(), game, 2) == {"victory": "capture"}


def test_a_game_started_from_the_menu_uses_the_options_chosen() -> None:
    from astrarium.cli.menu import run_menu

    ids = astrarium.list_games()
    answers = iter([str(ids.index("streamlines") + 1), "2", "1", "1", "", "1", "1", "3", "", "q"])
    # game, 2 players, option scenario -> introductory, play; both seats human; seed 3; then the first prompt ends
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("seat "):
            raise EOFError
        if prompt.startswith(("Leave", "Save")):
            return "y" if prompt.startswith("Leave") else ""
        return next(answers)

    c = console(width=200)
    run_menu(c, ask)
    text = output(c)
    # The introductory scenario: 4 refugees to rescue with two players (the standard one asks for 5).
    assert "Rescued 0 of 4 refugees" in text


# -- the command line's small things ------------------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["play"], ["replay"], ["rules"], ["arena"], ["puzzle"]])
def test_help_shows_flags_without_a_value_type(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "<bool>" not in result.stdout and "--help" in result.stdout


def search(game_id: str) -> str:
    """The search settings ``game_id`` declares (``parts.search``)."""
    return astrarium.get_game(game_id).parts.search


def test_a_level_searches_with_the_games_tuned_settings() -> None:
    assert table_spec("hard", True, "celestials") == f"mcts:{search('celestials')},iterations=1000,seconds=2"
    assert table_spec("medium", False, "orbital-combat") == f"mcts:{search('orbital-combat')},spread=0.02,worlds=one,seconds=0.3"
    assert table_spec("hard", True, "constellations") == f"mcts:{search('constellations')},iterations=300,seconds=2"
    loop = PlayLoop(astrarium.get_game("orbital-combat").new_game(2, 1), {0: "human", 1: "hard"}, console(), Person([]))
    agent = loop.agents[1]
    assert agent.seconds == 2 and agent.depth == 0 and agent.greedy_expand  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game_id", "medium"), [("celestials", "greedy:epsilon=0.2"), ("constellations", "greedy")])
def test_where_one_step_plays_well_easy_is_that_step_slipping_and_medium_the_step(game_id: str, medium: str) -> None:
    assert table_spec("easy", True, game_id) == "greedy:epsilon=0.5"
    assert table_spec("medium", True, game_id) == medium  # Celestials' medium slips one move in five
    assert "half at random" in level_summary("easy", game_id)
    loop = PlayLoop(astrarium.get_game(game_id).new_game(2, 1), {0: "human", 1: "easy"}, console(), Person([]))
    assert loop.agents[1].epsilon == 0.5  # type: ignore[attr-defined]


def test_streamlines_levels_play_the_search_team_over_the_courier() -> None:
    assert table_spec("easy", True, "streamlines") == "greedy"
    assert table_spec("medium", True, "streamlines") == "sl-search"
    assert table_spec("hard", True, "streamlines") == "sl-search:samples=12"
    game = astrarium.get_game("streamlines")
    loop = PlayLoop(game.new_game(2, 3), {0: "human", 1: "hard"}, console(), Person([]))
    agent = loop.agents[1]
    assert agent.name == "sl-search" and agent.samples == 12  # type: ignore[attr-defined]
    state = game.new_game(2, 3)
    assert agent.choose(state) in state.legal_actions()


def test_connected_worlds_levels_play_the_general_and_the_search_over_it() -> None:
    assert table_spec("easy", True, "connected-worlds") == "greedy"
    assert table_spec("medium", True, "connected-worlds") == "cw-general:ties=random"
    assert table_spec("hard", True, "connected-worlds") == "rollout:base=cw-general:ties=random,samples=2,depth=20,margin=0.1"
    game = astrarium.get_game("connected-worlds")
    loop = PlayLoop(game.new_game(2, 3), {0: "human", 1: "hard"}, console(), Person([]))
    agent = loop.agents[1]
    assert agent.name == "rollout" and agent.base_spec == "cw-general:ties=random"  # type: ignore[attr-defined]
    state = game.new_game(2, 3)
    assert agent.choose(state) in state.legal_actions()


# -- puzzles: the header a front end shows, the puzzle of the day, the list with packs ------------------------------
def test_a_puzzle_header_speaks_in_one_unit_and_the_game_s_own_header_wins() -> None:
    from astrarium.core.game import Puzzle

    plain = Puzzle(1, "first", "make g/3", {}, moves=3, shortest=2)
    assert plain.header() == ["Goal: make g/3", "Moves allowed: 3 (the shortest known solution takes 2)."]
    constellations = astrarium.get_game("constellations")
    first = constellations.puzzles()[0]
    header = first.header()
    assert header == [str(line) for line in first.extra["header"]]
    assert any("difficulty" in line.lower() for line in header)


def test_the_puzzle_of_the_day_is_the_same_all_day_and_moves_on() -> None:
    from datetime import date, timedelta

    game = astrarium.get_game("constellations")
    monday = date(2026, 11, 23)
    week = [game.puzzle_of_the_day(monday + timedelta(days=d)) for d in range(7)]
    assert game.puzzle_of_the_day(monday) == week[0]
    assert len({p.number for p in week}) > 1
    assert all(p in game.puzzles() for p in week)


def test_astrarium_puzzle_today_plays_the_puzzle_of_the_day_and_the_list_shows_packs() -> None:
    from datetime import date

    from typer.testing import CliRunner

    from astrarium.cli import app

    runner = CliRunner()
    game = astrarium.get_game("constellations")
    today = game.puzzle_of_the_day(date.today())
    result = runner.invoke(app, ["puzzle", "constellations", "today"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert f"Puzzle {today.number}:" in result.output
    listed = runner.invoke(app, ["puzzle", "constellations"])
    assert listed.exit_code == 0
    assert "pack" in listed.output and "Lamplight" in listed.output
    assert "astrarium puzzle constellations today" in " ".join(listed.output.split())
    refused = runner.invoke(app, ["puzzle", "constellations", "tomorrow"])
    assert refused.exit_code == 2
    assert "not tomorrow (or: today)" in refused.output


def test_the_constellations_board_counts_finds_and_points_in_words() -> None:
    game = astrarium.get_game("constellations")
    for seed in range(40):
        state = game.new_game(2, seed)
        import random

        rand = random.Random(seed)
        while not state.is_over:
            state.apply(rand.choice(state.legal_actions()))
            text = state.render(0)
            assert "1x" not in text and " 1 points" not in text
            if "Last play:" in text and ("found once" in text or "found twice" in text):
                return
    raise AssertionError("no play found a constellation in 40 random games")
