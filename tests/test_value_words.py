"""Whose words a text value is: borrowed from a description's example (decision.examples), or
the conversation's own (decision.phrases)."""

from __future__ import annotations

import json

import pytest

from toolkit.local.decision.examples import (
    borrowed_words,
    example_format,
    quoted_examples,
    unshaped_values,
)
from toolkit.local.decision.grounding import conversation_text
from toolkit.local.decision.phrases import (
    MAX_PHRASES,
    conversation_phrases,
    in_another_script,
    slip_of,
)
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.turn import CallJudge
from toolkit.local.format.job import ChatJob

_LOCATION = {
    "type": "object",
    "properties": {
        "location": {
            "type": "string",
            "description": "The location, in the format of 'City, State (abbr)', "
            "such as 'San Francisco, CA'.",
        },
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "'CA'"},
        "stops": {
            "type": "array",
            "items": {"type": "string", "description": 'A place, e.g. "Boston, MA".'},
        },
    },
    "required": ["location"],
}


def _said(text: str) -> str:
    return conversation_text([{"role": "user", "content": text}])


@pytest.mark.parametrize(
    ("arguments", "question", "borrowed"),
    [
        ({"location": "Tel Aviv, CA"}, "What's the weather in Tel Aviv?", ["CA"]),
        ({"location": "上海, CA"}, "上海今天天气怎么样？", ["CA"]),
        # the example itself, asked about its city: not borrowed
        ({"location": "San Francisco, CA"}, "Weather in San Francisco?", []),
        # a word the user wrote is the user's, whatever the example says
        ({"location": "Fresno, CA"}, "Weather in Fresno, CA please", []),
        ({"location": "Boston, MA"}, "How cold is Boston?", []),
        # enum values are offered by the schema, not borrowed
        ({"location": "Paris, France", "unit": "celsius"}, "Paris?", []),
        ({"location": "Oslo", "stops": ["Bergen, MA"]}, "Oslo via Bergen", ["MA"]),
    ],
)
def test_borrowed_words(arguments, question, borrowed):
    assert borrowed_words(arguments, _LOCATION, _said(question)) == borrowed


@pytest.mark.parametrize(
    ("arguments", "question", "borrowed"),
    [
        # the whole example, which the conversation never mentions: copied
        ({"location": "San Francisco, CA"}, "How warm is Fresno?", ["CA", "Francisco", "San"]),
        # the whole example, asked about: the user's
        ({"location": "San Francisco, CA"}, "Weather in San Francisco?", []),
        ({"location": "Tel Aviv, CA"}, "What's the weather in Tel Aviv?", ["CA"]),
    ],
)
def test_whole_examples_are_borrowed_when_nobody_said_them(arguments, question, borrowed):
    assert borrowed_words(arguments, _LOCATION, _said(question), whole=True) == borrowed


_OBSERVATORY = {
    "properties": {
        "observatory": {
            "type": "string",
            "description": 'The observatory\'s name, e.g. "Saltmarsh Observatory".',
        }
    }
}


def test_an_example_is_the_users_only_when_they_say_its_own_name():
    # "observatory" is the parameter's kind: every value of it holds that word
    question = "How high is the Kestrel Observatory?"
    copied = borrowed_words(
        {"observatory": "Saltmarsh Observatory"}, _OBSERVATORY, _said(question), whole=True
    )
    assert copied == ["Saltmarsh"]
    question = "How high is the Saltmarsh Observatory?"
    said = borrowed_words(
        {"observatory": "Saltmarsh Observatory"}, _OBSERVATORY, _said(question), whole=True
    )
    assert said == []


def test_an_example_in_the_tools_description_is_copied_too():
    # LangChain's @tool keeps a docstring's Args section in the tool's description
    described = 'Look up an observatory.\n\nArgs:\n    observatory: e.g. "Saltmarsh Observatory".'
    tool = {"type": "function", "function": {"name": "get_observatory", "description": described}}
    tool["function"]["parameters"] = {"properties": {"observatory": {"type": "string"}}}
    said = [{"role": "user", "content": "How high is the Kestrel Observatory?"}]
    job = ChatJob(messages=said, tools=[tool])
    copied = {"observatory": "Saltmarsh Observatory"}
    call = {"function": {"name": "get_observatory", "arguments": json.dumps(copied)}}
    assert CallJudge(job, ToolPolicy(), auto=True).only_foreign_words(call)
    assert borrowed_words(copied, None, _said(said[0]["content"]), whole=True) == []


@pytest.mark.parametrize(
    ("location", "question", "foreign"),
    [
        ("San Francisco, CA", "How warm is Fresno?", True),  # the description's example
        ("广州", "Is it raining in Guangzhou?", True),  # the user's word translated
        ("Fresno, US", "How warm is it in the city?", False),  # invented: nobody's words
    ],
)
def test_a_call_stands_for_the_users_words_when_it_translates_or_copies(
    location, question, foreign
):
    tool = {"type": "function", "function": {"name": "weather", "parameters": _LOCATION}}
    job = ChatJob(messages=[{"role": "user", "content": question}], tools=[tool])
    call = {"function": {"name": "weather", "arguments": json.dumps({"location": location})}}
    assert CallJudge(job, ToolPolicy(), auto=True).only_foreign_words(call) is foreign


def test_quoted_examples_read_both_quotes():
    assert quoted_examples("""such as 'San Francisco, CA' or "New York, NY".""") == [
        "San Francisco, CA",
        "New York, NY",
    ]
    assert quoted_examples(None) == []
    assert quoted_examples("it's the user's") == []  # apostrophes are not quotes
    assert quoted_examples("the city ('Paris')") == ["Paris"]


def test_conversation_phrases_are_runs_of_the_users_words():
    messages = [
        {"role": "system", "content": "You are helpful."},
        {"role": "user", "content": "Is it raining in New York City, NY?"},
        {"role": "tool", "content": "深圳 (Shenzhen): 17.6"},
    ]
    phrases = conversation_phrases(messages)
    assert "New York City, NY" in phrases and "Guangzhou" not in phrases
    assert "You" not in phrases  # the system's words are not the user's
    assert {"深圳", "Shenzhen", "17.6"} <= set(phrases)
    assert phrases.index("深圳") < phrases.index("New York")  # the latest message first
    long = [{"role": "user", "content": " ".join(f"w{i}" for i in range(1000))}]
    assert len(conversation_phrases(long)) == MAX_PHRASES


@pytest.mark.parametrize(
    ("value", "question", "translated"),
    [
        ("广州", "Is it raining in Guangzhou?", True),
        ("Harbin", "哈尔滨今天多少度？", True),
        ("USD", "What's the price of a Tesla model S in India?", False),  # same script
        ("Beijing", "Weather in 北京 and in Paris?", False),  # the question uses both
        ("42", "How old is he?", False),  # no letters, no script
    ],
)
def test_a_translated_value_is_in_a_script_the_question_does_not_use(value, question, translated):
    assert in_another_script(value, question) is translated


@pytest.mark.parametrize(
    ("value", "taken", "phrase"),
    [
        ("Cater Lake", set(), "Crater Lake"),  # a letter dropped
        ("crater lake", set(), "Crater Lake"),  # case is no slip
        ("Lake Taho", {"lake tahoe"}, None),  # a slip of what a call already asked
        ("Shanghai", set(), None),  # a city nobody named
        ("Lake Baikal", set(), None),
        (7, set(), None),
    ],
)
def test_a_slip_is_close_to_a_phrase_no_call_used(value, taken, phrase):
    phrases = conversation_phrases(
        [{"role": "user", "content": "Which lake is deeper, Lake Tahoe or Crater Lake?"}]
    )
    assert slip_of(value, phrases, ToolPolicy().slip_ratio, taken) == phrase


@pytest.mark.parametrize(
    ("description", "shape"),
    [
        ("format 'City, State', such as 'Berkeley, CA' or 'New York, NY'", "x-place-code"),
        ("such as 'Paris, France'", "x-place-name"),
        ("'City, State' or 'City, Country'; for example, 'Paris, France' or 'New York, NY'",
         "x-place-code-or-name"),
        ("'City, State (abbr)' such as 'San Francisco, CA'. 'City, Country' if no state",
         "x-place-code-or-name"),
        ("'Latitude, Longitude' (e.g., '37.7749, -122.4194')", None),  # not a place
        ("e.g. 'Berkeley, CA' or 'Mars'", None),  # the examples do not share the shape
        ("The city, such as Berkeley, CA", None),  # no quoted example
    ],
)  # fmt: skip
def test_the_shape_a_descriptions_examples_share(description, shape):
    assert example_format(description) == shape


def test_a_value_without_its_examples_shape() -> None:
    city = "in the format of 'City, State', such as 'Berkeley, CA' or 'New York, NY'"
    schema = {"properties": {"city": {"type": "string", "description": city}, "n": {}}}
    for value in ("Pleasanton", "San Jose, California", "Nairobi, Kenya"):
        assert unshaped_values({"city": value, "n": 2}, schema) == {"city": "x-place-code"}
    assert unshaped_values({"city": "San Jose, CA"}, schema) == {}
    offered = {"properties": {"city": {"description": city, "enum": ["Pleasanton"]}}}
    assert unshaped_values({"city": "Pleasanton"}, offered) == {}  # the schema's own value
