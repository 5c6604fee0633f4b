"""The prefix cache: a known system turn is restored from memory or disk, not evaluated again."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.local.decision.policy import ToolPolicy
from toolkit.local.decision.prompt import build_prompt
from toolkit.local.format.job import ChatJob
from toolkit.local.runtime.engine import Engine
from toolkit.schema import tool_schema
from tools import SEED_TOOLS, get_price


@pytest.fixture(scope="module")
def model_path(local_server):
    return local_server.engine.model_path


def _tokens(engine: Engine, question: str, tools: list) -> list[int]:
    job = ChatJob([{"role": "user", "content": question}], [tool_schema(t) for t in tools])
    return engine.tokenize(build_prompt(job, ToolPolicy(), engine.chat_template))


def test_a_known_system_turn_is_read_from_disk_by_a_fresh_engine(model_path, tmp_path) -> None:
    first = Engine(model_path, n_threads=1, prefix_dir=tmp_path)
    tokens = _tokens(first, "计算一下北京和西安的气温的总和", SEED_TOOLS)
    expected = first.next_token_logprobs(tokens)
    assert (first.prefixes.stores, first.prefixes.hits) == (1, 0)
    first.close()
    assert len(list(tmp_path.glob("*.kv"))) == 1
    second = Engine(model_path, n_threads=1, prefix_dir=tmp_path)
    restored = second.next_token_logprobs(tokens)
    assert (second.prefixes.stores, second.prefixes.hits) == (0, 1)
    assert int(np.argmax(restored)) == int(np.argmax(expected))
    assert float(np.abs(restored - expected).max()) < 0.5  # equal up to rounding
    # Another tool set is another system turn; switching back restores from memory.
    other = _tokens(second, "How much is coffee?", [get_price])
    second.next_token_logprobs(other)
    second.next_token_logprobs(tokens)
    assert (second.prefixes.stores, second.prefixes.hits) == (1, 2)
    second.close()


def test_a_damaged_state_is_dropped_and_the_prompt_evaluated(model_path, tmp_path) -> None:
    engine = Engine(model_path, n_threads=1, prefix_dir=tmp_path)
    tokens = _tokens(engine, "What's 6 + 5?", SEED_TOOLS)
    expected = engine.next_token_logprobs(tokens)
    engine.close()
    (state,) = tmp_path.glob("*.kv")
    state.write_bytes(state.read_bytes()[:1000])  # truncated
    fresh = Engine(model_path, n_threads=1, prefix_dir=tmp_path)
    again = fresh.next_token_logprobs(tokens)
    assert fresh.prefixes.hits == 0 and fresh.prefixes.stores == 1
    assert int(np.argmax(again)) == int(np.argmax(expected))
    assert state.stat().st_size > 1000  # written anew
    fresh.close()


def test_a_prompt_evaluated_aside_leaves_the_conversation_evaluated(model_path) -> None:
    engine = Engine(model_path, n_threads=1, prefix_dir=None)
    tokens = _tokens(engine, "计算一下北京和西安的气温的总和", SEED_TOOLS)
    expected = engine.next_token_logprobs(tokens)
    evaluated = engine.prompt_evaluated
    with engine.aside():
        other = _tokens(engine, "How much is coffee?", [get_price])
        engine.next_token_logprobs(other)
    aside = engine.prompt_evaluated
    assert aside > evaluated + len(other) // 2  # the other prompt was evaluated
    longer = [*tokens, *engine.tokenize("\n", bos=False)]
    again = engine.next_token_logprobs(longer)  # the conversation goes on from its state
    assert engine.prompt_evaluated == aside + 1
    assert int(np.argmax(engine.next_token_logprobs(tokens))) == int(np.argmax(expected))
    assert again.shape == expected.shape
    engine.close()
