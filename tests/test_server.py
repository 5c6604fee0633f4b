"""The embedded server's HTTP surface over real HTTP on loopback: shapes, errors, streaming.

Behaviour of the model itself (which calls it makes) is in ``test_embedded_model.py``; here
the requests are cheap (errors, short generations) except where the wire format needs a call.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import httpx
import pytest
from pydantic import SecretStr

from toolkit.config import Settings
from toolkit.local.format.template import render_prompt
from toolkit.local.server.app import MAX_BODY_BYTES
from toolkit.local.server.runner import EmbeddedServer

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather of a city.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "The city, e.g. Beijing."},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
            "required": ["city"],
        },
    },
}
ADD = {
    "type": "function",
    "function": {
        "name": "add",
        "description": "Add two integers, x + y.",
        "parameters": {
            "type": "object",
            "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
            "required": ["x", "y"],
        },
    },
}
HELLO = [{"role": "user", "content": "Say hi."}]


@pytest.fixture(scope="module")
def client(local_server: EmbeddedServer) -> httpx.Client:
    with httpx.Client(base_url=local_server.base_url, timeout=300) as http:
        yield http


def _error_of(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["message"]
    return error


def test_health_and_models(local_server: EmbeddedServer, client: httpx.Client) -> None:
    health = httpx.get(local_server.base_url.removesuffix("/v1") + "/health").json()
    assert health["status"] == "ok"
    models = client.get("/models").json()
    assert models["object"] == "list"
    assert [m["id"] for m in models["data"]] == [health["model"]]
    assert local_server.base_url.startswith("http://127.0.0.1:")


def test_invalid_json_is_a_400(client: httpx.Client) -> None:
    error = _error_of(client.post("/chat/completions", content=b"{not json"), 400)
    assert "not valid JSON" in error["message"]


@pytest.mark.parametrize(
    ("body", "param", "words"),
    [
        ({}, "messages", "required"),
        ({"messages": []}, "messages", "at least 1"),
        ({"messages": [{"role": "robot", "content": "x"}]}, "messages.0.role", "system"),
        ({"messages": HELLO, "temperature": 5}, "temperature", "less than or equal to 2"),
        ({"messages": HELLO, "n": 2}, "n", "one choice per request; send n=1"),
        ({"messages": HELLO, "top_logprobs": 2}, "top_logprobs", "needs logprobs: true"),
        ({"messages": HELLO, "logprobs": True, "top_logprobs": 21}, "top_logprobs", "20"),
        ({"messages": HELLO, "response_format": {"type": "xml"}}, "response_format.type", "json"),
        (
            {"messages": HELLO, "response_format": {"type": "json_schema"}},
            "response_format",
            '"json_schema": {"name"',
        ),
        (
            {"messages": HELLO, "response_format": {"type": "json_object"}, "grammar": False},
            "response_format",
            'drop "grammar": false',
        ),
        ({"messages": HELLO, "max_tokens": 0}, "max_tokens", "greater than or equal to 1"),
        ({"messages": HELLO, "stop": ["a", "b", "c", "d", "e"]}, "stop", "at most 4"),
        ({"messages": HELLO, "tool_choice": "sometimes"}, "tool_choice", "auto"),
        ({"messages": HELLO, "tool_choice": "required"}, "tools", "needs tools"),
        ([1, 2], None, "JSON object"),
    ],
)
def test_bad_requests_name_the_field(
    client: httpx.Client, body: object, param: str | None, words: str
) -> None:
    error = _error_of(client.post("/chat/completions", json=body), 400)
    assert error["param"] == param
    assert words in error["message"]
    assert error["type"] == "invalid_request_error"


def test_image_content_is_refused_clearly(client: httpx.Client) -> None:
    part = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    body = {"messages": [{"role": "user", "content": [part]}]}
    error = _error_of(client.post("/chat/completions", json=body), 400)
    assert "image_url" in error["message"] and "send text" in error["message"]


def test_unknown_named_tool_lists_the_tools(client: httpx.Client) -> None:
    body = {
        "messages": HELLO,
        "tools": [WEATHER, ADD],
        "tool_choice": {"type": "function", "function": {"name": "get_time"}},
    }
    error = _error_of(client.post("/chat/completions", json=body), 400)
    assert error["param"] == "tool_choice"
    assert "'get_time'" in error["message"] and "get_weather, add" in error["message"]


def test_duplicate_tool_names_are_refused(client: httpx.Client) -> None:
    body = {"messages": HELLO, "tools": [ADD, ADD]}
    assert "unique" in _error_of(client.post("/chat/completions", json=body), 400)["message"]


def test_too_large_and_too_long(client: httpx.Client) -> None:
    huge = {"messages": [{"role": "user", "content": "x" * (MAX_BODY_BYTES + 10)}]}
    assert _error_of(client.post("/chat/completions", json=huge), 413)["code"]
    long = {"messages": [{"role": "user", "content": "word " * 6000}]}
    error = _error_of(client.post("/chat/completions", json=long), 400)
    assert error["code"] == "context_length_exceeded"
    assert "TOOLKIT_CONTEXT" in error["message"]


def test_unknown_route_uses_the_error_shape(client: httpx.Client) -> None:
    assert "Not Found" in _error_of(client.get("/nothing/here"), 404)["message"]


def test_prompt_shows_what_the_model_reads(client: httpx.Client) -> None:
    body = {
        "messages": [
            {"role": "user", "content": "计算一下北京和西安的气温的总和"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_{i}",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": json.dumps({"city": c})},
                    }
                    for i, c in enumerate(["北京", "西安"])
                ],
            },
            {"role": "tool", "tool_call_id": "call_0", "content": "6 摄氏度"},
            {"role": "tool", "tool_call_id": "call_1", "content": "5 摄氏度"},
        ],
        "tools": [WEATHER, ADD],
    }
    answer = client.post("/prompt", json=body).json()
    prompt = answer["prompt"]
    assert "<tools>" in prompt and '"name": "get_weather"' in prompt
    assert "Call a function only when" in prompt  # the decision nudge for tool_choice=auto
    assert '{"name": "get_weather", "arguments": {"city": "北京"}}' in prompt
    # The server labels each result with the call it answers; the template alone does not.
    merged = (
        '<tool_response>\nget_weather(city="北京") = 6 摄氏度\n</tool_response>\n'
        '<tool_response>\nget_weather(city="西安") = 5 摄氏度\n</tool_response>'
    )
    assert f"<|im_start|>user\n{merged}<|im_end|>" in prompt
    stock = render_prompt(body["messages"], body["tools"])
    bare = (
        "<tool_response>\n6 摄氏度\n</tool_response>\n<tool_response>\n5 摄氏度\n</tool_response>"
    )
    assert f"<|im_start|>user\n{bare}<|im_end|>" in stock
    assert prompt.endswith("<|im_start|>assistant\n")
    assert 100 < answer["prompt_tokens"] < len(prompt)
    plain = client.post("/prompt", json={**body, "tool_choice": "none"}).json()["prompt"]
    assert "Call a function only when" not in plain


def test_text_answer_shape_usage_and_stop(client: httpx.Client) -> None:
    body = {"messages": [{"role": "user", "content": "Count from 1 to 20, comma separated."}]}
    response = client.post("/chat/completions", json={**body, "max_tokens": 5})
    answer = response.json()
    assert answer["object"] == "chat.completion" and answer["id"].startswith("chatcmpl-")
    choice = answer["choices"][0]
    assert choice["finish_reason"] == "length"
    assert choice["message"]["role"] == "assistant" and choice["message"]["content"]
    assert "tool_calls" not in choice["message"]
    usage = answer["usage"]
    assert usage["completion_tokens"] == 5
    assert usage["total_tokens"] == usage["prompt_tokens"] + 5
    stopped = client.post("/chat/completions", json={**body, "stop": ["5"], "max_tokens": 40})
    content = stopped.json()["choices"][0]["message"]["content"]
    assert stopped.json()["choices"][0]["finish_reason"] == "stop"
    assert "4" in content and "5" not in content


def _sse_events(response: httpx.Response) -> list:
    lines = [line for line in response.text.split("\n") if line]
    assert all(line.startswith("data: ") for line in lines)
    assert lines[-1] == "data: [DONE]"
    return [json.loads(line[6:]) for line in lines[:-1]]


def test_a_call_cut_short_by_max_tokens_is_not_content(client: httpx.Client) -> None:
    body = {
        "messages": [{"role": "user", "content": "What's the weather in Beijing?"}],
        "tools": [WEATHER, ADD],
        "tool_choice": "required",
        "max_tokens": 3,
    }
    choice = client.post("/chat/completions", json=body).json()["choices"][0]
    assert choice["finish_reason"] == "length"
    assert not choice["message"].get("content")  # not "<tool_call>" or a piece of JSON
    assert not choice["message"].get("tool_calls")


def test_streamed_tool_call_deltas(client: httpx.Client) -> None:
    body = {
        "messages": [{"role": "user", "content": "What is 17 + 25?"}],
        "tools": [WEATHER, ADD],
        "tool_choice": {"type": "function", "function": {"name": "add"}},
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    with client.stream("POST", "/chat/completions", json=body) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        response.read()
    events = _sse_events(response)
    assert events[0]["choices"][0]["delta"]["role"] == "assistant"
    deltas = [d for e in events for c in e["choices"] for d in c["delta"].get("tool_calls", [])]
    first = deltas[0]
    assert first["index"] == 0 and first["id"].startswith("call_") and first["type"] == "function"
    assert first["function"]["name"] == "add"
    arguments = "".join(d["function"].get("arguments", "") for d in deltas if d["index"] == 0)
    assert json.loads(arguments) == {"x": 17, "y": 25}
    finishes = [c["finish_reason"] for e in events for c in e["choices"] if c["finish_reason"]]
    assert finishes == ["tool_calls"]
    assert events[-1]["choices"] == [] and events[-1]["usage"]["completion_tokens"] > 5


def test_concurrent_requests_are_served_one_at_a_time(client: httpx.Client) -> None:
    results: list[httpx.Response] = []

    def ask(n: int) -> None:
        body = {"messages": [{"role": "user", "content": f"Say the number {n}."}], "max_tokens": 8}
        results.append(client.post("/chat/completions", json=body))

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.status_code for r in results] == [200, 200, 200]
    assert all(r.json()["choices"][0]["message"]["content"] for r in results)


def test_api_key_is_required_when_configured(local_server: EmbeddedServer) -> None:
    settings = Settings(server_api_key=SecretStr("s3cret-key"))
    with EmbeddedServer(settings, engine=local_server.engine) as keyed:
        assert keyed.api_key == "s3cret-key"
        url = keyed.base_url + "/models"
        error = _error_of(httpx.get(url), 401)
        assert error["code"] == "invalid_api_key" and "s3cret" not in error["message"]
        _error_of(httpx.get(url, headers={"Authorization": "Bearer wrong"}), 401)
        ok = httpx.get(url, headers={"Authorization": "Bearer s3cret-key"})
        assert ok.status_code == 200
        assert "s3cret" not in repr(keyed)


def _toolkit(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "toolkit", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def test_serve_refuses_a_public_interface_without_a_key() -> None:
    done = _toolkit("serve", "--host", "0.0.0.0", "--port", "1")
    assert done.returncode == 2
    assert "TOOLKIT_SERVER_API_KEY" in done.stderr and "0.0.0.0" in done.stderr
    assert "Traceback" not in done.stderr


def test_prompt_command_prints_what_the_model_reads() -> None:
    done = _toolkit("prompt", "What's the weather in Beijing?", "--tools", "tools:get_weather")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<|im_start|>system\n")
    assert '"name": "get_weather"' in done.stdout and '"name": "add"' not in done.stdout
    assert done.stdout.endswith("What's the weather in Beijing?<|im_end|>\n<|im_start|>assistant\n")
    assert "tokens" in done.stderr
    bad = _toolkit("prompt", "hi", "--tool-choice", "nope")
    assert bad.returncode == 2 and "--tool-choice 'nope'" in bad.stderr
