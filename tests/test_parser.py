"""The tool-call parser: model text -> (content, OpenAI tool_calls), one-shot and streamed."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.local.format.events import ContentDelta, ToolCallEvent
from toolkit.local.format.parser import ParsedOutput, ToolCallStream, parse_tool_calls
from toolkit.wire import new_call_id

ID = re.compile(r"call_[0-9a-f]{24}")


def _block(name: str, args: object) -> str:
    body = json.dumps({"name": name, "arguments": args}, ensure_ascii=False)
    return f"<tool_call>\n{body}\n</tool_call>"


def _calls(parsed: ParsedOutput) -> list[tuple[str, object]]:
    """(name, decoded arguments) of each call, checking the OpenAI shape on the way."""
    out = []
    for call in parsed.tool_calls:
        assert ID.fullmatch(call["id"])
        assert call["type"] == "function"
        assert isinstance(call["function"]["arguments"], str)
        out.append((call["function"]["name"], json.loads(call["function"]["arguments"])))
    return out


def _stream(text: str, cuts: list[int], **kwargs) -> tuple[str | None, list[dict]]:
    stream = ToolCallStream(**kwargs)
    events = []
    points = [0, *sorted(set(cuts)), len(text)]
    for start, end in itertools.pairwise(points):
        events += stream.feed(text[start:end])
    events += stream.finish()
    content = "".join(e.text for e in events if isinstance(e, ContentDelta))
    calls = [e.call for e in events if isinstance(e, ToolCallEvent)]
    assert [e.index for e in events if isinstance(e, ToolCallEvent)] == list(range(len(calls)))
    assert stream.tool_calls == calls
    return content or None, calls


def _strip_ids(calls: list[dict]) -> list[dict]:
    return [{k: v for k, v in c.items() if k != "id"} for c in calls]


def test_new_call_id_is_openai_shaped_and_fresh():
    ids = {new_call_id() for _ in range(100)}
    assert len(ids) == 100
    assert all(ID.fullmatch(i) for i in ids)


def test_plain_text_is_content_without_calls():
    parsed = parse_tool_calls("Hello! I am Qwen, how can I help?")
    assert parsed == ParsedOutput(content="Hello! I am Qwen, how can I help?", tool_calls=[])


def test_empty_and_blank_text_have_no_content():
    assert parse_tool_calls("") == ParsedOutput(content=None, tool_calls=[])
    assert parse_tool_calls(" \n\t") == ParsedOutput(content=None, tool_calls=[])


def test_one_call_in_the_template_format():
    parsed = parse_tool_calls(_block("get_weather", {"city": "西安", "unit": "celsius"}))
    assert parsed.content is None
    assert _calls(parsed) == [("get_weather", {"city": "西安", "unit": "celsius"})]


def test_unicode_arguments_stay_readable_in_the_json_text():
    parsed = parse_tool_calls(_block("get_weather", {"city": "北京"}))
    assert parsed.tool_calls[0]["function"]["arguments"] == '{"city": "北京"}'


def test_parallel_calls_keep_their_order_and_get_distinct_ids():
    text = "\n".join(
        [_block("get_weather", {"city": "北京"}), _block("get_weather", {"city": "西安"})]
    )
    parsed = parse_tool_calls(text)
    assert _calls(parsed) == [("get_weather", {"city": "北京"}), ("get_weather", {"city": "西安"})]
    assert parsed.tool_calls[0]["id"] != parsed.tool_calls[1]["id"]
    assert parsed.content is None


def test_typed_arguments_keep_their_json_types():
    args = {"a": 17, "b": 2.5, "flag": True, "none": None, "items": [1, "x"], "obj": {"k": "v"}}
    assert _calls(parse_tool_calls(_block("f", args))) == [("f", args)]


def test_empty_and_missing_arguments_become_an_empty_object():
    assert _calls(parse_tool_calls(_block("now", {}))) == [("now", {})]
    text = '<tool_call>\n{"name": "now"}\n</tool_call>'
    assert _calls(parse_tool_calls(text)) == [("now", {})]


def test_escapes_in_arguments_round_trip():
    args = {"text": 'He said "hi"\\ \n\ttab', "path": "C:\\tmp\\x", "u": "\u00e9\u2603"}
    assert _calls(parse_tool_calls(_block("echo", args))) == [("echo", args)]


def test_arguments_given_as_a_json_string_are_decoded():
    text = '<tool_call>\n{"name": "add", "arguments": "{\\"a\\": 1, \\"b\\": 2}"}\n</tool_call>'
    parsed = parse_tool_calls(text)
    assert parsed.tool_calls[0]["function"]["arguments"] == '{"a": 1, "b": 2}'


def test_arguments_string_that_is_not_json_is_kept_verbatim():
    text = '<tool_call>\n{"name": "add", "arguments": "a=1"}\n</tool_call>'
    assert parse_tool_calls(text).tool_calls[0]["function"]["arguments"] == "a=1"


def test_parameters_is_read_like_arguments():
    text = '<tool_call>\n{"name": "add", "parameters": {"a": 1}}\n</tool_call>'
    assert _calls(parse_tool_calls(text)) == [("add", {"a": 1})]


def test_text_before_between_and_after_calls_is_content():
    text = (
        "Let me check.\n"
        + _block("get_weather", {"city": "北京"})
        + "\nand\n"
        + _block("get_weather", {"city": "西安"})
        + "\nDone."
    )
    parsed = parse_tool_calls(text)
    assert parsed.content == "Let me check.\n\nand\n\nDone."
    assert [name for name, _ in _calls(parsed)] == ["get_weather", "get_weather"]


def test_fenced_json_call_is_read():
    text = 'Sure:\n```json\n{\n  "name": "add",\n  "arguments": {"a": 17, "b": 25}\n}\n```'
    parsed = parse_tool_calls(text)
    assert parsed.content == "Sure:"
    assert _calls(parsed) == [("add", {"a": 17, "b": 25})]


def test_fenced_list_of_calls_is_read_as_parallel_calls():
    body = json.dumps([{"name": "a", "arguments": {}}, {"name": "b", "parameters": {"x": 1}}])
    parsed = parse_tool_calls(f"```\n{body}\n```")
    assert _calls(parsed) == [("a", {}), ("b", {"x": 1})]


def test_fenced_code_that_is_not_a_call_stays_content():
    text = "Example:\n```python\nprint({'a': 1})\n```"
    assert parse_tool_calls(text) == ParsedOutput(content=text, tool_calls=[])


def test_bare_json_call_and_list_are_read():
    assert _calls(parse_tool_calls('{"name": "add", "arguments": {"a": 1, "b": 2}}')) == [
        ("add", {"a": 1, "b": 2})
    ]
    text = 'Calls: [{"name": "a", "arguments": {}}, {"name": "b", "arguments": "{}"}] ok'
    parsed = parse_tool_calls(text)
    assert parsed.content == "Calls:  ok"
    assert _calls(parsed) == [("a", {}), ("b", {})]


def test_bare_json_that_is_not_a_call_stays_content():
    text = 'The result is {"temperature": 6, "unit": "celsius"} and [1, 2].'
    assert parse_tool_calls(text) == ParsedOutput(content=text, tool_calls=[])


def test_tool_names_filter_fenced_and_bare_json_but_not_tagged_blocks():
    bare = '{"name": "Bob", "arguments": {"age": 3}}'
    fenced = f"```json\n{bare}\n```"
    assert parse_tool_calls(bare, tool_names=["add"]).tool_calls == []
    assert parse_tool_calls(bare, tool_names=["add"]).content == bare
    assert parse_tool_calls(fenced, tool_names=["add"]).content == fenced
    assert [n for n, _ in _calls(parse_tool_calls(bare, tool_names=["Bob"]))] == ["Bob"]
    # A tagged block is a call whatever its name: the loop reports the unknown name back.
    assert [n for n, _ in _calls(parse_tool_calls(_block("nope", {}), tool_names=["add"]))] == [
        "nope"
    ]


def test_strict_mode_reads_only_tagged_blocks():
    text = '```json\n{"name": "add", "arguments": {}}\n```\n' + _block("add", {"a": 1})
    parsed = parse_tool_calls(text, lenient=False)
    assert parsed.content == '```json\n{"name": "add", "arguments": {}}\n```'
    assert _calls(parsed) == [("add", {"a": 1})]


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "北',
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "北京"}\n</tool_call>',
        "<tool_call>\nnot json at all\n</tool_call>",
        '<tool_call>\n{"arguments": {"a": 1}}\n</tool_call>',
        '<tool_call>\n{"name": 3, "arguments": {}}\n</tool_call>',
        "<tool_call>",
        "<tool_",
        "```json\n{",
        '{"name": "add", "arguments": {"a": 1',
        "[[[[[[[[",
        '{"a": NaN}',
        "} ] ``` <tool_call",
    ],
)
def test_malformed_or_truncated_output_degrades_to_content(text):
    assert parse_tool_calls(text) == ParsedOutput(content=text.strip(), tool_calls=[])


def test_a_complete_call_followed_by_debris_keeps_the_call():
    parsed = parse_tool_calls('{"name": "add", "arguments": {}} trailing } ] ``` <tool_call')
    assert parsed.content == "trailing } ] ``` <tool_call"
    assert _calls(parsed) == [("add", {})]


def test_malformed_block_is_kept_verbatim_and_good_blocks_still_count():
    bad = "<tool_call>\n{oops}\n</tool_call>"
    parsed = parse_tool_calls(bad + "\n" + _block("add", {"a": 1}))
    assert parsed.content == bad
    assert _calls(parsed) == [("add", {"a": 1})]


def test_a_closing_tag_or_fence_inside_a_json_string_does_not_end_the_block():
    parsed = parse_tool_calls(_block("echo", {"text": "</tool_call> and ```"}))
    assert parsed.content is None
    assert _calls(parsed) == [("echo", {"text": "</tool_call> and ```"})]
    fenced = '```json\n{"name": "echo", "arguments": {"text": "``` x"}}\n```'
    assert _calls(parse_tool_calls(fenced)) == [("echo", {"text": "``` x"})]


def test_unclosed_last_block_counts_when_its_json_is_complete():
    parsed = parse_tool_calls('<tool_call>\n{"name": "add", "arguments": {"a": 1}}\n</tool_c')
    assert parsed.content is None
    assert _calls(parsed) == [("add", {"a": 1})]


def test_deep_nesting_does_not_raise():
    text = "[" * 5000 + "]" * 5000
    assert parse_tool_calls(text).content == text


# ---- streaming ---------------------------------------------------------------------------

_SAMPLES = [
    "Hello, who are you? I am Qwen.",
    _block("get_weather", {"city": "北京"}),
    "Checking.\n" + _block("get_weather", {"city": "北京"}) + "\n" + _block("add", {"a": 6}),
    'Sure:\n```json\n{"name": "add", "arguments": {"a": 17, "b": 25}}\n```\nDone.',
    '  [{"name": "a", "arguments": {}}] text {"x": 1} <b>bold</b> `code` ``` ',
    '<tool_call>\n{"name": "get_weather", "arguments": {"city": "北',
    _block("echo", {"text": "</tool_call>"}) + " after",
]


@pytest.mark.parametrize("text", _SAMPLES)
def test_stream_one_character_at_a_time_equals_one_shot(text):
    content, calls = _stream(text, list(range(len(text))))
    expected = parse_tool_calls(text)
    assert content == expected.content
    assert _strip_ids(calls) == _strip_ids(expected.tool_calls)


def test_stream_releases_content_before_the_end_and_holds_a_possible_tag():
    stream = ToolCallStream()
    first = stream.feed("The answer is 42. <tool")
    assert first == [ContentDelta("The answer is 42.")]
    assert stream.feed("_call>\n") == []
    events = stream.feed('{"name": "add", "arguments": {}}\n</tool_call>')
    assert len(events) == 1 and isinstance(events[0], ToolCallEvent)
    assert events[0].call["function"] == {"name": "add", "arguments": "{}"}
    assert stream.finish() == []
    assert stream.content == "The answer is 42."


def test_stream_releases_braces_as_soon_as_they_cannot_start_a_call():
    def text(events):
        assert all(isinstance(e, ContentDelta) for e in events)
        return "".join(e.text for e in events)

    stream = ToolCallStream()
    assert text(stream.feed("Use {braces} and ")) == "Use {braces} and"
    assert stream.feed('{"temp": 6') == []
    assert text(stream.feed("} ok")) == ' {"temp": 6} ok'


def test_stream_holds_trailing_whitespace_until_more_text():
    stream = ToolCallStream()
    assert stream.feed("  Hi ") == [ContentDelta("Hi")]
    assert stream.feed(" there\n") == [ContentDelta("  there")]
    assert stream.finish() == []


def test_stream_after_finish_ignores_more_text():
    stream = ToolCallStream()
    assert stream.feed("a {") == [ContentDelta("a")]
    assert stream.finish() == [ContentDelta(" {")]
    assert stream.feed("b") == [] and stream.finish() == []
    assert stream.content == "a {"


_PIECES = st.sampled_from(
    [
        "<tool_call>",
        "</tool_call>",
        "<tool_",
        "```",
        "```json\n",
        "{",
        "}",
        "[",
        "]",
        '"',
        ":",
        ",",
        " ",
        "\n",
        "\\",
        "<",
        "`",
        '"name"',
        '"arguments"',
        '"parameters"',
        '"add"',
        '"get_weather"',
        "{}",
        "1",
        "null",
        "北京",
        "hello",
        _block("add", {"a": 1}),
        _block("get_weather", {"city": "西安"}),
        '{"name": "add", "arguments": {"a": 2}}',
        '[{"name": "add", "arguments": {}}]',
        '"</tool_call>"',
        _block("echo", {"text": "</tool_call>```"}),
    ]
)
_TEXTS = st.one_of(st.lists(_PIECES, max_size=14).map("".join), st.text(max_size=60))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=_TEXTS,
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=12),
    names=st.sampled_from([None, ["add"], ["get_weather", "add"]]),
    lenient=st.booleans(),
)
def test_stream_equals_one_shot_for_every_split(text, cuts, names, lenient):
    expected = parse_tool_calls(text, tool_names=names, lenient=lenient)
    content, calls = _stream(
        text, [c for c in cuts if c <= len(text)], tool_names=names, lenient=lenient
    )
    assert content == expected.content
    assert _strip_ids(calls) == _strip_ids(expected.tool_calls)


@settings(max_examples=400, deadline=None)
@given(text=_TEXTS, names=st.sampled_from([None, ["add"]]))
def test_parse_never_raises_and_returns_well_formed_output(text, names):
    parsed = parse_tool_calls(text, tool_names=names)
    assert parsed.content is None or (parsed.content and parsed.content == parsed.content.strip())
    for call in parsed.tool_calls:
        assert ID.fullmatch(call["id"]) and isinstance(call["function"]["name"], str)
        assert isinstance(call["function"]["arguments"], str)


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    value=st.dictionaries(st.text(max_size=5), _JSON, max_size=4),
    indent=st.sampled_from([None, 2]),
    cut=st.integers(min_value=1, max_value=10_000),
)
def test_a_truncated_json_call_is_never_released_early(value, indent, cut):
    """Streaming must wait while a bare JSON value may still become a call."""
    text = json.dumps({"name": "f", "arguments": value}, indent=indent, ensure_ascii=False)
    cut = min(cut, len(text) - 1)
    stream = ToolCallStream()
    assert stream.feed(text[:cut]) == []
    events = stream.feed(text[cut:])
    assert [e.call["function"]["name"] for e in events] == ["f"]
