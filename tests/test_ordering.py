"""A list value in the order the user wrote it."""

from __future__ import annotations

import pytest

from toolkit.local.decision.ordering import as_written


@pytest.mark.parametrize(
    ("arguments", "question", "expected"),
    [
        # Sorted by the model: the user's order again.
        (
            {"elements": ["Alice", "Jack", "Sam"], "order": "asc"},
            "Sort this list of names in ascending order: ['Sam', 'Alice', 'Jack']",
            {"elements": ["Sam", "Alice", "Jack"], "order": "asc"},
        ),
        ({"values": [3, 5, 9]}, "Add up 9, 3 and 5.", {"values": [9, 3, 5]}),
        # Already in order, or not the user's list: left alone.
        ({"values": [9, 3, 5]}, "Add up 9, 3 and 5.", None),
        ({"values": [3, 5, 7]}, "Add up 9, 3 and 5.", None),
        # An item the question writes twice has no one place.
        ({"cities": ["Paris", "Rome"]}, "Rome or Paris? Rome is warmer.", None),
        # A word inside another is not the item ("Ann" in "Annecy").
        ({"names": ["Ann", "Bo"]}, "Trips to Annecy: Bo and Ann.", {"names": ["Bo", "Ann"]}),
        ({"flag": True, "name": "x"}, "x", None),
    ],
)
def test_a_list_as_the_user_wrote_it(arguments, question, expected) -> None:
    assert as_written(arguments, question) == expected
