"""LoopSettings: the defaults in one place, each setting checked once with a message that helps."""

from __future__ import annotations

import dataclasses

import pytest
from fixtures.loop_tools import add
from langchain_core.messages import AIMessage

from toolkit.errors import ConfigError
from toolkit.loop import LoopSettings, LoopStatus, ToolLoop, check_tool_choice
from toolkit.loop.settings import forces_a_call
from toolkit.testing import ScriptedChatModel


def test_the_defaults():
    assert LoopSettings() == LoopSettings(
        tool_choice=None,
        parallel_tool_calls=None,
        max_model_calls=10,
        tool_timeout=60.0,
        max_wall_time=600.0,
        max_result_chars=20_000,
        retry_budget=3,
        parallel=True,
    )


def test_settings_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        LoopSettings().max_model_calls = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"max_model_calls": 0}, "max_model_calls=0 is not valid; use a whole number, 1 or more."),
        ({"max_model_calls": 2.5}, "max_model_calls=2.5 is not valid; use a whole number"),
        ({"max_model_calls": True}, "max_model_calls=True is not valid"),
        ({"retry_budget": 0}, "retry_budget=0 is not valid; use a whole number, 1 or more."),
        (
            {"max_result_chars": 0},
            "max_result_chars=0 is not valid; use a whole number, 1 or more, or None for no limit.",
        ),
        (
            {"tool_timeout": -1},
            "tool_timeout=-1 is not valid; use a number of seconds above 0, or None for no limit.",
        ),
        ({"tool_timeout": float("nan")}, "tool_timeout=nan is not valid"),
        ({"max_wall_time": 0}, "max_wall_time=0 is not valid; use a number of seconds above 0"),
        ({"max_wall_time": float("inf")}, "max_wall_time=inf is not valid"),
        ({"max_wall_time": "10"}, "max_wall_time='10' is not valid"),
        ({"parallel": "yes"}, "parallel='yes' is not valid; use True or False."),
        (
            {"parallel_tool_calls": 1},
            "parallel_tool_calls=1 is not valid; use True, False or None (not sent).",
        ),
        ({"tool_choice": 42}, 'tool_choice=42 is not valid: tool_choice must be "auto", "none"'),
    ],
)
def test_an_invalid_setting_is_named_with_what_it_takes(changes, message):
    with pytest.raises(ConfigError) as caught:
        LoopSettings(**changes)
    assert str(caught.value).startswith(message)
    with pytest.raises(ConfigError, match="is not valid"):  # replace() checks the same way
        LoopSettings().replace(**changes)


def test_none_lifts_the_limits_that_can_be_lifted():
    settings = LoopSettings(tool_timeout=None, max_wall_time=None, max_result_chars=None)
    assert (settings.tool_timeout, settings.max_wall_time, settings.max_result_chars) == (
        None,
        None,
        None,
    )


def test_replace_changes_settings_and_refuses_unknown_names():
    settings = LoopSettings(max_model_calls=4)
    assert settings.replace(retry_budget=1) == LoopSettings(max_model_calls=4, retry_budget=1)
    assert settings.replace() is settings
    with pytest.raises(ConfigError) as caught:
        settings.replace(max_steps=3, timeout=1)
    assert str(caught.value) == (
        "not a setting of the tool loop: max_steps, timeout; use one of: tool_choice, "
        "parallel_tool_calls, max_model_calls, tool_timeout, max_wall_time, max_result_chars, "
        "retry_budget, parallel."
    )


def test_a_loop_takes_settings_and_options_over_them():
    base = LoopSettings(max_model_calls=2, tool_timeout=None)
    loop = ToolLoop(ScriptedChatModel([]), [add], settings=base, retry_budget=1)
    assert loop.settings == LoopSettings(max_model_calls=2, tool_timeout=None, retry_budget=1)
    assert ToolLoop(ScriptedChatModel([]), [add]).settings == LoopSettings()
    with pytest.raises(ConfigError, match="not a setting of the tool loop: max_steps"):
        ToolLoop(ScriptedChatModel([]), [add], max_steps=3)


def test_the_settings_bound_a_run():
    calls = [{"name": "add", "args": {"x": 1, "y": 1}, "id": f"c{i}"} for i in range(3)]
    replies = [AIMessage(content="", tool_calls=[call]) for call in calls]
    loop = ToolLoop(ScriptedChatModel(replies), [add], settings=LoopSettings(max_model_calls=2))
    result = loop.run("go")
    assert (result.model_calls, result.status) == (2, LoopStatus.STEP_BUDGET_EXHAUSTED)


@pytest.mark.parametrize(
    ("choice", "forces"),
    [
        (None, False),
        ("auto", False),
        ("none", False),
        ("required", True),
        ("any", True),
        (True, True),
        ("add", True),
        ({"type": "function", "function": {"name": "add"}}, True),
    ],
)
def test_which_tool_choices_force_a_call(choice, forces):
    assert forces_a_call(choice) is forces
    check_tool_choice(choice, {"add"})  # every one of them is valid with ``add`` bound


def test_a_tool_choice_of_no_known_form_is_refused_before_binding():
    with pytest.raises(ConfigError, match=r"tool_choice=\['add'\] is not valid"):
        check_tool_choice(["add"], {"add"})
    with pytest.raises(ConfigError, match="tool_choice=7 is not valid"):
        ToolLoop(ScriptedChatModel([]), [add], tool_choice=7)
