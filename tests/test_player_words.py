"""What a player reads is the game's own words: no text a player sees cites the design documents.

The design documents stay behind the rules documents' Decisions; a player
reads option texts, refusal reasons, help texts, the how-to-play and the
words of the log, and none of them says "seed:", "the seed's ..." or names a
data file. The random seed (``--seed 7``, "a seeded random board") is the
player's own and stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

import astrarium
from astrarium.core import IllegalAction, Rng, State

GAMES = [g for g in astrarium.list_games() if not g.startswith("toy")]

#: A citation of the design documents: a section ("seed: Power Allocation"), the design document's own words
#: ("the seed's movement example", "seed recommends"), a design file, or a data file's name.
DESIGN_WORDS = re.compile(
    r"\bseed\s*:|\bseed's\b|\bthe seed\b|\bseed\s+(recommends|says|promises|has)\b|\bseed \d{3}_|\b\d{3}_[0-9a-f]{16}\b"
    r"|\b[\w-]+\.(toml|json|md|txt)\b|\bdesign (document|brief)",
    re.IGNORECASE,
)


def fixed_texts(game_id: str) -> Iterator[tuple[str, str]]:
    """(where, text) of every option text, help text and the how-to-play."""
    game = astrarium.get_game(game_id)
    for option in game.options:
        yield f"option {option.name}", option.help
    yield "howto", game.how_to_play()
    state = game.new_game(max(2, game.min_players), 0)
    for source in (game.cards(), game.things(), game.cards(state), game.things(state)):
        for name, text in source.items():
            yield f"help {name}", f"{name}: {text}"


def wrong_notations(legal: list[str], seen: list[str], rng: Rng) -> Iterator[str]:
    """Notations a player might type that are likely illegal here: other positions' actions and legal ones mangled."""
    for _ in range(6):
        if seen:
            yield rng.choice(seen)
    for _ in range(4):
        words = rng.choice(legal).split()
        other = rng.choice(seen or legal).split()
        yield " ".join(words[:-1])
        yield " ".join([*words, words[-1]])
        yield " ".join(reversed(words))
        yield " ".join(words) + "9"
        at = rng.randrange(len(words))
        yield " ".join([*words[:at], rng.choice(other), *words[at + 1 :]])


def played_texts(game_id: str, seeds: range, moves: int = 120) -> Iterator[tuple[str, str]]:
    """(where, text) of every refusal reason and log line met in random play of these seeds."""
    game = astrarium.get_game(game_id)
    seen: list[str] = []
    for seed in seeds:
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state: State = game.new_game(players, seed)
        rng = Rng(seed)
        for move in range(moves):
            if state.is_over:
                break
            legal = [str(a) for a in state.legal_actions()]
            for notation in wrong_notations(legal, seen, rng):
                if notation in legal:
                    continue
                try:
                    state.apply(notation)
                except IllegalAction as exc:
                    yield f"seed {seed}, move {move}, refusal of {notation!r}", str(exc)
                    continue
                break  # a mangled notation that was legal after all: it has been played
            else:
                before = state.picture_view(0)
                chosen = rng.choice(legal)
                state.apply(chosen)
                for line in game.describe(before, chosen, state.picture_view(0)):
                    yield f"seed {seed}, move {move}, log of {chosen!r}", line
            seen = (seen + [rng.choice(legal) for _ in range(3)])[-90:]


@pytest.mark.parametrize("game_id", GAMES)
def test_no_option_help_or_howto_text_cites_the_design_documents(game_id: str) -> None:
    texts = list(fixed_texts(game_id))
    assert len(texts) > 5
    cited = [(where, text) for where, text in texts if DESIGN_WORDS.search(text)]
    assert not cited, cited[:5]


#: The seeds of random play the quick suite reads (refusals and logs, boards); the slow suite reads the rest.
PLAYED_SEEDS, QUICK_PLAYED_SEEDS = 12, 4
BOARD_SEEDS, QUICK_BOARD_SEEDS = 6, 2


@pytest.mark.parametrize("game_id", GAMES)
def test_no_refusal_reason_or_log_line_met_in_random_play_cites_the_design_documents(game_id: str) -> None:
    check_no_design_words(game_id, range(QUICK_PLAYED_SEEDS))


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_no_refusal_reason_or_log_line_met_in_the_rest_of_the_random_play_cites_the_design_documents(game_id: str) -> None:
    check_no_design_words(game_id, range(QUICK_PLAYED_SEEDS, PLAYED_SEEDS))


def check_no_design_words(game_id: str, seeds: range) -> None:
    texts = list(played_texts(game_id, seeds))
    refusals = {text for where, text in texts if "refusal" in where}
    assert len(refusals) > 20, f"too few refusals met to judge: {sorted(refusals)}"
    cited = [(where, text) for where, text in texts if DESIGN_WORDS.search(text)]
    assert not cited, cited[:5]


def test_the_design_words_pattern_tells_the_design_documents_from_the_random_seed() -> None:
    for cited in [
        "w5 d5: spends 11 energy, more than the 10 a ship has each turn (seed: Power Allocation)",
        "which reading of the seed's movement example",
        "Collapse and the designed events of events.toml",
        "reaction mass each ship starts with (seed recommends 8-12)",
        "a deck-building game (seed 003_cb429260b882439f)",
    ]:
        assert DESIGN_WORDS.search(cited), cited
    for players in [
        "**A worked example** (`astrarium play celestials --seed 7`).",
        "none: a seeded random board",
        "a designer's own scenario file (.toml or .json)",
        "the random seed of the game",
    ]:
        assert not DESIGN_WORDS.search(players), players


# -- boards wrapped between words at 80x24 and 120x40 --------------------------------------------------------

#: The board's space in the play loop at 80x24 and 120x40 (the header, the prompt and four lines of actions counted).
BOARD_SIZES = [(80, 18), (120, 34)]
WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")


def vocabulary(game_id: str) -> set[str]:
    """Every word of the game's own texts (rules, how-to-play, options, cards, pieces), lower case."""
    game = astrarium.get_game(game_id)
    texts = [game.rules_text(), *(text for _, text in fixed_texts(game_id))]
    return {word.lower() for text in texts for word in WORD.findall(text) if len(word) >= 3}


def boards(game_id: str, seeds: range) -> Iterator[tuple[str, list[str]]]:
    """(where, lines) of positions of random games drawn at both sizes, from the first move to the end."""
    from rich.text import Text

    game = astrarium.get_game(game_id)
    for seed in seeds:
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new_game(players, seed)
        rng = Rng(seed)
        move = 0
        while True:
            if move % 7 == 0 or state.is_over:
                for width, height in BOARD_SIZES:
                    for seat in (state.current_player, None):
                        markup = state.render_fit(seat, width=width, height=height)
                        yield f"seed {seed}, move {move}, {width}x{height}", Text.from_markup(markup).plain.split("\n")
            if state.is_over or move >= 150:
                break
            state.apply(rng.choice(state.legal_actions()))
            move += 1


def split_words(lines: list[str], words: set[str]) -> list[str]:
    """Words of ``words`` broken across two lines ("sy" / "stems"): the halves are not words, joined they are."""
    found = []
    for above, below in zip(lines, lines[1:], strict=False):
        head = re.search(r"[A-Za-z]+$", above)
        tail = re.match(r"\s*([A-Za-z]+)", below)
        if head and tail:
            joined = (head.group(0) + tail.group(1)).lower()
            if joined in words and not {head.group(0).lower(), tail.group(1).lower()} <= words:
                found.append(f"{head.group(0)}/{tail.group(1)}")
    return found


def cut_words(lines: list[str], words: set[str]) -> list[str]:
    """Words cut short before an ellipsis ("mov…"): what stands before it is not a whole word of the game."""
    before = (m.group(1) for line in lines for m in re.finditer(r"([A-Za-z][A-Za-z'-]*)…", line))
    return [word for word in before if len(word) >= 3 and word.lower().removesuffix("'s") not in words]


@pytest.mark.parametrize("game_id", GAMES)
def test_boards_at_80x24_and_120x40_break_lines_between_words_and_cut_no_word(game_id: str) -> None:
    check_boards_break_between_words(game_id, range(QUICK_BOARD_SEEDS))


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_the_rest_of_the_boards_break_lines_between_words_and_cut_no_word(game_id: str) -> None:
    check_boards_break_between_words(game_id, range(QUICK_BOARD_SEEDS, BOARD_SEEDS))


def check_boards_break_between_words(game_id: str, seeds: range) -> None:
    words = vocabulary(game_id)
    assert len(words) > 200
    for where, lines in boards(game_id, seeds):
        assert not split_words(lines, words), (where, split_words(lines, words), lines)
        assert not cut_words(lines, words), (where, cut_words(lines, words), lines)


def test_the_checks_see_a_word_split_across_lines_and_a_word_cut_short() -> None:
    words = {"systems", "move", "free", "ship", "the"}
    assert split_words(["put the energy into sy", "  stems"], words) == ["sy/stems"]
    assert split_words(["put the energy into", "  systems"], words) == []
    assert cut_words(["ship 0 has a free mov…"], words) == ["mov"]
    assert cut_words(["ship 0 has a free…"], words) == []
