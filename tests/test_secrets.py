"""A canary API key never leaks: not in CLI output, logs, errors, reprs, transcripts or JSON.

The canary is set the way a user sets a key (``OPENAI_API_KEY`` in the environment). Each test
also proves the key was really used (the endpoint received it), so "not found" means "kept", not
"never loaded". The server side is checked too: ``TOOLKIT_SERVER_API_KEY`` is never echoed.
"""

from __future__ import annotations

import json
import logging
import socket
import subprocess

import httpx
import pytest
from fixtures.loop_tools import get_weather
from helpers import run_toolkit
from pydantic import SecretStr

from toolkit.bare import LLM, Agent
from toolkit.config import Settings, load_settings
from toolkit.errors import EndpointError
from toolkit.loop import ToolLoop
from toolkit.models import load_chat_model
from toolkit.testing.server import Reply, ScriptedServer, completion, tool_call

CANARY = "sk-canary-7f3a9c1e5b2d4f60"
SERVER_CANARY = "srv-canary-0c9e8d7b6a5f"
TOOLS_FILE = "tests/fixtures/loop_tools.py"
QUESTION = "计算一下北京和西安的气温的总和"


def _script() -> list:
    return [
        completion(tool_calls=[tool_call("get_weather", '{"city": "北京"}', "c1")]),
        completion(tool_calls=[tool_call("nope", "{", "c2")]),  # an invalid call: an error path
        completion("6 摄氏度"),
    ]


def _cli(*args: str, base_url: str) -> subprocess.CompletedProcess:
    env = {
        "OPENAI_BASE_URL": base_url,
        "OPENAI_API_KEY": CANARY,
        "OPENAI_LOG": "debug",  # the openai client's own debug logging, on purpose
    }
    return run_toolkit(*args, env=env, timeout=120, inherit=False)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _assert_key_was_sent(server: ScriptedServer) -> None:
    assert server.chat_requests, "the endpoint was never called"
    for request in server.chat_requests:
        assert request.headers["authorization"] == f"Bearer {CANARY}"


@pytest.mark.parametrize("json_output", [False, True], ids=["rich", "json"])
def test_cli_run_never_prints_the_key(json_output: bool) -> None:
    flags = ["--json"] if json_output else []
    with ScriptedServer(_script()) as server:
        done = _cli("run", QUESTION, "--tools", TOOLS_FILE, *flags, base_url=server.base_url)
        _assert_key_was_sent(server)
    assert done.returncode == 0, done.stderr
    if json_output:
        assert json.loads(done.stdout)["status"] == "answered"
    assert "6 摄氏度" in done.stdout
    assert CANARY not in done.stdout + done.stderr


@pytest.mark.parametrize(
    "reply",
    [
        Reply.error(401, "Incorrect API key provided", "invalid_request_error", "invalid_api_key"),
        Reply.raw("not json at all"),
        Reply.drop(),
    ],
    ids=["401", "not_json", "dropped"],
)
@pytest.mark.parametrize("json_output", [False, True], ids=["rich", "json"])
def test_cli_error_paths_never_print_the_key(reply: Reply, json_output: bool) -> None:
    flags = ["--json"] if json_output else []
    with ScriptedServer([reply] * 3) as server:
        done = _cli("run", QUESTION, "--tools", TOOLS_FILE, *flags, base_url=server.base_url)
        _assert_key_was_sent(server)
    assert done.returncode != 0
    assert "model" in (done.stdout + done.stderr).lower()
    assert CANARY not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_cli_connection_refused_never_prints_the_key() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    done = _cli("run", QUESTION, "--tools", TOOLS_FILE, "--json", base_url=url)
    assert done.returncode != 0
    assert url in done.stdout + done.stderr
    assert CANARY not in done.stdout + done.stderr


def test_logs_errors_reprs_and_transcripts_never_show_the_key(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG)
    for name in ("httpx", "httpcore", "openai", "langchain", "toolkit"):
        caplog.set_level(logging.DEBUG, logger=name)
    with ScriptedServer([*_script(), Reply.error(401, "bad key", code="invalid_api_key")]) as srv:
        monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", CANARY)
        settings = load_settings()
        model = load_chat_model(settings, max_retries=0)
        loop = ToolLoop(model, [get_weather])
        first = loop.run(QUESTION)
        failed = loop.run([*first.transcript, ("user", "again")])  # the 401 reply
        _assert_key_was_sent(srv)
    assert first.answered and failed.error and "401" in failed.error
    assert caplog.records, "nothing was logged at DEBUG"
    seen = [
        *(record.getMessage() for record in caplog.records),
        caplog.text,
        repr(settings),
        str(settings),
        repr(model),
        str(model),
        json.dumps(model.model_dump(), default=str),
        repr(first),
        repr(failed),
        json.dumps(first.to_dict(), ensure_ascii=False),
        json.dumps(failed.to_dict(), ensure_ascii=False),
        str(failed.exception),
        repr(failed.exception),
        failed.error,
        failed.hint,
        *(message.model_dump_json() for message in failed.transcript),
    ]
    leaks = [text for text in seen if CANARY in text]
    assert leaks == []


def test_the_bare_client_and_agent_keep_the_key() -> None:
    script = [Reply.error(401, "Incorrect API key provided", code="invalid_api_key")]
    with ScriptedServer(script) as server:
        client = LLM(Settings(api_key=SecretStr(CANARY), base_url=server.base_url))
        agent = Agent(client, [])
        with pytest.raises(EndpointError) as caught:
            client.chat_completion([{"role": "user", "content": "hi"}])
        _assert_key_was_sent(server)
    texts = [repr(client), str(client), repr(agent), str(caught.value), repr(caught.value)]
    assert "401" in str(caught.value)
    assert [text for text in texts if CANARY in text] == []


def test_the_server_key_is_never_echoed(local_server, caplog: pytest.LogCaptureFixture) -> None:
    from toolkit.local.server.runner import EmbeddedServer

    caplog.set_level(logging.DEBUG)
    settings = Settings(server_api_key=SecretStr(SERVER_CANARY))
    with EmbeddedServer(settings, engine=local_server.engine) as keyed:
        base = keyed.base_url
        answers = [
            httpx.get(f"{base}/models"),
            httpx.get(f"{base}/models", headers={"Authorization": f"Bearer {SERVER_CANARY}x"}),
            httpx.post(f"{base}/chat/completions", json={"messages": []}),
            httpx.get(base.removesuffix("/v1") + "/health"),
            httpx.get(f"{base}/models", headers={"Authorization": f"Bearer {SERVER_CANARY}"}),
        ]
        texts = [repr(keyed), str(settings), repr(settings), caplog.text]
    assert [a.status_code for a in answers] == [401, 401, 401, 200, 200]
    texts += [a.text + str(a.headers) for a in answers]
    assert [text for text in texts if SERVER_CANARY in text] == []
