"""Rich rendering of messages, transcripts and loop results: informative, plain when piped."""

from __future__ import annotations

import io

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from rich.console import Console

from toolkit.loop import LoopResult, LoopStatus, TokenUsage
from toolkit.render import render_loop_result, render_message, render_transcript

REPLY = AIMessage(
    content="Let me check.",
    tool_calls=[
        {"name": "get_weather", "args": {"city": "北京"}, "id": "call_bj"},
        {"name": "get_weather", "args": {"city": "西安", "unit": "celsius"}, "id": "call_xa"},
    ],
    invalid_tool_calls=[
        {
            "type": "invalid_tool_call",
            "name": "add",
            "args": '{"x": 6,',
            "id": "call_bad",
            "error": "Expecting value",
        }
    ],
    usage_metadata={"input_tokens": 161, "output_tokens": 34, "total_tokens": 195},
)
FAILED = ToolMessage(
    content="Error: Unknown tool 'nope'.", tool_call_id="call_x", name="nope", status="error"
)
PASSED = ToolMessage(content="6 摄氏度", tool_call_id="call_bj", name="get_weather")


def _text(renderable, *, terminal: bool = False, width: int = 120) -> str:
    out = io.StringIO()
    if terminal:
        console = Console(file=out, width=width, force_terminal=True, color_system="truecolor")
    else:
        console = Console(file=out, width=width)  # a file: Console decides it is no terminal
    console.print(renderable)
    return out.getvalue()


def _styles(renderable) -> dict[str, set[str]]:
    """Map each piece of visible text to the styles it is drawn with."""
    console = Console(width=120, color_system="truecolor", force_terminal=True)
    found: dict[str, set[str]] = {}
    for segment in console.render(renderable):
        if segment.text.strip():
            found.setdefault(segment.text.strip(), set()).add(str(segment.style))
    return found


def test_an_ai_message_shows_every_call_with_name_id_and_arguments():
    text = _text(render_message(REPLY))
    assert "AI" in text and "Let me check." in text
    for needle in ("get_weather", "call_bj", '{"city": "北京"}', "call_xa", '"unit": "celsius"'):
        assert needle in text
    assert "add (invalid)" in text and '{"x": 6,' in text and "Expecting value" in text
    assert "161 in · 34 out tokens" in text


def test_it_shows_at_least_what_pretty_print_shows():
    shown = _text(render_message(REPLY))
    for call in REPLY.tool_calls:
        assert call["name"] in shown and call["id"] in shown
        for key, value in call["args"].items():
            assert key in shown and value in shown
    tool_text = _text(render_message(PASSED))
    assert "get_weather" in tool_text and "6 摄氏度" in tool_text


def test_tool_results_show_tool_call_and_status():
    assert "Tool · get_weather · call_bj" in _text(render_message(PASSED))
    assert "success" in _text(render_message(PASSED))
    failed = _text(render_message(FAILED))
    assert "Tool · nope · call_x" in failed and "error" in failed
    assert "Unknown tool 'nope'" in failed


def test_errors_are_drawn_in_red_and_successes_are_not():
    failed_styles = _styles(render_message(FAILED))
    assert any("red" in style for style in failed_styles["Error: Unknown tool 'nope'."])
    passed_styles = _styles(render_message(PASSED))
    assert not any("red" in style for styles in passed_styles.values() for style in styles)
    invalid_styles = _styles(render_message(REPLY))
    assert any("red" in style for style in invalid_styles['{"x": 6,'])


def test_output_is_plain_when_not_a_terminal_and_coloured_on_one():
    piped = _text(render_message(FAILED), terminal=False)
    assert "\x1b[" not in piped and "Unknown tool" in piped
    assert "\x1b[" in _text(render_message(FAILED), terminal=True)


def test_a_transcript_is_one_panel_per_message_in_order():
    out = io.StringIO()
    messages = [SystemMessage("Be brief."), HumanMessage("北京气温?"), REPLY, PASSED, FAILED]
    render_transcript(messages, Console(file=out, width=120))
    text = out.getvalue()
    titles = ["System", "Human", "AI", "Tool · get_weather", "Tool · nope"]
    positions = [text.index(f"╭─ {title}") for title in titles]
    assert positions == sorted(positions)
    assert text.count("╭─") == len(messages)


def test_an_empty_message_says_so():
    assert "(empty)" in _text(render_message(AIMessage(content="")))


def _result(status: LoopStatus, **changes) -> LoopResult:
    values = {
        "transcript": [],
        "status": status,
        "answer": None,
        "model_calls": 3,
        "tool_calls": 4,
        "usage": TokenUsage(221, 30, 251),
        "elapsed": 1.234,
    }
    return LoopResult(**{**values, **changes})


def test_the_result_summary_shows_status_answer_calls_tokens_and_time():
    out = io.StringIO()
    render_loop_result(_result(LoopStatus.ANSWERED, answer="11 摄氏度"), Console(file=out))
    text = out.getvalue()
    for needle in ("answered", "11 摄氏度", "model calls  3", "tool calls   4", "221 in · 30 out"):
        assert needle in text
    assert "1.23 s" in text and "hint" not in text


def test_the_result_summary_of_a_budget_names_the_setting_to_raise():
    hint = "raise max_model_calls (CLI: --max-steps)."
    out = io.StringIO()
    render_loop_result(_result(LoopStatus.STEP_BUDGET_EXHAUSTED, hint=hint), Console(file=out))
    text = out.getvalue()
    assert "step_budget_exhausted" in text and hint in text


def test_the_result_summary_of_a_model_error_shows_the_error_in_red():
    result = _result(LoopStatus.MODEL_ERROR, error="the model call failed: boom")
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=True, color_system="standard")
    render_loop_result(result, console)
    assert "\x1b[31mthe model call failed: boom" in out.getvalue()  # SGR 31: red
