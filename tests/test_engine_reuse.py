"""The engine's reuse of work: a written opening, and the KV cache kept for text spelled anew."""

from __future__ import annotations

import pytest

from toolkit.errors import LocalModelError
from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import build_prompt
from toolkit.local.format.grammar import call_opening, calls_grammar
from toolkit.local.format.job import ChatJob, SamplingOptions
from toolkit.local.format.parser import parse_tool_calls
from toolkit.local.runtime.engine import Engine
from toolkit.local.runtime.respell import same_text
from toolkit.schema import tool_schema
from tools import add, get_weather

_SPELLING = {1: b"ab", 2: b"c", 3: b"a", 4: b"bc", 5: b"d", 6: b"\xff6\xff", 7: b"x"}
_QUESTION = "计算一下北京和西安的气温的总和"


def _spell(token: int) -> bytes:
    return _SPELLING[token]


def test_same_text_finds_the_longest_stretch_spelled_alike_ending_together() -> None:
    # "ab"+"c" and "a"+"bc" spell "abc" and end together after two tokens each; "d" follows.
    assert same_text([1, 2, 5, 7], [3, 4, 5, 5], _spell) == (3, 3)
    # The stretch must end at a boundary of both: "ab" | "c" against "a" | "bc" ends at 3.
    assert same_text([1, 2], [3, 4], _spell) == (2, 2)
    assert same_text([1, 7], [3, 4], _spell) == (0, 0)


def test_same_text_lets_a_control_token_match_only_itself() -> None:
    assert same_text([6, 5], [6, 5], _spell) == (2, 2)
    assert same_text([6, 5], [7, 5], _spell) == (0, 0)


def test_same_text_is_empty_when_nothing_matches() -> None:
    assert same_text([], [1], _spell) == (0, 0)
    assert same_text([5], [7], _spell) == (0, 0)


@pytest.fixture(scope="module")
def engine(local_server) -> Engine:
    return local_server.engine


def _seed_prompt(engine: Engine, tools: list[dict]) -> list[int]:
    job = ChatJob(messages=[{"role": "user", "content": _QUESTION}], tools=tools)
    return engine.tokenize(build_prompt(job, ToolPolicy(), engine.chat_template))


def _generate(engine: Engine, tokens: list[int], grammar: str, opening: str = ""):
    engine.reset()
    options = SamplingOptions(max_tokens=60, temperature=0)
    return engine.generate(tokens, options, grammar=grammar, opening=opening).consume()


def test_a_written_opening_gives_the_same_call_and_counts_as_output(engine: Engine) -> None:
    tools = [tool_schema(get_weather), tool_schema(add)]
    tokens = _seed_prompt(engine, tools)
    grammar = calls_grammar(tools, names=["get_weather"], max_calls=1)
    opening = call_opening(["get_weather"])
    with engine.lock:
        chosen = _generate(engine, tokens, grammar)
        written = _generate(engine, tokens, grammar, opening)
    assert written.text == chosen.text
    assert written.text.startswith('<tool_call>\n{"name": "get_weather", "arguments":')
    assert written.written == len(engine.tokenize(opening, bos=False)) > 5
    assert chosen.written == 0
    assert written.completion_tokens == len(written.tokens)


def test_an_opening_the_grammar_does_not_admit_is_refused(engine: Engine) -> None:
    tools = [tool_schema(get_weather), tool_schema(add)]
    tokens = _seed_prompt(engine, tools)
    grammar = calls_grammar(tools, names=["get_weather"], max_calls=1)
    with engine.lock, pytest.raises(LocalModelError, match="does not admit the opening"):
        _generate(engine, tokens, grammar, call_opening(["add"]))


def test_a_call_rendered_again_is_not_evaluated_again(engine: Engine) -> None:
    tools = [tool_schema(get_weather), tool_schema(add)]
    tokens = _seed_prompt(engine, tools)
    with engine.lock:
        call = _generate(engine, tokens, calls_grammar(tools, max_calls=1))
        calls = parse_tool_calls(call.text, ["get_weather", "add"], lenient=False).tool_calls
        messages = [
            {"role": "user", "content": _QUESTION},
            {"role": "assistant", "content": None, "tool_calls": calls},
            {"role": "tool", "tool_call_id": calls[0]["id"], "content": "6 摄氏度"},
        ]
        text = build_prompt(
            ChatJob(messages=messages, tools=tools), ToolPolicy(), engine.chat_template
        )
        following = engine.tokenize(text)
        evaluated = [*tokens, *call.tokens]
        # The rendering spells the model's call in other tokens ('"}}\n' for '"}}' '\n'), so
        # token for token the prompts part inside the call.
        pairs = zip(evaluated, following, strict=False)
        differs = next(i for i, (a, b) in enumerate(pairs) if a != b)
        assert len(tokens) <= differs < len(evaluated)
        before = engine.prompt_evaluated
        engine.next_token_logprobs(following)
        spent = engine.prompt_evaluated - before
    after_call = text[text.rindex("</tool_call>") + len("</tool_call>") :]
    assert spent == len(engine.tokenize(after_call, bos=False))


def test_the_same_prompt_again_reads_the_logits_it_was_first_read_with(engine: Engine) -> None:
    # Re-evaluating only a cached prompt's last token rounds its logits otherwise, and a near
    # tie then answers the same request differently the second time (streamed, say).
    tokens = _seed_prompt(engine, [tool_schema(get_weather), tool_schema(add)])
    with engine.lock:
        engine.reset()
        first = engine.next_token_logprobs(tokens)
        engine.generate(tokens, SamplingOptions(max_tokens=8, temperature=0)).consume()
        evaluated = engine.prompt_evaluated
        again = engine.next_token_logprobs(tokens)
    assert (again == first).all()
    assert engine.prompt_evaluated == evaluated  # nothing was evaluated for it
