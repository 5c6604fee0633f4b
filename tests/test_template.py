"""Rendering messages + tools with the model's own chat template (seed listings 7.14 / 7.15)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import llama_cpp
import pytest
from rich.console import Console

from toolkit.config import Settings
from toolkit.errors import PromptError
from toolkit.local.format.parser import parse_tool_calls
from toolkit.local.format.template import QWEN25_TEMPLATE, render_prompt
from toolkit.local.runtime.weights import resolve_model_path

#: The get_weather tool of the seed's listing 7.3.
GET_WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "获取某个城市当前的天气情况",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "城市名称"},
                "unit": {
                    "type": "string",
                    "enum": ["celsius", "fahrenheit"],
                    "description": "温度单位",
                },
            },
            "required": ["city"],
        },
    },
}

#: Listing 7.14's prompt, with the whitespace the template really renders.
LISTING_7_14 = (
    "<|im_start|>system\n"
    "You are a helpful assistant\n"
    "\n"
    "# Tools\n"
    "\n"
    "You may call one or more functions to assist with the user query.\n"
    "\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n"
    "<tools>\n"
    '{"type": "function", "function": {"name": "get_weather", "description": "获取某个城市当前的'
    '天气情况", "parameters": {"type": "object", "properties": {"city": {"type": "string", '
    '"description": "城市名称"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], '
    '"description": "温度单位"}}, "required": ["city"]}}}\n'
    "</tools>\n"
    "\n"
    "For each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n"
    "<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n'
    "</tool_call><|im_end|>\n"
    "<|im_start|>user\n"
    "查询西安的天气<|im_end|>\n"
    "<|im_start|>assistant\n"
)

#: Listing 7.15: two consecutive tool results merged into one user turn.
LISTING_7_15 = (
    "<|im_start|>user\n"
    "<tool_response>\n"
    "6 摄氏度\n"
    "</tool_response>\n"
    "<tool_response>\n"
    "5 摄氏度\n"
    "</tool_response><|im_end|>\n"
)

SEED_MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant"},
    {"role": "user", "content": "查询西安的天气"},
]


def _call(call_id: str, name: str, arguments: str) -> dict:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


PARALLEL_TURN = [
    {"role": "user", "content": "计算一下北京和西安的气温的总和"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            _call("call_1", "get_weather", '{"city": "北京"}'),
            _call("call_2", "get_weather", '{"city": "西安"}'),
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "6 摄氏度"},
    {"role": "tool", "tool_call_id": "call_2", "content": "5 摄氏度"},
]


@pytest.fixture(scope="module")
def gguf_template() -> str:
    """The chat template stored in the shipped GGUF's metadata."""
    cache = os.environ.get("TOOLKIT_CACHE_DIR")
    settings = Settings(cache_dir=Path(cache)) if cache else Settings()
    path = resolve_model_path(settings, console=Console(file=io.StringIO()))
    model = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)
    return model.metadata["tokenizer.chat_template"]


def test_default_template_is_the_one_the_gguf_carries(gguf_template):
    assert QWEN25_TEMPLATE == gguf_template


def test_listing_7_14_prompt_is_reproduced_exactly(gguf_template):
    prompt = render_prompt(SEED_MESSAGES, [GET_WEATHER])
    assert prompt == LISTING_7_14
    assert render_prompt(SEED_MESSAGES, [GET_WEATHER], template=gguf_template) == LISTING_7_14


def test_listing_7_15_consecutive_tool_results_are_merged(gguf_template):
    prompt = render_prompt(PARALLEL_TURN, [GET_WEATHER], template=gguf_template)
    assert prompt.endswith(
        "<|im_start|>assistant\n"
        "<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "北京"}}\n'
        "</tool_call>\n"
        "<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "西安"}}\n'
        "</tool_call><|im_end|>\n" + LISTING_7_15 + "<|im_start|>assistant\n"
    )
    assert "call_1" not in prompt


def test_tool_results_separated_by_a_user_turn_are_not_merged():
    messages = [*PARALLEL_TURN[:3], {"role": "user", "content": "go on"}, PARALLEL_TURN[3]]
    prompt = render_prompt(messages)
    assert prompt.count("<|im_start|>user\n<tool_response>") == 2


def test_without_tools_there_is_no_tools_section_and_a_default_system_turn():
    prompt = render_prompt([{"role": "user", "content": "Hello"}])
    assert prompt == (
        "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful "
        "assistant.<|im_end|>\n<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n"
    )
    assert "# Tools" not in render_prompt(SEED_MESSAGES, tools=[])


def test_add_generation_prompt_false_ends_after_the_last_message():
    prompt = render_prompt(SEED_MESSAGES, add_generation_prompt=False)
    assert prompt.endswith("查询西安的天气<|im_end|>\n")


def test_openai_client_shapes_are_accepted():
    messages = [
        {"role": "developer", "content": "Be brief."},
        {"role": "user", "name": "ann", "content": [{"type": "text", "text": "a"}, "b"]},
        {"role": "assistant", "content": None},
        {"role": "user", "content": "again"},
    ]
    prompt = render_prompt(messages)
    assert prompt.startswith("<|im_start|>system\nBe brief.<|im_end|>\n")
    assert "<|im_start|>user\nab<|im_end|>\n<|im_start|>assistant\n<|im_end|>\n" in prompt


def test_assistant_text_before_calls_is_kept():
    messages = [
        {"role": "user", "content": "q"},
        {
            "role": "assistant",
            "content": "Let me look.",
            "tool_calls": [_call("c", "get_weather", '{"city": "北京"}')],
        },
    ]
    prompt = render_prompt(messages, add_generation_prompt=False)
    assert prompt.endswith(
        '<|im_start|>assistant\nLet me look.\n<tool_call>\n{"name": "get_weather", '
        '"arguments": {"city": "北京"}}\n</tool_call><|im_end|>\n'
    )


def test_arguments_that_are_not_json_are_rendered_as_a_json_string():
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "", "tool_calls": [_call("c", "f", "{oops")]},
    ]
    assert '"arguments": "{oops"}' in render_prompt(messages)


def test_parsed_calls_render_back_to_the_text_the_model_wrote():
    text = (
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "北京"}}\n</tool_call>\n'
        '<tool_call>\n{"name": "add", "arguments": {"a": 6, "b": 5}}\n</tool_call>'
    )
    parsed = parse_tool_calls(text)
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": parsed.content, "tool_calls": parsed.tool_calls},
    ]
    assert render_prompt(messages, add_generation_prompt=False).endswith(
        f"<|im_start|>assistant\n{text}<|im_end|>\n"
    )


def test_tojson_keeps_non_ascii_and_html_characters():
    tool = {"type": "function", "function": {"name": "t", "description": "<b>&'北京'</b>"}}
    assert json.dumps(tool, ensure_ascii=False) in render_prompt(SEED_MESSAGES, [tool])


def test_a_bare_function_definition_is_wrapped_as_a_tool():
    bare = GET_WEATHER["function"]
    assert render_prompt(SEED_MESSAGES, [bare]) == LISTING_7_14


@pytest.mark.parametrize(
    ("messages", "tools", "fragment"),
    [
        ([], None, "messages is empty"),
        ("hello", None, "messages must be a list"),
        ([{"role": "robot", "content": "x"}], None, "messages[0].role"),
        (["hello"], None, "messages[0] must be an object"),
        ([{"role": "user", "content": 3}], None, "messages[0].content"),
        (
            [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}],
            None,
            "text only",
        ),
        (
            [{"role": "assistant", "content": None, "tool_calls": [{"function": {}}]}],
            None,
            "messages[0].tool_calls[0]",
        ),
        (
            [{"role": "user", "content": "x", "tool_calls": [_call("c", "f", "{}")]}],
            None,
            "only assistant",
        ),
        (SEED_MESSAGES, [{"type": "function", "function": {"description": "x"}}], "tools[0]"),
        (SEED_MESSAGES, "get_weather", "tools must be a list"),
    ],
)
def test_malformed_requests_raise_a_prompt_error_naming_the_field(messages, tools, fragment):
    with pytest.raises(PromptError) as caught:
        render_prompt(messages, tools)
    assert fragment in str(caught.value)


def test_a_template_can_refuse_with_raise_exception():
    template = "{{ raise_exception('only user messages') }}"
    with pytest.raises(PromptError, match="only user messages"):
        render_prompt(SEED_MESSAGES, template=template)


def test_a_template_that_does_not_compile_raises_a_prompt_error():
    with pytest.raises(PromptError, match="does not compile"):
        render_prompt(SEED_MESSAGES, template="{% for %}")


def test_the_template_runs_sandboxed():
    template = "{{ messages.__class__.__mro__ }}"
    with pytest.raises(PromptError):
        render_prompt(SEED_MESSAGES, template=template)


def test_extra_context_reaches_the_template():
    out = render_prompt(
        SEED_MESSAGES, template="{{ bos_token }}x", extra_context={"bos_token": "<s>"}
    )
    assert out == "<s>x"
