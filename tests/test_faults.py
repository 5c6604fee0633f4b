"""Every fault a provider, a model or a tool can produce ends a run in a defined state.

Each test runs the real client (``load_chat_model`` -> ``ChatOpenAI`` configured through
``OPENAI_BASE_URL``/``OPENAI_API_KEY``) and :class:`ToolLoop` against a :class:`ScriptedServer`
on loopback that plays the fault. For each fault the test asserts the final ``LoopStatus``, the
exact sequence of roles in the transcript (the question still first, nothing lost) and that the
user-facing text (error, hint or tool message) says what happened and what to do.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import openai
import pytest
from fixtures.loop_tools import add
from langchain_core.tools import tool

from toolkit.config import load_settings
from toolkit.loop import LoopResult, LoopStatus, ToolLoop
from toolkit.models import load_chat_model
from toolkit.testing import chat_protocol_problems
from toolkit.testing.server import Reply, ScriptedServer, completion, completion_chunks, tool_call

QUESTION = "What is 2 + 3?"
_RELEASE = threading.Event()


@tool
def explode(reason: str) -> str:
    """Always fails."""
    raise RuntimeError(f"disk on fire: {reason}")


@tool
def hang(seconds: float) -> str:
    """Never returns in time."""
    _RELEASE.wait(seconds)
    return "finally"


TOOLS = [add, explode, hang]


@pytest.fixture(autouse=True)
def _release_hanging_tools() -> Iterator[None]:
    _RELEASE.clear()
    yield
    _RELEASE.set()


def run(
    script: list[Any],
    *,
    base_url: str | None = None,
    model_options: dict[str, Any] | None = None,
    **loop_options: Any,
) -> tuple[LoopResult, list]:
    """Run the loop against a scripted endpoint; return the result and the recorded requests."""
    with ScriptedServer(script) as server:
        environ = {
            "OPENAI_BASE_URL": base_url or server.base_url,
            "OPENAI_API_KEY": "sk-fault-test",
            "TOOLKIT_TIMEOUT": "2",
        }
        settings = load_settings(env_file="", environ=environ)
        model = load_chat_model(settings, **{"max_retries": 0, **(model_options or {})})
        result = ToolLoop(model, TOOLS, **loop_options).run(QUESTION)
        requests = server.chat_requests
    assert chat_protocol_problems(result.transcript) == []
    assert result.transcript[0].content == QUESTION
    return result, requests


def roles(result: LoopResult) -> list[str]:
    return [message.type for message in result.transcript]


def answer(text: str = "5") -> dict:
    return completion(text)


def call(name: str, arguments: Any, call_id: str = "c1") -> dict:
    return completion(tool_calls=[tool_call(name, arguments, call_id)])


def tool_texts(result: LoopResult) -> list[str]:
    return [m.content for m in result.transcript if m.type == "tool"]


@pytest.mark.parametrize("status", [429, 500, 503])
def test_overload_and_server_errors_are_retried_then_reported(status: int) -> None:
    script = [Reply.error(status, "try later", headers={"Retry-After": "0"})] * 3
    started = time.monotonic()
    result, requests = run(script, model_options={"max_retries": 2})
    assert len(requests) == 3  # the first try and two retries
    assert time.monotonic() - started < 10
    assert result.status is LoopStatus.MODEL_ERROR
    assert roles(result) == ["human"]
    assert f"Error code: {status}" in result.error
    assert f"(HTTP {status}) even after retries" in result.hint
    assert "raise max_retries" in result.hint and "result.transcript" in result.hint


def test_a_retried_overload_that_recovers_answers() -> None:
    script = [Reply.error(429, "slow down", headers={"Retry-After": "0"}), answer()]
    result, requests = run(script, model_options={"max_retries": 2})
    assert len(requests) == 2
    assert (result.status, result.answer, roles(result)) == (
        LoopStatus.ANSWERED,
        "5",
        ["human", "ai"],
    )


def test_a_reply_slower_than_the_client_timeout() -> None:
    result, _ = run([Reply.json(answer()).after(5)], model_options={"timeout": 0.3})
    assert result.status is LoopStatus.MODEL_ERROR
    assert isinstance(result.exception, openai.APITimeoutError)
    assert roles(result) == ["human"]
    assert "did not answer in time: raise TOOLKIT_TIMEOUT" in result.hint


def test_connection_refused() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    result, requests = run([], base_url=f"http://127.0.0.1:{port}/v1")
    assert requests == []
    assert result.status is LoopStatus.MODEL_ERROR
    assert roles(result) == ["human"]
    assert f"endpoint http://127.0.0.1:{port}/v1" in result.error
    assert "Connection error" in result.error
    assert "Check that the model endpoint is reachable" in result.hint


def test_a_dropped_connection() -> None:
    result, _ = run([Reply.drop()])
    assert result.status is LoopStatus.MODEL_ERROR
    assert roles(result) == ["human"]
    assert "endpoint is reachable" in result.hint


@pytest.mark.parametrize(
    "reply",
    [
        Reply.raw("<html>502 Bad Gateway</html>"),
        Reply.raw(b"\xff\xfe not utf-8", content_type="text/plain"),
        Reply.json(
            {"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": []}
        ),
    ],
    ids=["html", "binary", "empty_choices"],
)
def test_a_reply_that_is_not_a_chat_completion(reply: Reply) -> None:
    result, _ = run([reply])
    assert result.status is LoopStatus.MODEL_ERROR
    assert roles(result) == ["human"]
    assert result.error.startswith("the model call failed (endpoint http://127.0.0.1:")
    assert "not a valid chat completion" in result.hint
    assert "OpenAI-compatible API" in result.hint


def test_a_model_error_after_tool_calls_keeps_them() -> None:
    result, _ = run([call("add", {"x": 2, "y": 3}), Reply.raw("not json")])
    assert result.status is LoopStatus.MODEL_ERROR
    assert roles(result) == ["human", "ai", "tool"]
    assert tool_texts(result) == ["5"]


#: bad call -> (its arguments, words the tool message must contain)
BAD_CALLS = {
    "truncated": ("add", '{"x": 2, "y"', ["not valid JSON", "add(x: integer, y: integer)"]),
    "non_object": ("add", "[2, 3]", ["must be a JSON object", "JSON array"]),
    "unknown_tool": ("multiply", {"x": 2, "y": 3}, ["Unknown tool 'multiply'", "add"]),
    "wrong_type": ("add", {"x": "two", "y": 3}, ["'x'", "integer"]),
    "missing": ("add", {"x": 2}, ["missing required argument 'y'"]),
    "extra": ("add", {"x": 2, "y": 3, "z": 4}, ["'z'"]),
    "raises": ("explode", {"reason": "test"}, ["RuntimeError", "disk on fire"]),
}


@pytest.mark.parametrize("kind", sorted(BAD_CALLS))
def test_a_bad_call_is_answered_with_an_error_and_the_model_recovers(kind: str) -> None:
    name, arguments, words = BAD_CALLS[kind]
    result, requests = run([call(name, arguments), call("add", {"x": 2, "y": 3}, "c2"), answer()])
    assert result.status is LoopStatus.ANSWERED and result.answer == "5"
    assert roles(result) == ["human", "ai", "tool", "ai", "tool", "ai"]
    error, success = result.transcript[2], result.transcript[4]
    assert (error.status, error.tool_call_id, success.content) == ("error", "c1", "5")
    for word in words:
        assert word in error.content
    # the model was shown the error before it tried again
    assert requests[1].json["messages"][2]["content"] == error.content


def test_double_encoded_arguments_are_decoded() -> None:
    result, _ = run([call("add", '"{\\"x\\": 2, \\"y\\": 3}"'), answer()])
    assert result.status is LoopStatus.ANSWERED
    assert roles(result) == ["human", "ai", "tool", "ai"]
    assert result.transcript[2].status == "success" and tool_texts(result) == ["5"]


def test_truncated_arguments_cut_off_by_length_are_fed_back() -> None:
    cut = completion(tool_calls=[tool_call("add", '{"x": 2, "y', "c1")], finish_reason="length")
    result, _ = run([cut, answer()])
    assert result.status is LoopStatus.ANSWERED
    assert roles(result) == ["human", "ai", "tool", "ai"]
    assert "not valid JSON" in tool_texts(result)[0]


def test_a_text_answer_cut_off_by_length_says_so() -> None:
    result, _ = run([completion("The answer is", finish_reason="length")])
    assert result.status is LoopStatus.ANSWERED and result.answer == "The answer is"
    assert roles(result) == ["human", "ai"]
    assert "cut off at the model's token limit" in result.hint and "max_tokens" in result.hint


def test_a_tool_that_hangs_is_stopped_by_the_tool_timeout() -> None:
    started = time.monotonic()
    result, _ = run([call("hang", {"seconds": 30}), answer()], tool_timeout=0.3)
    assert time.monotonic() - started < 10
    assert result.status is LoopStatus.ANSWERED
    assert roles(result) == ["human", "ai", "tool", "ai"]
    note = result.transcript[2]
    assert note.status == "error" and "hang" in note.content and "0.3" in note.content


def test_a_model_that_calls_tools_forever_hits_the_step_budget() -> None:
    script = [call("add", {"x": i, "y": 1}, f"c{i}") for i in range(10)]
    result, requests = run(script, max_model_calls=4)
    assert len(requests) == 4
    assert result.status is LoopStatus.STEP_BUDGET_EXHAUSTED
    assert roles(result) == ["human"] + ["ai", "tool"] * 4
    assert "raise max_model_calls" in result.hint and result.answer is None


def test_a_tool_that_always_fails_ends_on_the_retry_budget() -> None:
    script = [call("explode", {"reason": str(i)}, f"c{i}") for i in range(5)]
    result, _ = run(script, retry_budget=2)
    assert result.status is LoopStatus.RETRY_BUDGET_EXHAUSTED
    assert roles(result) == ["human"] + ["ai", "tool"] * 3
    assert "stop calling it" in tool_texts(result)[1]
    assert "fix the tool or its description, or raise retry_budget" in result.hint


def _without_index(chunks: list[dict]) -> list[dict]:
    for chunk in chunks:
        for choice in chunk["choices"]:
            for piece in choice["delta"].get("tool_calls") or []:
                piece.pop("index", None)
    return chunks


def test_streamed_tool_call_chunks_without_index_end_in_a_defined_state() -> None:
    chunks = _without_index(
        completion_chunks(tool_calls=[tool_call("add", {"x": 2, "y": 3}, "c1")])
    )
    script = [Reply.sse(chunks), Reply.sse(completion_chunks("5"))]
    result, _ = run(script, model_options={"streaming": True})
    assert result.status is LoopStatus.ANSWERED and result.answer == "5"
    calls = result.transcript[1].tool_calls + result.transcript[1].invalid_tool_calls
    assert roles(result) == ["human", "ai"] + ["tool"] * len(calls) + ["ai"]
    # each piece of the call was answered, and an unusable piece says what to send instead
    for text in tool_texts(result):
        assert text == "5" or "Error:" in text
