"""The scripted OpenAI-compatible server: real HTTP on loopback, replies exactly as scripted."""

from __future__ import annotations

import httpx
import pytest
from langchain_openai import ChatOpenAI

from toolkit.testing.server import (
    RecordedRequest,
    Reply,
    ScriptedServer,
    completion,
    completion_chunks,
    tool_call,
)

CANARY = "sk-canary-3f9a7c1e5d"


def _post(server: ScriptedServer, body: dict, timeout: float = 5.0) -> httpx.Response:
    return httpx.post(
        f"{server.base_url}/chat/completions",
        json=body,
        headers={"Authorization": f"Bearer {CANARY}"},
        timeout=timeout,
    )


def _chat(server: ScriptedServer, **kwargs: object) -> ChatOpenAI:
    return ChatOpenAI(
        model="scripted", base_url=server.base_url, api_key=CANARY, max_retries=0, **kwargs
    )


def test_base_url_is_loopback_and_ends_in_v1() -> None:
    with ScriptedServer() as server:
        assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
        assert CANARY not in repr(server)


def test_a_real_client_reads_a_scripted_tool_call_and_the_request_is_recorded() -> None:
    call = tool_call("get_weather", {"city": "北京"}, call_id="call_1")
    with ScriptedServer([completion(tool_calls=[call]), completion("11")]) as server:
        model = _chat(server).bind_tools(
            [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]
        )
        first = model.invoke("北京天气")
        second = model.invoke("again")
    assert first.tool_calls == [
        {"name": "get_weather", "args": {"city": "北京"}, "id": "call_1", "type": "tool_call"}
    ]
    assert first.response_metadata["finish_reason"] == "tool_calls"
    assert second.content == "11"
    assert server.remaining == 0
    assert len(server.chat_requests) == 2
    sent = server.chat_requests[0]
    assert sent.json["messages"] == [{"role": "user", "content": "北京天气"}]
    assert sent.json["tools"][0]["function"]["name"] == "get_weather"
    assert sent.headers["authorization"] == f"Bearer {CANARY}"
    assert CANARY not in repr(sent)


@pytest.mark.parametrize("status", [429, 500, 503])
def test_http_errors_in_the_openai_shape(status: int) -> None:
    reply = Reply.error(status, "slow down", "rate_limit_error", headers={"Retry-After": "2"})
    with ScriptedServer([reply]) as server:
        response = _post(server, {"messages": []})
    assert response.status_code == status
    assert response.headers["retry-after"] == "2"
    assert response.json() == {
        "error": {"message": "slow down", "type": "rate_limit_error", "param": None, "code": None}
    }


def test_raw_bytes_are_sent_verbatim() -> None:
    with ScriptedServer([Reply.raw(b"<html>bad gateway</html>", 502, "text/html")]) as server:
        response = _post(server, {})
    assert response.status_code == 502
    assert response.content == b"<html>bad gateway</html>"
    assert response.headers["content-type"] == "text/html"


def test_a_delay_past_the_client_timeout() -> None:
    with ScriptedServer([Reply.json(completion("late")).after(5), completion("ok")]) as server:
        with pytest.raises(httpx.ReadTimeout):
            _post(server, {}, timeout=0.3)
        assert _post(server, {}).json()["choices"][0]["message"]["content"] == "ok"


def test_a_dropped_connection() -> None:
    with ScriptedServer([Reply.drop()]) as server:
        with pytest.raises(httpx.RemoteProtocolError):
            _post(server, {})
        assert len(server.chat_requests) == 1


def test_streamed_chunks_reach_a_real_client() -> None:
    call = tool_call("add", {"x": 6, "y": 5}, call_id="call_add")
    chunks = completion_chunks("Sum:", tool_calls=[call])
    with ScriptedServer([Reply.sse(chunks)]) as server:
        pieces = list(_chat(server, streaming=True).stream("add 6 and 5"))
        assert server.chat_requests[0].json["stream"] is True
    merged = pieces[0]
    for piece in pieces[1:]:
        merged += piece
    assert merged.content == "Sum:"
    assert merged.tool_calls == [
        {"name": "add", "args": {"x": 6, "y": 5}, "id": "call_add", "type": "tool_call"}
    ]


def test_raw_sse_lines_for_malformed_streams() -> None:
    with ScriptedServer([Reply.sse(["data: {not json\n\n", b": comment\n\n"], done=False)]) as s:
        response = _post(s, {"stream": True})
    assert response.headers["content-type"] == "text/event-stream"
    assert response.text == "data: {not json\n\n: comment\n\n"


def test_an_exhausted_script_answers_500_with_a_clear_message() -> None:
    with ScriptedServer([completion("one")]) as server:
        assert _post(server, {}).status_code == 200
        response = _post(server, {})
    assert response.status_code == 500
    assert response.json()["error"]["message"] == (
        "ScriptedServer has no scripted reply left for chat request #2; "
        "add more replies to the script."
    )


def test_replies_can_depend_on_the_request_and_be_added_later() -> None:
    def echo(request: RecordedRequest) -> dict:
        return completion(request.json["messages"][-1]["content"].upper())

    with ScriptedServer([echo]) as server:
        server.add(Reply.json(completion("second")))
        assert server.remaining == 2
        first = _post(server, {"messages": [{"role": "user", "content": "hi"}]})
        second = _post(server, {"messages": []})
    assert first.json()["choices"][0]["message"]["content"] == "HI"
    assert second.json()["choices"][0]["message"]["content"] == "second"


def test_models_and_unknown_routes_do_not_use_the_script() -> None:
    with ScriptedServer([completion("kept")]) as server:
        models = httpx.get(f"{server.base_url}/models")
        missing = httpx.post(f"{server.base_url}/embeddings", json={})
        assert server.remaining == 1
        assert [r.path for r in server.requests] == ["/v1/models", "/v1/embeddings"]
    assert models.json()["data"][0]["id"] == "scripted"
    assert missing.status_code == 404


def test_completion_defaults_follow_the_calls() -> None:
    body = completion(tool_calls=[tool_call("a", "{bad json", call_id="c1")])
    choice = body["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["tool_calls"] == [
        {
            "id": "c1",
            "type": "function",
            "function": {"name": "a", "arguments": "{bad json"},
            "index": 0,
        }
    ]
    assert completion("hi", finish_reason="length")["choices"][0]["finish_reason"] == "length"
    assert completion("hi")["choices"][0]["message"] == {"role": "assistant", "content": "hi"}


def test_close_does_not_wait_for_a_pending_delay() -> None:
    server = ScriptedServer([Reply.json(completion("never")).after(60)]).start()
    with pytest.raises(httpx.ReadTimeout):
        _post(server, {}, timeout=0.2)
    server.close()
    with pytest.raises(httpx.ConnectError):
        _post(server, {}, timeout=1)
