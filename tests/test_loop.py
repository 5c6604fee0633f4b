"""The four-step loop: the seed's example, each failure fed back, budgets, model errors, config."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import openai
import pytest
from fixtures.loop_tools import add, get_weather
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import StructuredTool
from langchain_openai import ChatOpenAI
from pydantic import ValidationError

from toolkit.errors import ConfigError
from toolkit.loop import LoopStatus, ToolLoop, to_openai_messages
from toolkit.testing import ScriptedChatModel, chat_protocol_problems
from toolkit.testing.server import Reply, ScriptedServer, completion, completion_chunks, tool_call

TOOLS = [get_weather, add]
QUESTION = "计算一下北京和西安的气温的总和"


def ask(*tool_calls: dict, content: str = "") -> AIMessage:
    return AIMessage(content=content, tool_calls=list(tool_calls))


def tc(name: str, args: dict, call_id: str | None) -> dict:
    return {"name": name, "args": args, "id": call_id}


def seed_script() -> list:
    return [
        ask(tc("get_weather", {"city": "北京"}, "c1"), tc("get_weather", {"city": "西安"}, "c2")),
        ask(tc("add", {"x": 6, "y": 5}, "c3")),
        "北京和西安的气温总和为11摄氏度。",
    ]


def test_the_seed_example_runs_the_four_steps_and_yields_every_message_in_order():
    model = ScriptedChatModel(seed_script())
    steps = ToolLoop(model, TOOLS).steps(QUESTION)
    yielded = []
    while True:
        try:
            yielded.append(next(steps))
        except StopIteration as stop:
            result = stop.value
            break
    kinds = [(type(m).__name__, getattr(m, "tool_call_id", None)) for m in yielded]
    assert kinds == [
        ("HumanMessage", None),
        ("AIMessage", None),
        ("ToolMessage", "c1"),
        ("ToolMessage", "c2"),
        ("AIMessage", None),
        ("ToolMessage", "c3"),
        ("AIMessage", None),
    ]
    assert [m.content for m in yielded if isinstance(m, ToolMessage)] == [
        "6 摄氏度",
        "5 摄氏度",
        "11",
    ]
    assert result.transcript == yielded
    assert result.status is LoopStatus.ANSWERED and result.answered
    assert result.answer == "北京和西安的气温总和为11摄氏度。"
    assert (result.model_calls, result.tool_calls, result.hint) == (3, 3, None)
    replies = [m for m in yielded if isinstance(m, AIMessage)]
    assert result.usage.input_tokens == sum(m.usage_metadata["input_tokens"] for m in replies)
    assert result.usage.total_tokens == sum(m.usage_metadata["total_tokens"] for m in replies)
    assert result.usage.total_tokens > 0
    # the model saw each tool result before being called again
    assert [len(c.messages) for c in model.calls] == [1, 4, 6]
    assert model.calls[0].tools == model.bound_tools and len(model.bound_tools) == 2


def test_run_calls_on_message_with_each_new_message():
    seen = []
    result = ToolLoop(ScriptedChatModel(seed_script()), TOOLS).run(QUESTION, on_message=seen.append)
    assert seen == result.transcript


@pytest.mark.parametrize(
    ("bad_call", "expected_start"),
    [
        (tc("get_wether", {"city": "北京"}, "bad"), "Error: Unknown tool 'get_wether'"),
        (tc("add", {"x": 6}, "bad"), "Error: invalid arguments for tool 'add':\n- missing"),
        (tc("add", {"x": 6, "y": "five"}, "bad"), "Error: invalid arguments for tool 'add':\n-"),
        (tc("get_weather", {"city": "拉萨"}, "bad"), "Error: tool 'get_weather' raised KeyError"),
    ],
)
def test_a_failed_call_goes_back_to_the_model_and_the_loop_continues(bad_call, expected_start):
    model = ScriptedChatModel([ask(bad_call), ask(tc("add", {"x": 6, "y": 5}, "ok")), "11"])
    result = ToolLoop(model, TOOLS).run(QUESTION)
    assert result.status is LoopStatus.ANSWERED and result.answer == "11"
    feedback = model.calls[1].messages[-1]
    assert isinstance(feedback, ToolMessage)
    assert (feedback.tool_call_id, feedback.status) == ("bad", "error")
    assert feedback.content.startswith(expected_start)


def test_invalid_tool_calls_are_answered_with_the_parse_error():
    reply = AIMessage(
        content="",
        invalid_tool_calls=[
            {"type": "invalid_tool_call", "name": "add", "args": "{x: 6}", "id": "i1", "error": ""}
        ],
    )
    model = ScriptedChatModel([reply, "sorry"])
    result = ToolLoop(model, TOOLS).run(QUESTION)
    answer = result.transcript[2]
    assert (answer.tool_call_id, answer.status) == ("i1", "error")
    assert "not valid JSON (Expecting property name enclosed in double quotes" in answer.content
    assert result.answer == "sorry"


def test_the_step_budget_ends_the_run_with_a_hint_and_a_valid_transcript():
    script = [ask(tc("add", {"x": i, "y": 1}, f"c{i}")) for i in range(5)]
    result = ToolLoop(ScriptedChatModel(script), TOOLS, max_model_calls=2).run(QUESTION)
    assert result.status is LoopStatus.STEP_BUDGET_EXHAUSTED
    assert result.model_calls == 2 and result.answer is None
    assert "raise max_model_calls (CLI: --max-steps)" in result.hint
    assert isinstance(result.transcript[-1], ToolMessage)  # the last calls were still answered
    assert chat_protocol_problems(result.transcript) == []


def test_the_time_budget_stops_a_slow_tool_and_ends_the_run():
    release = threading.Event()
    slow = StructuredTool.from_function(
        lambda city: release.wait(10) and "late", name="slow", description="Slow."
    )
    model = ScriptedChatModel([ask(tc("slow", {"city": "北京"}, "s1")), "unused"])
    try:
        result = ToolLoop(model, [slow], max_wall_time=0.2).run(QUESTION)
    finally:
        release.set()
    assert result.status is LoopStatus.TIME_BUDGET_EXHAUSTED
    assert "raise max_wall_time (CLI: --max-time)" in result.hint
    assert "max_wall_time" in result.transcript[-1].content
    assert result.model_calls == 1 and model.remaining == 1


def test_the_retry_budget_warns_then_ends_the_run():
    script = [ask(tc("get_weather", {"city": "拉萨"}, f"c{i}")) for i in range(6)]
    result = ToolLoop(ScriptedChatModel(script), TOOLS, retry_budget=2).run(QUESTION)
    errors = [m for m in result.transcript if isinstance(m, ToolMessage)]
    assert [m.status for m in errors] == ["error"] * 3
    assert "stop calling it" not in errors[0].content
    assert errors[1].content.endswith(
        "Tool 'get_weather' has now failed 2 times in a row: stop calling it, and answer with "
        "what you have or use another tool."
    )
    assert result.status is LoopStatus.RETRY_BUDGET_EXHAUSTED
    assert "failed 3 times in a row (retry_budget=2)" in result.hint
    assert result.model_calls == 3


def test_a_success_resets_the_retry_count():
    script = []
    for i in range(3):
        script.append(ask(tc("add", {"x": "a", "y": 1}, f"fail{i}")))
        script.append(ask(tc("add", {"x": 1, "y": 1}, f"pass{i}")))
    result = ToolLoop(ScriptedChatModel([*script, "done"]), TOOLS, retry_budget=1).run(QUESTION)
    assert result.status is LoopStatus.ANSWERED
    notes = [m for m in result.transcript if "stop calling it" in str(m.content)]
    assert [m.tool_call_id for m in notes] == ["fail0", "fail1", "fail2"]


def test_an_unreachable_provider_is_a_model_error_that_keeps_the_transcript():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again before the call: nothing listens there
    model = ChatOpenAI(
        model="m", api_key="sk-test-secret", base_url=f"http://127.0.0.1:{port}/v1", max_retries=0
    )
    result = ToolLoop(model, TOOLS).run(QUESTION)
    assert result.status is LoopStatus.MODEL_ERROR
    assert isinstance(result.exception, openai.APIConnectionError)
    assert result.error == (
        f"the model call failed (endpoint http://127.0.0.1:{port}/v1): "
        "OpenAIConnectionError: Connection error."
    )
    assert "endpoint is reachable" in result.hint
    assert [m.content for m in result.transcript] == [QUESTION]
    assert "sk-test-secret" not in f"{result.error} {result.hint} {result.to_dict()}"


def test_a_model_error_mid_run_keeps_every_message_and_the_run_can_continue():
    replies = [completion(tool_calls=[tool_call("get_weather", {"city": "北京"}, "c1")])]
    with ScriptedServer(replies) as endpoint:  # then it answers 500: no reply left
        model = ChatOpenAI(model="m", api_key="k", base_url=endpoint.base_url, max_retries=0)
        result = ToolLoop(model, TOOLS).run(QUESTION)
    assert result.status is LoopStatus.MODEL_ERROR
    assert isinstance(result.exception, openai.InternalServerError)
    assert result.error.startswith(
        f"the model call failed (endpoint {endpoint.base_url}): OpenAIAPIError: Error code: 500"
    )
    assert "ScriptedServer has no scripted reply left for chat request #2" in result.error
    assert [type(m).__name__ for m in result.transcript] == [
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
    ]
    follow_up = ScriptedChatModel(["北京 6 摄氏度"])
    resumed = ToolLoop(follow_up, TOOLS).run(result.transcript)
    assert resumed.answer == "北京 6 摄氏度"
    assert follow_up.calls[0].messages == result.transcript


def test_chat_openai_raises_on_non_object_arguments_without_the_toolkit():
    double = tool_call("get_weather", '"{\\"city\\": \\"北京\\"}"', "c1")
    with ScriptedServer([completion(tool_calls=[double])]) as endpoint:
        model = ChatOpenAI(model="m", api_key="k", base_url=endpoint.base_url, max_retries=0)
        with pytest.raises(ValidationError, match="Input should be a valid dictionary"):
            model.bind_tools(TOOLS).invoke(QUESTION)


@pytest.mark.parametrize("streaming", [False, True])
def test_chat_openai_replies_with_unusable_arguments_are_recovered(streaming):
    first = [
        tool_call("get_weather", '"{\\"city\\": \\"北京\\"}"', "c1"),  # double-encoded: decoded
        tool_call("get_weather", "[1, 2]", "c2"),  # JSON, not an object
        tool_call("add", '{"x": 6, "y": 5}', "c3"),
    ]
    answer = "北京 6 摄氏度; 6 + 5 = 11"
    if streaming:
        script = [
            Reply.sse(completion_chunks(tool_calls=first)),
            Reply.sse(completion_chunks(answer)),
        ]
    else:
        script = [completion(tool_calls=first), completion(answer)]
    with ScriptedServer(script) as endpoint:
        model = ChatOpenAI(
            model="m",
            api_key="k",
            base_url=endpoint.base_url,
            max_retries=0,
            streaming=streaming,
        )
        result = ToolLoop(model, TOOLS).run(QUESTION)
        second_request = endpoint.chat_requests[1].json["messages"]
    assert result.status is LoopStatus.ANSWERED
    answers = {m.tool_call_id: m for m in result.transcript if isinstance(m, ToolMessage)}
    assert (answers["c1"].status, answers["c1"].content) == ("success", "6 摄氏度")
    assert answers["c2"].status == "error"
    assert "must be a JSON object of named parameters, got a JSON array: [1, 2]" in (
        answers["c2"].content
    )
    assert (answers["c3"].status, answers["c3"].content) == ("success", "11")
    # on the wire: every call of the assistant message answered before the next request
    sent_calls = [c["id"] for c in second_request[1]["tool_calls"]]
    answered = [m["tool_call_id"] for m in second_request[2:]]
    assert sorted(sent_calls) == ["c1", "c2", "c3"] and answered == sent_calls


def test_a_named_tool_choice_must_be_bound():
    with pytest.raises(ConfigError) as caught:
        ToolLoop(ScriptedChatModel([]), TOOLS, tool_choice="get_wether")
    assert str(caught.value) == (
        "tool_choice names a tool that is not bound. Unknown tool 'get_wether'. "
        "Call one of: add, get_weather. Or use auto, none or required."
    )
    with pytest.raises(ConfigError, match="Unknown tool 'mul'"):
        ToolLoop(
            ScriptedChatModel([]),
            TOOLS,
            tool_choice={"type": "function", "function": {"name": "mul"}},
        )


def test_a_forcing_tool_choice_applies_to_the_first_call_only():
    model = ScriptedChatModel(seed_script())
    result = ToolLoop(model, TOOLS, tool_choice="get_weather", parallel_tool_calls=True).run(
        QUESTION
    )
    assert result.answered
    assert model.calls[0].tool_choice == {"type": "function", "function": {"name": "get_weather"}}
    assert [c.tool_choice for c in model.calls[1:]] == [None, None]
    assert all(c.options == {"parallel_tool_calls": True} for c in model.calls)


def test_tool_choice_none_is_kept_on_every_call():
    model = ScriptedChatModel(["no tools needed"])
    ToolLoop(model, TOOLS, tool_choice="none").run("hello")
    assert model.calls[0].tool_choice == "none"


class _Recorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.events: list[tuple] = []

    def on_chain_start(self, serialized, inputs, *, run_id, parent_run_id=None, **kwargs):
        self.events.append(("chain", kwargs.get("name"), run_id, parent_run_id, kwargs.get("tags")))

    def on_chat_model_start(self, serialized, messages, *, run_id, parent_run_id=None, **kwargs):
        self.events.append(("model", None, run_id, parent_run_id, kwargs.get("tags")))

    def on_tool_start(self, serialized, input_str, *, run_id, parent_run_id=None, **kwargs):
        self.events.append(("tool", serialized["name"], run_id, parent_run_id, kwargs.get("tags")))

    def on_chain_end(self, outputs, *, run_id, **kwargs):
        self.events.append(("end", outputs["status"], run_id, None, None))


def test_the_config_reaches_every_model_and_tool_call_under_one_parent_run():
    recorder = _Recorder()
    config = {"callbacks": [recorder], "tags": ["demo"], "metadata": {"user": "u1"}}
    ToolLoop(ScriptedChatModel(seed_script()), TOOLS, config=config).run(QUESTION)
    root = recorder.events[0]
    assert root[:2] == ("chain", "ToolLoop") and root[3] is None and root[4] == ["demo"]
    children = [e for e in recorder.events[1:] if e[0] in ("model", "tool")]
    assert [(e[0], e[1]) for e in children] == [
        ("model", None),
        ("tool", "get_weather"),
        ("tool", "get_weather"),
        ("model", None),
        ("tool", "add"),
        ("model", None),
    ]
    assert all(e[3] == root[2] and "demo" in e[4] for e in children)
    assert recorder.events[-1][:3] == ("end", "answered", root[2])


def test_arun_matches_run_and_asteps_yields_the_same_messages():
    sync = ToolLoop(ScriptedChatModel(seed_script()), TOOLS).run(QUESTION)

    async def both():
        loop = ToolLoop(ScriptedChatModel(seed_script()), TOOLS)
        streamed = [m async for m in loop.asteps(QUESTION)]
        again = ToolLoop(ScriptedChatModel(seed_script()), TOOLS)
        return streamed, await again.arun(QUESTION)

    streamed, result = asyncio.run(both())
    assert result.status is LoopStatus.ANSWERED and result.answer == sync.answer
    assert [m.content for m in streamed] == [m.content for m in sync.transcript]
    assert [m.content for m in result.transcript] == [m.content for m in sync.transcript]
    assert result.usage == sync.usage


def test_async_tools_run_concurrently_on_the_event_loop():
    log: list[tuple[float, float]] = []

    async def nap(label: str) -> str:
        start = time.monotonic()
        await asyncio.sleep(0.2)
        log.append((start, time.monotonic()))
        return label

    napper = StructuredTool.from_function(coroutine=nap, name="nap", description="Nap.")
    script = [ask(*(tc("nap", {"label": str(i)}, f"n{i}") for i in range(3))), "rested"]
    result = asyncio.run(ToolLoop(ScriptedChatModel(script), [napper]).arun("nap"))
    assert [m.content for m in result.transcript[2:5]] == ["0", "1", "2"]
    starts, ends = [s for s, _ in log], [e for _, e in log]
    assert max(starts) < min(ends)  # all three were sleeping at the same moment


def test_calls_without_ids_get_one_so_the_transcript_stays_valid():
    reply = AIMessage(
        content="", tool_calls=[{"name": "add", "args": {"x": 1, "y": 2}, "id": None}]
    )
    model = ScriptedChatModel([lambda messages: reply, "3"])
    result = ToolLoop(model, TOOLS).run("1+2")
    call_id = result.transcript[1].tool_calls[0]["id"]
    assert call_id.startswith("call_") and result.transcript[2].tool_call_id == call_id
    assert chat_protocol_problems(result.transcript) == []


def test_a_conversation_can_be_given_instead_of_a_question():
    model = ScriptedChatModel(["6 摄氏度"])
    history = [SystemMessage("Answer briefly."), HumanMessage("北京气温?")]
    result = ToolLoop(model, TOOLS).run(history)
    assert result.transcript[:2] == history and result.answer == "6 摄氏度"


def test_to_dict_gives_openai_messages_with_invalid_calls_and_their_answers():
    reply = AIMessage(
        content="",
        tool_calls=[tc("add", {"x": 1, "y": 2}, "v1")],
        invalid_tool_calls=[
            {"type": "invalid_tool_call", "name": "add", "args": "{", "id": "i1", "error": "bad"}
        ],
    )
    result = ToolLoop(ScriptedChatModel([reply, "3"]), TOOLS).run("1+2")
    data = result.to_dict()
    assert data["status"] == "answered" and data["answer"] == "3"
    assistant = data["messages"][1]
    assert [c["id"] for c in assistant["tool_calls"]] == ["v1", "i1"]
    assert assistant["tool_calls"][1]["function"] == {"name": "add", "arguments": "{"}
    assert [m["tool_call_id"] for m in data["messages"][2:4]] == ["v1", "i1"]
    assert to_openai_messages(result.transcript) == data["messages"]


@pytest.mark.parametrize(
    "options",
    [
        {"max_model_calls": 0},
        {"max_model_calls": 2.5},
        {"tool_timeout": -1},
        {"max_wall_time": 0},
        {"retry_budget": 0},
        {"max_result_chars": 0},
    ],
)
def test_invalid_settings_are_refused(options):
    with pytest.raises(ConfigError, match="is not valid"):
        ToolLoop(ScriptedChatModel([]), TOOLS, **options)


def test_duplicate_tool_names_and_empty_questions_are_refused():
    with pytest.raises(ConfigError, match="two tools are named 'add'"):
        ToolLoop(ScriptedChatModel([]), [add, add])
    with pytest.raises(ConfigError, match="the question is empty"):
        ToolLoop(ScriptedChatModel([]), TOOLS).run("  ")


def test_an_exhausted_script_is_a_clear_model_error():
    result = ToolLoop(ScriptedChatModel([ask(tc("add", {"x": 1, "y": 1}, "c"))]), TOOLS).run("q")
    assert result.status is LoopStatus.MODEL_ERROR
    assert "ScriptedChatModel has no reply left: this is call 2 but the script has 1" in (
        result.error
    )


def test_async_runs_pass_the_config_to_every_call_under_one_parent_run():
    recorder = _Recorder()
    config = {"callbacks": [recorder], "tags": ["async"]}
    loop = ToolLoop(ScriptedChatModel(seed_script()), TOOLS, config=config)
    asyncio.run(loop.arun(QUESTION))
    root = recorder.events[0]
    children = [e for e in recorder.events if e[0] in ("model", "tool")]
    assert len(children) == 6
    assert all(e[3] == root[2] and "async" in e[4] for e in children)


def test_the_loop_applies_tool_timeout_and_max_result_chars():
    release = threading.Event()
    slow = StructuredTool.from_function(
        lambda city: release.wait(10) and "late", name="slow", description="Slow."
    )
    shout = StructuredTool.from_function(lambda text: text * 50, name="shout", description="S.")
    script = [ask(tc("slow", {"city": "北京"}, "s"), tc("shout", {"text": "ab"}, "l")), "ok"]
    loop = ToolLoop(
        ScriptedChatModel(script), [slow, shout], tool_timeout=0.05, max_result_chars=10
    )
    try:
        result = loop.run("q")
    finally:
        release.set()
    timed_out, long = result.transcript[2], result.transcript[3]
    assert timed_out.status == "error" and "within 0.05 s (tool_timeout)" in timed_out.content
    assert long.content.startswith("ababababab\n[truncated: the result has 100 characters")
    assert result.answered


def test_a_model_without_tool_calling_is_refused_clearly():
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    with pytest.raises(ConfigError, match="FakeListChatModel does not support bind_tools"):
        ToolLoop(FakeListChatModel(responses=["hi"]), TOOLS)


def test_a_model_that_answers_too_late_gets_a_hint_naming_the_timeout_setting():
    late = Reply.json(completion("too late")).after(5)
    with ScriptedServer([late]) as endpoint:
        model = ChatOpenAI(
            model="m", api_key="k", base_url=endpoint.base_url, max_retries=0, timeout=0.2
        )
        result = ToolLoop(model, TOOLS).run(QUESTION)
    assert result.status is LoopStatus.MODEL_ERROR
    assert isinstance(result.exception, openai.APITimeoutError)
    assert result.hint.startswith("The model did not answer in time: raise TOOLKIT_TIMEOUT")
    assert [m.content for m in result.transcript] == [QUESTION]


@pytest.mark.parametrize("use_async", [False, True])
def test_a_conversation_ending_with_unanswered_calls_gets_them_answered_first(use_async):
    history = [
        HumanMessage(QUESTION),
        ask(tc("get_weather", {"city": "北京"}, "c1"), tc("get_weather", {"city": "西安"}, "c2")),
        ToolMessage("6 摄氏度", tool_call_id="c1", name="get_weather"),
    ]
    model = ScriptedChatModel(["11"])
    loop = ToolLoop(model, TOOLS)
    result = asyncio.run(loop.arun(history)) if use_async else loop.run(history)
    assert result.answer == "11"
    assert (result.transcript[3].tool_call_id, result.transcript[3].content) == ("c2", "5 摄氏度")
    assert chat_protocol_problems(model.calls[0].messages) == []
