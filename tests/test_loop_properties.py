"""Property: whatever the model does, every tool call is answered once, in order, in time.

Hypothesis draws random model behaviour (valid calls, wrongly typed, missing or unexpected
arguments, unknown names, raising tools, invalid JSON, non-object JSON, double-encoded arguments,
calls without ids, text answers) and random budgets, and runs the loop sync or async, parallel or
not. The scripted model refuses any prompt that is not a valid chat-completions conversation, so
a run that reached the end also proves the model never saw one. The same script run sync and
async gives the same transcript and result: both run one control flow.
"""

from __future__ import annotations

import asyncio

from fixtures.loop_tools import add, boom
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, ToolMessage

from toolkit.loop import LoopResult, LoopStatus, ToolLoop, to_openai_messages
from toolkit.testing import ScriptedChatModel, chat_protocol_problems

#: kind -> (tool name, is a failure, valid-call args or None for an invalid call's raw text)
KINDS: dict[str, tuple[str, bool, dict | None, str | None]] = {
    "valid": ("add", False, {"x": 1, "y": 2}, None),
    "no_id": ("add", False, {"x": 2, "y": 2}, None),
    "wrong_type": ("add", True, {"x": "abc", "y": 2}, None),
    "missing": ("add", True, {"x": 1}, None),
    "extra": ("add", True, {"x": 1, "y": 2, "z": 3}, None),
    "unknown": ("nope", True, {"x": 1}, None),
    "raises": ("boom", True, {"reason": "no"}, None),
    "invalid_json": ("add", True, None, '{"x": 1,'),
    "non_object": ("add", True, None, "[1, 2]"),
    "double_encoded": ("add", False, None, '"{\\"x\\": 1, \\"y\\": 2}"'),
}

turns = st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=4)
scripts = st.lists(turns, max_size=6)
#: A run: what the model does, the budgets, and whether calls of one reply run concurrently.
runs = {
    "script": scripts,
    "max_calls": st.integers(1, 8),
    "budget": st.integers(1, 4),
    "parallel": st.booleans(),
}


def _reply(turn_index: int, kinds: list[str]) -> AIMessage:
    valid, invalid = [], []
    for n, kind in enumerate(kinds):
        name, _, args, raw = KINDS[kind]
        call_id = None if kind == "no_id" else f"t{turn_index}_{n}"
        if raw is None:
            valid.append({"name": name, "args": args, "id": call_id, "type": "tool_call"})
        else:
            invalid.append(
                {
                    "type": "invalid_tool_call",
                    "name": name,
                    "args": raw,
                    "id": call_id,
                    "error": None,
                }
            )
    return AIMessage(content="", tool_calls=valid, invalid_tool_calls=invalid)


def _expected_status(script: list[list[str]], max_calls: int, budget: int) -> LoopStatus:
    failures: dict[str, int] = {}
    for index, kinds in enumerate(script[:max_calls]):
        ordered = [k for k in kinds if KINDS[k][3] is None] + [k for k in kinds if KINDS[k][3]]
        exceeded = False
        for kind in ordered:
            name, failed, _, _ = KINDS[kind]
            failures[name] = failures.get(name, 0) + 1 if failed else 0
            exceeded = exceeded or failures[name] > budget
        if exceeded:
            return LoopStatus.RETRY_BUDGET_EXHAUSTED
        if index + 1 == max_calls:
            return LoopStatus.STEP_BUDGET_EXHAUSTED
    return LoopStatus.ANSWERED


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**runs, use_async=st.booleans())
def test_every_call_is_answered_once_in_order_before_the_next_model_call(
    script, max_calls, budget, parallel, use_async
):
    replies = [_reply(i, kinds) for i, kinds in enumerate(script)] + ["final answer"]
    model = ScriptedChatModel(replies)
    loop = ToolLoop(
        model, [add, boom], max_model_calls=max_calls, retry_budget=budget, parallel=parallel
    )
    result = asyncio.run(loop.arun("go")) if use_async else loop.run("go")

    assert result.status is not LoopStatus.MODEL_ERROR, result.error
    assert result.status is _expected_status(script, max_calls, budget)
    transcript = result.transcript
    assert chat_protocol_problems(transcript) == []
    assert result.model_calls == len(model.calls) <= max_calls
    for position, message in enumerate(transcript):
        if not isinstance(message, AIMessage):
            continue
        calls = [*message.tool_calls, *message.invalid_tool_calls]
        if not calls:
            continue
        answers = transcript[position + 1 : position + 1 + len(calls)]
        assert all(isinstance(answer, ToolMessage) for answer in answers)
        assert [a.tool_call_id for a in answers] == [c["id"] for c in calls]
        kinds = script[_turn_of(transcript, position)]
        valid_first = [k for k in kinds if KINDS[k][3] is None] + [k for k in kinds if KINDS[k][3]]
        assert [a.status == "error" for a in answers] == [KINDS[k][1] for k in valid_first]
    if result.status is LoopStatus.ANSWERED:
        assert result.answer == "final answer"
        assert result.model_calls == len(script) + 1
    else:
        assert result.answer is None and result.hint
    # every model call after the first was sent the complete transcript up to that point
    for call in model.calls:
        assert chat_protocol_problems(call.messages) == []
        assert call.messages == transcript[: len(call.messages)]


def _turn_of(transcript: list, position: int) -> int:
    return sum(isinstance(m, AIMessage) for m in transcript[:position])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**runs)
def test_sync_and_async_runs_of_one_script_end_alike(script, max_calls, budget, parallel):
    def run(use_async: bool) -> tuple[LoopResult, ScriptedChatModel]:
        model = ScriptedChatModel([_reply(i, kinds) for i, kinds in enumerate(script)] + ["end"])
        loop = ToolLoop(
            model, [add, boom], max_model_calls=max_calls, retry_budget=budget, parallel=parallel
        )
        return (asyncio.run(loop.arun("go")) if use_async else loop.run("go")), model

    (sync, sync_model), (async_, async_model) = run(False), run(True)
    assert _comparable(sync) == _comparable(async_)
    assert [_ids_by_order(call.messages) for call in sync_model.calls] == [
        _ids_by_order(call.messages) for call in async_model.calls
    ]


def _comparable(result: LoopResult) -> tuple:
    """Everything a result says, with generated call ids replaced by their order of appearance."""
    return (
        result.status,
        result.answer,
        result.model_calls,
        result.tool_calls,
        result.usage,
        result.hint,
        result.error,
        _ids_by_order(result.transcript),
    )


def _ids_by_order(messages: list) -> list[dict]:
    ids: dict[str, str] = {}

    def number(call_id: str) -> str:
        return ids.setdefault(call_id, f"id{len(ids)}")

    converted = to_openai_messages(messages)
    for data in converted:
        for call in data.get("tool_calls", []):
            call["id"] = number(call["id"])
        if "tool_call_id" in data:
            data["tool_call_id"] = number(data["tool_call_id"])
    return converted
