"""Schema-driven fuzzing of the embedded server over real HTTP: never a 5xx.

Request bodies are drawn by hypothesis from the JSON schema the server validates requests
against (:class:`~toolkit.local.server.protocol.ChatCompletionRequest`), through a small converter
for the JSON-schema subset pydantic emits (``type``, ``anyOf``, ``enum``/``const``, ``$ref``,
``properties``/``required``, ``items``, length and range bounds, ``additionalProperties``).
``test_server_openapi.py`` fuzzes the whole OpenAPI document with schemathesis; this run adds
what a document-driven run does not draw: bodies broken on purpose (a field replaced by any
JSON, a required field dropped, raw bytes), and tool ``parameters`` and response-format
``schema`` drawn as arbitrary JSON-schema-like objects, since both become grammars.

``/v1/prompt`` (no generation) takes many examples; ``/v1/chat/completions`` fewer, with the real
model and ``max_tokens`` at most 3 (an unbounded value is replaced, so that the run stays
short). Every answer must be 200 or a 4xx in the OpenAI error shape.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.local.server.protocol import ChatCompletionRequest

SCHEMA = ChatCompletionRequest.model_json_schema()
DEFS = SCHEMA.get("$defs", {})

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)

_TYPES = ["string", "integer", "number", "boolean", "array", "object", "null", "weird"]
parameter_schemas = st.recursive(
    st.builds(
        dict,
        type=st.sampled_from(_TYPES) | st.lists(st.sampled_from(_TYPES), max_size=3),
    )
    | st.fixed_dictionaries({"enum": st.lists(json_values, max_size=3)})
    | st.fixed_dictionaries({"type": st.just("string"), "pattern": st.text(max_size=6)})
    | st.fixed_dictionaries({"$ref": st.sampled_from(["#/$defs/x", "#", "http://127.0.0.1:1/x"])})
    | json_values,
    lambda inner: (
        st.fixed_dictionaries(
            {
                "type": st.just("object"),
                "properties": st.dictionaries(st.text(min_size=1, max_size=6), inner, max_size=3),
            },
            optional={
                "required": st.lists(st.text(max_size=6), max_size=3),
                "additionalProperties": st.booleans() | inner,
            },
        )
        | st.fixed_dictionaries({"type": st.just("array"), "items": inner})
        | st.fixed_dictionaries({"anyOf": st.lists(inner, max_size=3)})
    ),
    max_leaves=6,
)


def from_schema(schema: Any, name: str = "") -> st.SearchStrategy[Any]:
    """A strategy for values valid against ``schema`` (the subset pydantic emits)."""
    if not isinstance(schema, dict) or not schema:
        return json_values
    if name in ("parameters", "schema"):
        return st.none() | parameter_schemas
    if "$ref" in schema:
        target = schema["$ref"].rsplit("/", 1)[-1]
        return st.deferred(lambda: from_schema(DEFS[target]))
    if "anyOf" in schema:
        return st.one_of([from_schema(option, name) for option in schema["anyOf"]])
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if kind == "string":
        return st.text(min_size=schema.get("minLength", 0), max_size=schema.get("maxLength", 30))
    if kind == "integer":
        low = schema.get("minimum", schema.get("exclusiveMinimum", -(2**40)))
        return st.integers(low, schema.get("maximum", 2**40))
    if kind == "number":
        low = schema.get("minimum", schema.get("exclusiveMinimum", -1e9))
        return st.floats(low, schema.get("maximum", 1e9), allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        low = schema.get("minItems", 0)
        return st.lists(from_schema(schema.get("items", {})), min_size=low, max_size=low + 3)
    if kind == "object":
        properties = schema.get("properties", {})
        required = set(schema.get("required", ()))
        strategies = {key: from_schema(value, key) for key, value in properties.items()}
        fixed = st.fixed_dictionaries(
            {k: v for k, v in strategies.items() if k in required},
            optional={k: v for k, v in strategies.items() if k not in required},
        )
        if schema.get("additionalProperties") is True:
            extra = st.dictionaries(st.text(min_size=1, max_size=6), json_values, max_size=2)
            return st.builds(lambda base, more: {**more, **base}, fixed, extra)
        return fixed
    return json_values


valid_bodies = from_schema(SCHEMA)


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    """A request body: valid, broken in one field, missing a field, or raw bytes."""
    choice = draw(st.sampled_from(["valid", "valid", "field", "drop", "raw"]))
    if choice == "raw":
        return draw(st.binary(max_size=80) | st.text(max_size=80).map(str.encode))
    body = draw(valid_bodies)
    if choice == "field":
        body[draw(st.sampled_from(sorted(SCHEMA["properties"])))] = draw(json_values)
    elif choice == "drop" and body:
        body.pop(draw(st.sampled_from(sorted(body))))
    for key in ("max_tokens", "max_completion_tokens"):  # keep generation short
        value = body.get(key)
        if value is None or (isinstance(value, int | float) and not isinstance(value, bool)):
            body[key] = draw(st.integers(-1, 3))  # the lower bound is still probed
    return json.dumps(body, allow_nan=True).encode()


def _check(response: httpx.Response) -> None:
    assert response.status_code < 500, response.text[:500]
    if response.status_code != 200:
        assert 400 <= response.status_code < 500
        error = response.json()["error"]
        assert error["message"] and error["type"]
    elif response.headers["content-type"].startswith("text/event-stream"):
        assert '"server_error"' not in response.text, response.text[:500]
        assert response.text.rstrip().endswith("data: [DONE]")
    else:
        assert response.json()


@pytest.fixture(scope="module")
def client(local_server) -> httpx.Client:
    with httpx.Client(base_url=local_server.base_url, timeout=120) as http:
        yield http


_FUZZ = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)


@settings(max_examples=300, **_FUZZ)
@given(body=bodies())
def test_prompt_route_never_fails_with_a_5xx(client: httpx.Client, body: bytes) -> None:
    _check(client.post("/prompt", content=body, headers={"Content-Type": "application/json"}))


@settings(max_examples=60, **_FUZZ)
@given(body=bodies())
def test_chat_completions_never_fail_with_a_5xx(client: httpx.Client, body: bytes) -> None:
    _check(
        client.post("/chat/completions", content=body, headers={"Content-Type": "application/json"})
    )
