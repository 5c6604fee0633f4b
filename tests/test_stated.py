"""What the question states that a call left out or wrote otherwise."""

from __future__ import annotations

import pytest

from toolkit.local.decision.grounding import conversation_text, unfounded_options
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.stated import (
    said_flags,
    stated_choices,
    stated_flags,
    stated_optionals,
    stated_spellings,
)

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


_RESTAURANTS = {
    "type": "object",
    "properties": {
        "category": {"type": "string", "enum": ["Spanish", "Indian", "Fast Food", "dontcare"]},
        "location": {"type": "string"},
        "price": {"type": "string", "enum": ["cheap", "moderate"]},
    },
    "required": ["category", "location"],
}


def test_an_offered_choice_the_question_does_not_say_becomes_the_one_it_says() -> None:
    question = "I'd like a Spicy Indian restaurant in Sunnyvale that won't break the bank."
    arguments = {"category": "Spanish", "location": "Sunnyvale, CA"}
    assert stated_choices(arguments, _RESTAURANTS, question) == {
        "category": "Indian",
        "location": "Sunnyvale, CA",
    }
    # a choice the question says stands; so does one when it says none, or two
    assert stated_choices({"category": "Indian"}, _RESTAURANTS, question) is None
    assert stated_choices(arguments, _RESTAURANTS, "A place in Sunnyvale?") is None
    both = "Spanish or Indian food in Sunnyvale?"
    assert stated_choices({"category": "Fast Food"}, _RESTAURANTS, both) is None
    # every word of a choice is said, by its root; a word another argument holds says nothing
    assert stated_choices({"category": "Spanish"}, _RESTAURANTS, "fast foods near me") == {
        "category": "Fast Food"
    }
    near = {"category": "Spanish", "location": "Indian Wells, CA"}
    assert stated_choices(near, _RESTAURANTS, "Dinner in Indian Wells") is None


def test_a_word_the_model_misspelt_is_written_as_the_question_writes_it() -> None:
    question = "Give the snapshot for host agent zzwzeem, up to the current time"
    assert stated_spellings({"id": "zwzzeem"}, None, question) == {"id": "zzwzeem"}
    assert stated_spellings({"id": "agent zzwzeam"}, None, question) == {"id": "agent zzwzeem"}
    # words the question writes, short words, and two candidates are left alone
    assert stated_spellings({"id": "zzwzeem"}, None, question) is None
    assert stated_spellings({"id": "tome"}, None, question) is None
    assert stated_spellings({"name": "Parks"}, None, "Paris or Parcs?") is None
    # an offered value is the schema's
    schema = {"type": "object", "properties": {"id": {"type": "string", "enum": ["zwzzeem"]}}}
    assert stated_spellings({"id": "zwzzeem"}, schema, question) is None


_PROJECT = {
    "type": "object",
    "properties": {
        "project_id": {"type": "string"},
        "archive": {"type": "boolean"},
        "notify_users": {"type": "boolean"},
        "free_entry": {"type": "string", "enum": ["True", "False", "dontcare"]},
        "is_public": {"type": "boolean"},
    },
    "required": ["project_id"],
}


def test_a_yes_or_no_the_question_says_is_written_as_it_says_it() -> None:
    question = (
        "Close the project with the ID 'DA-12345'. Ensure it's archived after closure, "
        "but don't send out any notifications to the team."
    )
    arguments = {"project_id": "DA-12345", "archive": False}
    assert stated_flags(arguments, _PROJECT, question) == {
        "project_id": "DA-12345",
        "archive": True,
    }
    # a negation just before the flag's words says it off
    assert said_flags(_PROJECT, "Close it, but don't archive it.") == {"archive": False}
    assert said_flags(_PROJECT, "Close it without archiving.") == {"archive": False}
    # an enum of "True" and "False" is a flag too; every word of the name must be said
    assert said_flags(_PROJECT, "Attractions with free entry, please") == {"free_entry": "True"}
    assert said_flags(_PROJECT, "Attractions that are free") == {}
    # "is" says nothing of what a flag is; a public project is said
    assert said_flags(_PROJECT, "Make it public") == {"is_public": True}
    # a number or a comma ends the words that may negate it ("Case No 28473")
    assert said_flags(_PROJECT, "Case No 28473, public") == {"is_public": True}
    # said both ways, or as the call wrote it: nothing to change
    assert said_flags(_PROJECT, "Archive it. No, do not archive it.") == {}
    assert stated_flags({"archive": True}, _PROJECT, "Archive it") is None


def test_a_yes_or_no_the_user_said_is_no_guess_to_leave_out() -> None:
    text = conversation_text([{"role": "user", "content": "Attractions with free entry?"}])
    arguments = {"project_id": "x", "free_entry": "True"}
    assert unfounded_options(arguments, _PROJECT, text) == []
    assert unfounded_options({**arguments, "free_entry": "False"}, _PROJECT, text) == ["free_entry"]
    off = ToolPolicy(stated_flags=False)
    assert unfounded_options(arguments, _PROJECT, text, off) == ["free_entry"]
