"""The embedded server against raw llama.cpp, and the seed question end to end.

Measured side by side in one run, on the shipped model with the same threads and context:

1. **Server vs raw llama.cpp.** For each question, one request to our server over HTTP (chat
   template, tool-versus-text decision, grammar-constrained decoding, parsing, JSON) against
   ``Llama.create_completion`` on the very prompt the server rendered, greedy, generating the
   same number of tokens as the server reported in ``usage`` (end-of-turn suppressed so the
   counts match). Both start from an empty KV cache, after one untimed warm-up request.
   Goal: server <= 1.10x raw.
2. **The saved prefix state.** The seed's first request (its system turn with the two tools'
   definitions, then the question) from an empty KV cache, with the system turn's saved state
   restored against evaluated from scratch (the engine's prefix cache switched off).
   Goal: <= 0.5x from scratch.
3. **Seed question end to end.** "计算一下北京和西安的气温的总和" through a plain four-step loop
   (ChatOpenAI + ``bind_tools`` over HTTP, tools executed, ToolMessages back) until the final
   answer. Goal: <= 6 s on 2 cores and <= 120 generated tokens.
4. **The engine's reuse of work**, on the same seed loop, taking turns: everything on, against
   the model choosing each call's opening token by token (``Engine.write_openings`` off), and
   against evaluating a re-rendered call again (``Engine.respell`` off), with the prompt
   tokens each evaluated, and against prompt-lookup decoding turned on (3-token guesses, off by
   default: on 2 cores a small batch costs about its tokens one by one).

Run: ``python bench/server_vs_llama.py [repeats]`` (default 3; the median is shown).
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import llama_cpp
from langchain_core.messages import BaseMessage, HumanMessage
from langchain_openai import ChatOpenAI

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import Result, print_table, rotations
from toolkit.config import Settings, load_settings
from toolkit.local.runtime.cpu import build_has_amx, plain_cpu_buffers
from toolkit.local.server.runner import EmbeddedServer
from toolkit.schema import tool_schema
from tools import add, get_weather

__all__ = ["main", "measure"]

_NAME = "server_vs_llama"
SEED_QUESTION = "计算一下北京和西安的气温的总和"
QUESTIONS = [
    ("tool call (auto)", "What's the weather in Beijing?", "auto"),
    ("tool call (required)", "What is 17 + 25?", "required"),
    ("text answer (auto)", "Hello, who are you?", "auto"),
]


def _raw_model(path: str, settings: Settings) -> llama_cpp.Llama:
    guard = plain_cpu_buffers() if build_has_amx() else contextlib.nullcontext()
    with guard:
        return llama_cpp.Llama(
            model_path=path,
            n_ctx=settings.n_ctx,
            n_threads=settings.n_threads or None,
            n_threads_batch=settings.n_threads or None,
            verbose=False,
        )


def _server_vs_raw(server: EmbeddedServer, raw: llama_cpp.Llama, repeats: int) -> list[Result]:
    tools = [tool_schema(get_weather), tool_schema(add)]
    rows = []
    ends = {
        t: -1e9 for t in range(raw.n_vocab()) if llama_cpp.llama_vocab_is_eog(raw._model.vocab, t)
    }
    with httpx.Client(base_url=server.base_url, timeout=600) as http:
        for label, question, choice in QUESTIONS:
            body = {
                "messages": [{"role": "user", "content": question}],
                "tools": tools,
                "tool_choice": choice,
            }
            prompt = http.post("/prompt", json=body).json()["prompt"]
            http.post("/chat/completions", json=body)  # warm-up: grammars, token tables
            ours, theirs, count = [], [], 0
            for _ in range(repeats):
                server.engine.reset()
                start = time.perf_counter()
                answer = http.post("/chat/completions", json=body).json()
                ours.append(time.perf_counter() - start)
                count = answer["usage"]["completion_tokens"]
                raw.reset()
                start = time.perf_counter()
                raw.create_completion(
                    prompt, max_tokens=count, temperature=0, logit_bias=ends, stop=[]
                )
                theirs.append(time.perf_counter() - start)
            server_s, raw_s = statistics.median(ours), statistics.median(theirs)
            rows.append(
                Result(
                    _NAME,
                    f"server vs raw llama.cpp, {label}: {question} ({count} tokens)",
                    "s",
                    server_s,
                    raw_s,
                    "<= 1.10x raw",
                    server_s <= 1.10 * raw_s,
                )
            )
    return rows


def _seed_chat(server: EmbeddedServer) -> Any:
    return ChatOpenAI(
        model="local",
        base_url=server.base_url,
        api_key=server.api_key or "local",
        temperature=0,
        timeout=600,
        max_retries=0,
    ).bind_tools([add, get_weather])


def _first_request(server: EmbeddedServer, repeats: int) -> Result:
    chat = _seed_chat(server)
    engine = server.engine
    saved = engine.prefixes
    chat.invoke([HumanMessage(SEED_QUESTION)])  # the prefix state is stored (if it was not)
    restored, scratch = [], []
    for _ in range(repeats):
        for times, prefixes in ((scratch, None), (restored, saved)):
            engine.reset()
            engine.prefixes = prefixes
            try:
                start = time.perf_counter()
                chat.invoke([HumanMessage(SEED_QUESTION)])
                times.append(time.perf_counter() - start)
            finally:
                engine.prefixes = saved
    ours, base = statistics.median(restored), statistics.median(scratch)
    return Result(
        _NAME,
        "seed's first request: saved prefix state vs evaluated from scratch",
        "s",
        ours,
        base,
        "<= 0.5x from scratch",
        ours <= 0.5 * base,
    )


def _seed_loop(server: EmbeddedServer, chat: Any) -> tuple[float, int, str]:
    """One run of the seed question from an empty KV cache: seconds, tokens, final answer."""
    by_name = {"add": add, "get_weather": get_weather}
    server.engine.reset()
    messages: list[BaseMessage] = [HumanMessage(SEED_QUESTION)]
    tokens = 0
    start = time.perf_counter()
    for _step in range(6):
        reply = chat.invoke(messages)
        tokens += (reply.usage_metadata or {}).get("output_tokens", 0)
        messages.append(reply)
        if not reply.tool_calls:
            break
        messages.extend(by_name[c["name"]].invoke(c) for c in reply.tool_calls)
    return time.perf_counter() - start, tokens, str(messages[-1].content)


#: The engine's switches for each contender of the reuse measurement.
_DEFAULTS = {"write_openings": True, "respell": True, "lookup_tokens": 0}
_REUSE = {
    "everything on": _DEFAULTS,
    "openings chosen token by token": {**_DEFAULTS, "write_openings": False},
    "re-rendered calls evaluated again": {**_DEFAULTS, "respell": False},
    "lookup decoding on": {**_DEFAULTS, "lookup_tokens": 3},
}


def _reuse(server: EmbeddedServer, repeats: int) -> list[Result]:
    chat = _seed_chat(server)
    engine = server.engine
    times: dict[str, list[float]] = {name: [] for name in _REUSE}
    evaluated: dict[str, int] = {}
    try:
        for name in rotations(list(_REUSE), repeats):
            for switch, value in _REUSE[name].items():
                setattr(engine, switch, value)
            before = engine.prompt_evaluated
            seconds, _tokens, _final = _seed_loop(server, chat)
            times[name].append(seconds)
            evaluated[name] = engine.prompt_evaluated - before
    finally:
        for switch, value in _DEFAULTS.items():
            setattr(engine, switch, value)
    on = statistics.median(times["everything on"])
    rows = []
    for name in list(_REUSE)[1:]:
        base = statistics.median(times[name])
        rows.append(
            Result(_NAME, f"seed question end to end: everything on vs {name}", "s", on, base)
        )
    rows.append(
        Result(
            _NAME,
            "seed question: prompt tokens evaluated, re-rendered calls kept vs evaluated again",
            "tokens",
            evaluated["everything on"],
            evaluated["re-rendered calls evaluated again"],
        )
    )
    return rows


def _seed_end_to_end(server: EmbeddedServer, repeats: int) -> Result:
    chat = _seed_chat(server)
    times, tokens, final = [], 0, ""
    for _ in range(repeats):
        seconds, tokens, final = _seed_loop(server, chat)
        times.append(seconds)
    seconds = statistics.median(times)
    return Result(
        _NAME,
        f"seed question end to end, {tokens} tokens "
        f"(answer {'states' if '11' in final else 'LACKS'} 11)",
        "s",
        seconds,
        None,
        "<= 6 s on 2 cores, <= 120 tokens",
        seconds <= 6.0 and tokens <= 120,
    )


def measure(repeats: int = 3) -> list[Result]:
    """Run every measurement.

    Args:
        repeats: How many times each is run (the median counts).

    Returns:
        The rows, server-vs-raw first, then the saved prefix state, then the seed question,
        then the engine's reuse of work.
    """
    settings = load_settings()
    with EmbeddedServer(settings) as server:
        raw = _raw_model(str(server.engine.model_path), settings)
        try:
            rows = _server_vs_raw(server, raw, repeats)
        finally:
            raw.close()
        if server.engine.prefixes is not None:
            rows.append(_first_request(server, repeats))
        rows.append(_seed_end_to_end(server, repeats))
        rows.extend(_reuse(server, repeats))
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the measurements and the ratios side by side.

    Args:
        argv: ``[repeats]`` optionally; default 3.

    Returns:
        0 (the numbers are information, not a test).
    """
    args = sys.argv[1:] if argv is None else argv
    print_table(measure(int(args[0]) if args else 3))
    return 0


if __name__ == "__main__":
    sys.exit(main())
