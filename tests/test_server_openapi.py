"""The embedded server against its own OpenAPI document, over real HTTP on loopback.

``/openapi.json`` describes every route's request and response bodies (pydantic models that
FastAPI validates). Schemathesis reads it from the running server and draws requests from it,
valid and invalid, for every operation; each answer must be no 5xx, have a documented status
and content type, and match the documented schema. The run is bounded (a fixed number of
examples per operation, derandomized) and generation is kept short (``max_tokens`` at most 3).
A few direct checks pin what the document says.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from toolkit.local.server.runner import EmbeddedServer

#: Examples drawn per operation and mode (four operations, valid and invalid data).
EXAMPLES = 30


@pytest.fixture(scope="module")
def root(local_server: EmbeddedServer) -> str:
    return local_server.base_url.removesuffix("/v1")


@pytest.fixture(scope="module")
def spec(root: str) -> dict[str, Any]:
    response = httpx.get(root + "/openapi.json")
    assert response.status_code == 200
    return response.json()


@pytest.fixture(scope="module")
def api_schema(root: str) -> Any:
    return schemathesis.openapi.from_url(root + "/openapi.json")


def _short(case: Any) -> None:
    """Keep generation short: at most 3 tokens (values of another type are left to fail)."""
    if isinstance(case.body, dict):
        for key in ("max_tokens", "max_completion_tokens"):
            value = case.body.get(key)
            if value is None or (isinstance(value, int) and not isinstance(value, bool)):
                case.body[key] = 3 if value is None else min(max(value, -1), 3)


#: Valid bodies the server must still refuse (a named tool that is not offered, duplicate tool
#: names, a schema the grammar cannot enforce strictly, a prompt over the context): rules JSON
#: Schema cannot state, so "schema-valid data is accepted" is not a property of this API.
_EXCLUDED = [positive_data_acceptance]

#: Every operation of the document: bodies valid and invalid; the GET routes take no input.
OPERATIONS = [
    ("/v1/chat/completions", "POST", GenerationMode.POSITIVE),
    ("/v1/chat/completions", "POST", GenerationMode.NEGATIVE),
    ("/v1/prompt", "POST", GenerationMode.POSITIVE),
    ("/v1/prompt", "POST", GenerationMode.NEGATIVE),
    ("/v1/models", "GET", GenerationMode.POSITIVE),
    ("/health", "GET", GenerationMode.POSITIVE),
]


@pytest.mark.parametrize(("path", "method", "mode"), OPERATIONS, ids=str)
def test_every_operation_answers_as_documented(
    api_schema: Any, root: str, path: str, method: str, mode: GenerationMode
) -> None:
    operation = api_schema[path][method]
    statuses: list[int] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        _short(case)
        response = case.call_and_validate(base_url=root, timeout=600, excluded_checks=_EXCLUDED)
        statuses.append(response.status_code)
        assert response.status_code < 500, response.text[:500]

    run()
    counts = Counter(statuses)
    print(f"{method} {path} ({mode.value}): {len(statuses)} requests, statuses {dict(counts)}")
    assert statuses and not any(status >= 500 for status in statuses)
    if method == "POST":
        assert len(statuses) >= EXAMPLES // 2  # the run really sent requests
        assert (mode is GenerationMode.POSITIVE) is (200 in counts)  # invalid bodies: refused


def test_the_document_describes_the_bodies(spec: dict[str, Any]) -> None:
    chat = spec["paths"]["/v1/chat/completions"]["post"]
    body = chat["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/ChatCompletionRequest"}
    answers = chat["responses"]["200"]["content"]
    assert answers["application/json"]["schema"]["$ref"].endswith("/ChatCompletion")
    data = answers["text/event-stream"]["schema"]["properties"]["data"]["anyOf"]
    assert data[0] == {"const": "[DONE]"}
    assert data[1]["contentSchema"]["anyOf"][0]["$ref"].endswith("/ChatCompletionChunk")
    assert set(chat["responses"]) == {"200", "400", "401", "413", "500"}  # no FastAPI 422
    schemas = spec["components"]["schemas"]
    request = schemas["ChatCompletionRequest"]["properties"]
    assert {"response_format", "logprobs", "top_logprobs", "seed", "n"} <= set(request)
    assert schemas["ErrorDetail"]["required"] == ["message", "type", "param", "code"]
    assert "index" in schemas["ToolCall"]["required"]
    for path, route in [("/v1/models", "get"), ("/v1/prompt", "post"), ("/health", "get")]:
        ok = spec["paths"][path][route]["responses"]["200"]["content"]["application/json"]
        assert ok["schema"]["$ref"].rsplit("/", 1)[-1] in {"ModelList", "PromptAnswer", "Health"}
