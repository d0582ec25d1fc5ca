"""The search over re-sampled worlds finds a node's children as looking every action up would.

``agents/tree.py: known_children`` keeps the answer for the last legal list a
node saw and looks up again only what may have changed. Worlds hand out legal
lists of shared objects, of fresh objects equal to earlier ones, of repeated
objects, and children are added between visits: the answer must always be the
plain look-up's, child for child.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from astrarium.agents.mcts import ISMCTSAgent, MCTSAgent
from astrarium.agents.tree import Node, known_children
from astrarium.core.registry import get_game


class Word:
    """An action value: equal to every other ``Word`` of the same text, whatever the object."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Word) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


SHARED = [Word(t) for t in "abcdef"]

#: One visit: the legal list (each entry a shared object, or with ``fresh`` a new equal one) and the actions expanded
#: (by index into that list) before the next visit.
visits = st.lists(
    st.tuples(
        st.lists(st.tuples(st.integers(0, 5), st.booleans()), min_size=1, max_size=8),
        st.lists(st.integers(0, 7), max_size=2),
    ),
    min_size=1,
    max_size=12,
)


@given(visits=visits, repeat=st.booleans())
def test_known_children_are_the_plain_look_up_of_every_legal_action(visits: list, repeat: bool) -> None:
    node = Node(None, -1)
    children: dict[Word, Node] = {}
    previous: list[Word] | None = None
    for entries, expand in visits:
        if repeat and previous is not None:
            legal = list(previous)  # the same objects in a new list, as the next world of a shared-action game gives
        else:
            legal = [Word(SHARED[i].text) if fresh else SHARED[i] for i, fresh in entries]
        found = known_children(node, children, legal)
        assert len(found) == len(legal)
        assert all(f is children.get(a) for f, a in zip(found, legal, strict=True))
        for k in expand:
            action = legal[k % len(legal)]
            if action not in children:
                children[action] = Node(action, 0)
        previous = legal


@pytest.mark.parametrize(
    ("player", "choice", "visits"),
    [
        (MCTSAgent, "play solar-lion B1", [7, 8, 7, 7, 6, 4, 5, 5, 4, 7]),
        (ISMCTSAgent, "play solar-lion A1", [9, 7, 7, 7, 5, 6, 6, 4, 4, 5]),
    ],
)
def test_a_search_over_re_sampled_worlds_visits_the_root_as_the_plain_look_up_did(
    player: type[MCTSAgent], choice: str, visits: list[int]
) -> None:
    # The visits were recorded with every child looked up by its action at every visit.
    state = get_game("celestials").new_game(2, 3)
    for notation in ("end", "discard solar-flare", "end", "discard silver-tower"):
        state.apply(notation)
    agent = player(7, iterations=60, depth=6)
    assert str(agent.choose(state)) == choice
    assert list(agent.last_visits) == [str(a) for a in state.legal_actions()]
    assert list(agent.last_visits.values()) == visits
