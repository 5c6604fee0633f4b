"""Prompt-lookup decoding: the guesses, and that checking them in batches only saves time."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import build_prompt
from toolkit.local.format.grammar import calls_grammar
from toolkit.local.format.job import ChatJob, SamplingOptions
from toolkit.local.runtime.engine import Engine
from toolkit.local.runtime.lookup import draft
from toolkit.schema import tool_schema
from tools import add, get_weather

#: Largest difference between a cached and a fresh log-probability that rounding explains.
_ROUNDING = 0.5


def _ids(*tokens: int) -> np.ndarray:
    return np.asarray(tokens, dtype=np.intc)


def test_draft_continues_the_latest_earlier_occurrence() -> None:
    # "7 8" occurs twice before the end; the later occurrence is followed by 4 5.
    assert draft(_ids(7, 8, 1, 2, 7, 8, 4, 5, 9, 7, 8), length=2) == [4, 5]


def test_draft_prefers_the_longest_matching_suffix() -> None:
    # The last token 8 alone last occurred before 6, but "3 8" occurred before 1.
    context = _ids(3, 8, 1, 1, 0, 8, 6, 0, 3, 8)
    assert draft(context, max_ngram=2, length=1) == [1]
    assert draft(context, max_ngram=1, length=1) == [6]


def test_draft_is_empty_without_an_earlier_occurrence() -> None:
    assert draft(_ids(1, 2, 3, 4)) == []
    assert draft(_ids(5)) == []
    assert draft(_ids()) == []


def test_draft_respects_its_length_and_the_context_end() -> None:
    context = _ids(1, 2, 3, 4, 5, 6, 1, 2)
    assert draft(context, length=3) == [3, 4, 5]
    assert draft(context, length=50) == [3, 4, 5, 6, 1, 2]
    assert draft(_ids(4, 4), length=5) == [4]  # the match may overlap the suffix


@pytest.fixture(scope="module")
def engine(local_server) -> Engine:
    return local_server.engine


def _prompt(engine: Engine, question: str, tools: list[dict] | None) -> list[int]:
    job = ChatJob(messages=[{"role": "user", "content": question}], tools=tools)
    return engine.tokenize(build_prompt(job, ToolPolicy(), engine.chat_template))


def _generate(engine: Engine, tokens: list[int], lookup: int, grammar: str | None):
    kept = engine.lookup_tokens
    engine.lookup_tokens = lookup
    try:
        with engine.lock:
            engine.reset()
            return engine.generate(
                tokens, SamplingOptions(max_tokens=60, temperature=0), grammar=grammar
            ).consume()
    finally:
        engine.lookup_tokens = kept


def test_batched_guesses_give_the_same_call_with_fewer_evaluations(engine: Engine) -> None:
    tools = [tool_schema(get_weather), tool_schema(add)]
    tokens = _prompt(engine, "计算一下北京和西安的气温的总和", tools)
    grammar = calls_grammar(tools, max_calls=1)
    alone = _generate(engine, tokens, 0, grammar)
    batched = _generate(engine, tokens, 3, grammar)
    assert batched.text == alone.text
    assert '"name": "get_weather"' in batched.text
    assert alone.evaluations is None
    assert batched.evaluations is not None
    assert batched.evaluations < 0.8 * batched.completion_tokens


def test_text_that_repeats_the_prompt_needs_far_fewer_evaluations(engine: Engine) -> None:
    # Batched logits may differ from single-token ones in the last bits, so long free text is
    # not compared token for token; the copy itself must come out, in fewer evaluations.
    sentence = "the quick brown fox jumps over the lazy dog"
    tokens = _prompt(engine, f"Repeat exactly, in lower case: {sentence}", None)
    batched = _generate(engine, tokens, 3, None)
    assert sentence in batched.text.lower()
    assert batched.evaluations is not None
    assert batched.evaluations < 0.7 * batched.completion_tokens


def test_the_context_after_a_batched_generation_holds_only_accepted_tokens(
    engine: Engine,
) -> None:
    tools = [tool_schema(get_weather)]
    tokens = _prompt(engine, "What's the weather in Beijing?", tools)
    first = _generate(engine, tokens, 3, calls_grammar(tools, max_calls=1))
    with engine.lock:
        # The same prompt again reuses the cache; continuing after the call must equal a
        # continuation computed from scratch.
        cached = engine.next_token_logprobs(tokens + first.tokens)
        engine.reset()
        fresh = engine.next_token_logprobs(tokens + first.tokens)
    # Equal up to the rounding of batched versus incremental evaluation, which differs between
    # CPUs (a stale guess left in the cache would shift every position after it, and the
    # logits with it, by far more than this bound).
    assert float(np.abs(cached - fresh).max()) < _ROUNDING
    assert int(np.argmax(cached)) == int(np.argmax(fresh))
    # Among the most likely tokens, the order may swap only where two are within rounding.
    top = np.argsort(fresh)[-10:]
    for a in top:
        for b in top:
            if fresh[a] - fresh[b] > 2 * _ROUNDING:
                assert cached[a] > cached[b]
