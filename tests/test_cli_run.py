"""``toolkit run`` / ``toolkit demo`` as subprocesses, against a scripted endpoint on loopback."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import pytest
from helpers import ROOT, clean_env, run_toolkit

from toolkit.loop import LoopSettings
from toolkit.testing.server import Reply, ScriptedServer, completion, tool_call

FIXTURE_TOOLS = "tests/fixtures/loop_tools.py"
SECRET = "sk-dummy-never-printed"
QUESTION = "计算一下北京和西安的气温的总和"


def _with_usage(body: dict) -> dict:
    body["usage"] = {"prompt_tokens": 20, "completion_tokens": 7, "total_tokens": 27}
    return body


def seed_replies() -> list[dict]:
    weather = [
        tool_call("get_weather", '{"city": "北京"}', "c1"),
        tool_call("get_weather", '{"city": "西安"}', "c2"),
    ]
    return [
        _with_usage(completion(tool_calls=weather)),
        _with_usage(completion(tool_calls=[tool_call("add", '{"x": 6, "y": 5}', "c3")])),
        _with_usage(completion("北京和西安的气温总和为11摄氏度。")),
    ]


def toolkit(
    *args: str, endpoint: ScriptedServer | None, timeout: float = 120, **env_vars: str
) -> subprocess.CompletedProcess:
    env = {"COLUMNS": "120"}
    if endpoint is not None:
        env |= {"OPENAI_BASE_URL": endpoint.base_url, "OPENAI_API_KEY": SECRET}
    return run_toolkit(*args, env=env | env_vars, timeout=timeout, inherit=False)


def test_run_prints_each_step_then_the_answer():
    with ScriptedServer(seed_replies()) as endpoint:
        done = toolkit("run", QUESTION, "--tools", FIXTURE_TOOLS, endpoint=endpoint)
        second = endpoint.chat_requests[1].json
    assert done.returncode == 0, done.stderr
    out = done.stdout
    order = ["Human", "AI", "Tool · get_weather · c1", "Tool · get_weather · c2", "Tool · add · c3"]
    positions = [out.index(title) for title in order]
    assert positions == sorted(positions)
    assert "6 摄氏度" in out and "5 摄氏度" in out and "│ 11" in out
    assert "answered" in out and "北京和西安的气温总和为11摄氏度。" in out
    assert "\x1b[" not in out and "model is thinking" not in out  # piped: plain, no spinner
    assert SECRET not in out + done.stderr
    assert [m["role"] for m in second["messages"]] == ["user", "assistant", "tool", "tool"]
    assert [t["function"]["name"] for t in second["tools"]] == ["get_weather", "add"]


def test_run_json_prints_the_whole_transcript_as_openai_messages():
    with ScriptedServer(seed_replies()) as endpoint:
        done = toolkit("run", QUESTION, "--tools", FIXTURE_TOOLS, "--json", endpoint=endpoint)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "answered"
    assert data["answer"] == "北京和西安的气温总和为11摄氏度。"
    assert (data["model_calls"], data["tool_calls"]) == (3, 3)
    assert data["usage"] == {"input_tokens": 60, "output_tokens": 21, "total_tokens": 81}
    roles = [m["role"] for m in data["messages"]]
    assert roles == ["user", "assistant", "tool", "tool", "assistant", "tool", "assistant"]
    assert [m["content"] for m in data["messages"] if m["role"] == "tool"] == [
        "6 摄氏度",
        "5 摄氏度",
        "11",
    ]
    assert SECRET not in done.stdout


def test_a_step_budget_exits_1_and_names_the_option_to_raise():
    with ScriptedServer(seed_replies()) as endpoint:
        done = toolkit(
            "run", QUESTION, "--tools", FIXTURE_TOOLS, "--max-steps", "1", endpoint=endpoint
        )
    assert done.returncode == 1
    assert "step_budget_exhausted" in done.stdout and "--max-steps" in done.stdout


def test_the_options_default_to_the_loop_settings():
    done = toolkit("run", "--help", endpoint=None)
    assert done.returncode == 0, done.stderr
    text, defaults = " ".join(done.stdout.split()), LoopSettings()
    assert f"model calls at most (default {defaults.max_model_calls})" in text
    assert f"seconds per tool call (default {defaults.tool_timeout:g})" in text
    assert f"seconds for the whole run (default {defaults.max_wall_time:g})" in text


def test_a_failing_endpoint_exits_2_and_keeps_what_was_printed():
    with ScriptedServer(seed_replies()[:1]) as endpoint:
        done = toolkit("run", QUESTION, "--tools", FIXTURE_TOOLS, "--json", endpoint=endpoint)
    assert done.returncode == 2
    data = json.loads(done.stdout)
    assert data["status"] == "model_error"
    assert data["error"].startswith(f"the model call failed (endpoint {endpoint.base_url})")
    assert [m["role"] for m in data["messages"]] == ["user", "assistant", "tool", "tool"]


@pytest.mark.parametrize(
    ("tools", "message"),
    [
        ("no_such_module_xyz", "error: no_such_module_xyz: no such module, file or directory"),
        ("tests/fixtures/missing.py", "error: tests/fixtures/missing.py: no such file"),
        ("json", "error: json holds no LangChain tools"),
        (f"{FIXTURE_TOOLS}:nothing", "has no attribute 'nothing'"),
    ],
)
def test_a_bad_tools_module_is_a_one_line_error_with_exit_2(tools, message):
    with ScriptedServer([]) as endpoint:
        done = toolkit("run", "q", "--tools", tools, endpoint=endpoint)
        assert endpoint.chat_requests == []
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_an_unknown_tool_choice_is_refused_before_calling_the_model():
    with ScriptedServer([]) as endpoint:
        done = toolkit(
            "run", "q", "--tools", FIXTURE_TOOLS, "--tool-choice", "mul", endpoint=endpoint
        )
        assert endpoint.chat_requests == []
    assert done.returncode == 2
    assert "Unknown tool 'mul'. Call one of: add, get_weather." in done.stderr


def test_a_named_tool_choice_is_sent_on_the_first_request_only():
    with ScriptedServer(seed_replies()) as endpoint:
        done = toolkit(
            "run",
            QUESTION,
            "--tools",
            FIXTURE_TOOLS,
            "--tool-choice",
            "get_weather",
            "--json",
            endpoint=endpoint,
        )
        choices = [request.json.get("tool_choice") for request in endpoint.chat_requests]
    assert done.returncode == 0, done.stderr
    assert choices == [{"type": "function", "function": {"name": "get_weather"}}, None, None]


def test_demo_asks_the_seed_question_with_the_seed_tools():
    with ScriptedServer(seed_replies()) as endpoint:
        done = toolkit("demo", "--json", endpoint=endpoint)
        first = endpoint.chat_requests[0].json
    assert done.returncode == 0, done.stderr
    assert first["messages"] == [{"role": "user", "content": QUESTION}]
    tool_names = {t["function"]["name"] for t in first["tools"]}
    assert tool_names == {"get_weather", "add"}
    results = [m["content"] for m in json.loads(done.stdout)["messages"] if m["role"] == "tool"]
    assert "6" in results[0] and "5" in results[1] and results[2] == "11"


def test_demo_on_the_embedded_model_answers_11():
    # nothing configured: the real embedded model answers, over HTTP on loopback
    done = toolkit("demo", "--json", endpoint=None, timeout=900, TOOLKIT_TIMEOUT="600")
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(done.stdout)
    assert data["status"] == "answered"
    assert "11" in data["answer"], data


def test_on_a_terminal_a_spinner_shows_while_the_model_thinks():
    slow = [  # a model that takes its time, so the spinner is on screen while it thinks
        Reply.json(completion(tool_calls=[tool_call("add", '{"x": 6, "y": 5}', "c1")])).after(0.5),
        Reply.json(completion("6 + 5 = 11")).after(0.5),
    ]
    with ScriptedServer(slow) as endpoint:
        env = clean_env(
            OPENAI_BASE_URL=endpoint.base_url,
            OPENAI_API_KEY=SECRET,
            TERM="xterm-256color",
            COLUMNS="100",
        )
        main, terminal = pty.openpty()
        process = subprocess.Popen(
            [sys.executable, "-m", "toolkit", "run", "6+5", "--tools", FIXTURE_TOOLS],
            stdout=terminal,
            stderr=terminal,
            env=env,
            cwd=ROOT,
        )
        os.close(terminal)
        screen = b""
        while True:
            try:
                data = os.read(main, 65536)
            except OSError:  # the terminal closed: the process is done
                break
            if not data:
                break
            screen += data
        os.close(main)
        assert process.wait(timeout=60) == 0
    text = screen.decode(errors="replace")
    assert "model is thinking…" in text and "\x1b[" in text
    assert "6 + 5 = 11" in text and SECRET not in text
