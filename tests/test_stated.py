"""An optional number the question states for a parameter the call left out."""

from __future__ import annotations

import pytest

from toolkit.local.decision.stated import stated_optionals

_RIDES = {
    "type": "object",
    "properties": {
        "source": {"type": "string"},
        "destination": {"type": "string"},
        "max_cost": {"type": "integer"},
        "passengers": {"type": "integer"},
    },
    "required": ["source", "destination"],
}
_TRIP = {"source": "Leeds", "destination": "York"}


@pytest.mark.parametrize(
    ("arguments", "question", "expected"),
    [
        (_TRIP, "A ride from Leeds to York with maximum cost of $40", {**_TRIP, "max_cost": 40}),
        (
            _TRIP,
            "A ride from Leeds to York for 3 people, cost at most 25",
            {**_TRIP, "max_cost": 25},
        ),
        # A number the call took already is no one else's.
        ({**_TRIP, "max_cost": 40}, "A ride from Leeds to York, cost 40", None),
        # The parameter's words are not said near the number.
        (_TRIP, "A ride from Leeds to York at 9 o'clock", None),
        # An integer parameter takes no fraction.
        (_TRIP, "A ride from Leeds to York under a cost of 12.5", None),
        # One number two parameters could take is left alone.
        (_TRIP, "Leeds to York: cost per passengers 4", None),
    ],
)
def test_an_optional_number_the_question_states(arguments, question, expected) -> None:
    assert stated_optionals(arguments, _RIDES, question) == expected


def test_a_number_of_another_sentence_is_another_calls() -> None:
    schema = {
        "type": "object",
        "properties": {
            "target": {"type": "integer"},
            "rolls": {"type": "integer"},
            "die_sides": {"type": "integer"},
        },
        "required": ["target", "rolls"],
    }
    question = (
        "What is the chance of rolling a 4 three times? And what if the die had 8 sides and "
        "you wanted a 7 twice?"
    )
    assert stated_optionals({"target": 4, "rolls": 3}, schema, question) is None
    assert stated_optionals({"target": 7, "rolls": 2}, schema, question) == {
        "target": 7,
        "rolls": 2,
        "die_sides": 8,
    }
