"""Structured output, log-probabilities and seeds on the embedded server, over real HTTP.

Clients nobody on the team wrote: the OpenAI SDK's ``response_format`` (``json_schema``,
``json_object``, ``text``), and LangChain's ``with_structured_output`` with the methods the
standard suite (``test_langchain_standard.py``) does not already run: ``function_calling``
(a forced tool call) sync and async, ``json_mode`` async. Plus what the protocol adds:
``logprobs``/``top_logprobs``, ``seed``, ``index`` on non-streamed calls, and the refusals a
schema the grammar cannot enforce gets.
"""

from __future__ import annotations

import json
import math
from typing import Any

import jsonschema
import openai
import pytest
from helpers import embedded_chat
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from toolkit.local.server.runner import EmbeddedServer

JOKE = "Tell me a joke about cats."
CITY = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "minLength": 1},
        "country": {"type": "string"},
        "population_millions": {"type": "number", "minimum": 0},
        "rank": {"type": "integer", "minimum": 1, "maximum": 10},
        "tags": {"type": "array", "items": {"enum": ["capital", "port", "old"]}, "maxItems": 3},
    },
    "required": ["city", "country", "population_millions", "rank", "tags"],
    "additionalProperties": False,
}
ADD = {
    "type": "function",
    "function": {
        "name": "add",
        "description": "Add two integers.",
        "parameters": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        },
    },
}


class Joke(BaseModel):
    """A joke to tell the user."""

    setup: str = Field(description="question to set up a joke")
    punchline: str = Field(description="answer to resolve the joke")


class Sum(BaseModel):
    """The sum of two numbers, and a rating of how hard it was."""

    total: int
    difficulty: int = Field(ge=1, le=5)
    note: str | None = None


class SumDict(TypedDict):
    """The sum of two numbers."""

    total: int


@pytest.fixture(scope="module")
def sdk(local_server: EmbeddedServer) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=local_server.base_url, api_key=local_server.api_key or "local", timeout=300
    )


@pytest.fixture(scope="module")
def chat(local_server: EmbeddedServer) -> ChatOpenAI:
    return embedded_chat(local_server, timeout=300)


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "json_schema",
        "json_schema": {"name": "City", "schema": schema, "strict": True},
    }


def _paris(sdk: openai.OpenAI, **options: Any) -> Any:
    """Ask for Paris as a strict ``CITY`` answer."""
    question = [{"role": "user", "content": "Describe Paris: city, country, population, rank."}]
    return sdk.chat.completions.create(
        model="local", messages=question, response_format=_strict(CITY), max_tokens=200, **options
    )


def test_openai_sdk_json_schema_answer_validates(sdk: openai.OpenAI) -> None:
    choice = _paris(sdk).choices[0]
    assert choice.finish_reason == "stop"
    jsonschema.validate(json.loads(choice.message.content), CITY)
    pieces = _paris(sdk, stream=True)
    streamed = "".join(c.choices[0].delta.content or "" for c in pieces if c.choices)
    assert json.loads(streamed) == json.loads(choice.message.content)


def test_openai_sdk_parse_returns_the_model(sdk: openai.OpenAI) -> None:
    parsed = sdk.chat.completions.parse(
        model="local",
        messages=[{"role": "user", "content": "What is 17 + 25? Rate how hard it was."}],
        response_format=Sum,
        max_tokens=120,
    )
    value = parsed.choices[0].message.parsed
    assert isinstance(value, Sum) and 1 <= value.difficulty <= 5


def test_json_object_and_text_formats(sdk: openai.OpenAI) -> None:
    question = [{"role": "user", "content": JOKE}]
    obj = sdk.chat.completions.create(
        model="local", messages=question, response_format={"type": "json_object"}, max_tokens=150
    )
    assert isinstance(json.loads(obj.choices[0].message.content), dict)
    text = sdk.chat.completions.create(
        model="local", messages=question, response_format={"type": "text"}, max_tokens=6
    )
    assert text.choices[0].message.content and text.choices[0].finish_reason == "length"


def test_a_strict_schema_the_grammar_cannot_enforce_is_a_400(sdk: openai.OpenAI) -> None:
    schema = {**CITY, "properties": {**CITY["properties"], "city": {"pattern": "^[A-Z]"}}}
    with pytest.raises(openai.BadRequestError) as caught:
        sdk.chat.completions.create(
            model="local",
            messages=[{"role": "user", "content": "Paris?"}],
            response_format=_strict(schema),
        )
    error = caught.value.body
    assert error["param"] == "response_format.json_schema.schema"
    assert "'pattern' at #/properties/city" in error["message"]
    assert '"strict": false' in error["message"]


def test_a_loose_schema_is_enforced_but_for_what_it_names(sdk: openai.OpenAI) -> None:
    schema = {
        **CITY,
        "properties": {**CITY["properties"], "city": {"type": "string", "pattern": "^P"}},
    }
    loose = {"type": "json_schema", "json_schema": {"name": "City", "schema": schema}}
    raw = sdk.chat.completions.with_raw_response.create(
        model="local",
        messages=[{"role": "user", "content": "Describe Paris: city, country, population, rank."}],
        response_format=loose,
        max_tokens=200,
    )
    assert json.loads(raw.headers["x-toolkit-unenforced"]) == ["'pattern' at #/properties/city"]
    value = json.loads(raw.parse().choices[0].message.content)
    del schema["properties"]["city"]["pattern"]
    jsonschema.validate(value, schema)  # everything but the pattern holds


def test_with_tools_a_text_answer_follows_the_format_and_calls_stay_calls(
    sdk: openai.OpenAI,
) -> None:
    question = [{"role": "user", "content": "What is 2 + 3?"}]
    fmt = {"type": "json_object"}
    text = sdk.chat.completions.create(
        model="local",
        messages=question,
        tools=[ADD],
        tool_choice="none",
        response_format=fmt,
        max_tokens=60,
    )
    assert isinstance(json.loads(text.choices[0].message.content), dict)
    call = sdk.chat.completions.create(
        model="local",
        messages=question,
        tools=[ADD],
        response_format=fmt,
        tool_choice={"type": "function", "function": {"name": "add"}},
    )
    calls = call.model_dump()["choices"][0]["message"]["tool_calls"]
    assert [c["index"] for c in calls] == [0]  # listing 7.6
    assert json.loads(calls[0]["function"]["arguments"]) == {"a": 2, "b": 3}


def test_langchain_function_calling_method(chat: ChatOpenAI) -> None:
    model = chat.with_structured_output(Sum, method="function_calling")
    value = model.invoke("What is 17 + 25? Rate how hard it was from 1 to 5.")
    assert isinstance(value, Sum) and 1 <= value.difficulty <= 5
    schema = chat.with_structured_output(SumDict, method="function_calling")
    assert set(schema.invoke("What is 2 + 2?")) == {"total"}


async def test_langchain_function_calling_and_json_mode_async(chat: ChatOpenAI) -> None:
    forced = chat.with_structured_output(Joke.model_json_schema(), method="function_calling")
    joke = await forced.ainvoke(JOKE)
    assert set(joke) == {"setup", "punchline"} and all(isinstance(v, str) for v in joke.values())
    json_mode = chat.with_structured_output(Joke, method="json_mode")
    ask = JOKE + " Return a JSON object with 'setup' and 'punchline' keys."
    assert isinstance(await json_mode.ainvoke(ask), Joke)


def test_logprobs_are_those_of_the_allowed_tokens(sdk: openai.OpenAI) -> None:
    answer = _paris(sdk, logprobs=True, top_logprobs=3)
    entries = answer.choices[0].logprobs.content
    assert "".join(e.token for e in entries) == answer.choices[0].message.content
    for entry in entries:
        assert (
            entry.logprob <= 1e-9 and bytes(entry.bytes).decode("utf-8", "replace") == entry.token
        )
        tops = [t.logprob for t in entry.top_logprobs]
        assert 1 <= len(tops) <= 3 and tops == sorted(tops, reverse=True)
        assert math.isclose(tops[0], max(tops[0], entry.logprob))
        assert sum(math.exp(t) for t in tops) <= 1 + 1e-6
    # The distribution is the one the token was drawn from, under the grammar: an answer must
    # open with '{', so every likely first token does (the model alone would give a fence or
    # prose some of its mass).
    assert entries[0].top_logprobs and all(t.token.startswith("{") for t in entries[0].top_logprobs)


def test_streamed_logprobs_match(sdk: openai.OpenAI) -> None:
    question = [{"role": "user", "content": JOKE}]
    options = {"max_tokens": 12, "logprobs": True, "top_logprobs": 2}
    whole = sdk.chat.completions.create(model="local", messages=question, **options)
    chunks = sdk.chat.completions.create(model="local", messages=question, stream=True, **options)
    streamed = [
        entry.token
        for chunk in chunks
        if chunk.choices and chunk.choices[0].logprobs
        for entry in chunk.choices[0].logprobs.content
    ]
    assert streamed == [e.token for e in whole.choices[0].logprobs.content]
    assert len(streamed) == whole.usage.completion_tokens


def test_a_seed_makes_sampling_repeatable(sdk: openai.OpenAI) -> None:
    question = [{"role": "user", "content": "Write one sentence about the sea."}]

    def sample(seed: int) -> str:
        answer = sdk.chat.completions.create(
            model="local", messages=question, temperature=1.5, seed=seed, max_tokens=12
        )
        return answer.choices[0].message.content

    first = sample(7)
    assert sample(7) == first
    assert len({first, sample(8), sample(-9)}) > 1
