# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 04 · When models get it wrong
#
# **What this notebook teaches**
#
# A model's tool call is a *high-confidence suggestion*, not a guaranteed function call. Even with
# a perfect tool description a model can produce:
#
# 1. `arguments` that are not valid JSON;
# 2. missing or extra arguments, or arguments of the wrong type;
# 3. a tool name that does not exist;
#
# and the tools themselves can fail:
#
# 4. a tool that raises;
# 5. a tool that hangs;
# 6. a model that never stops calling tools, or a provider that fails mid-run.
#
# Each case is shown here with a **scripted model** — a real LangChain chat model (and, for the
# first case, a real HTTP endpoint) that replays exactly the replies we write, because real models
# make these mistakes rarely and unpredictably. Each is handled by `toolkit.loop.ToolLoop`: every
# bad call is answered by exactly one `ToolMessage` with `status="error"` whose text says what was
# wrong and how to call again, so the model can correct itself, and the run always ends in a
# defined state with the whole transcript kept.

# %%
from langchain_core.messages import AIMessage
from langchain_core.messages.tool import tool_call
from rich.console import Console

from toolkit.loop import ToolLoop
from toolkit.render import render_transcript
from toolkit.testing import ScriptedChatModel
from tools import add, get_weather

console = Console()


def replay(script, tools=(add, get_weather), question="计算一下北京和西安的气温的总和", **settings):
    """Run ToolLoop on a scripted model; show the transcript and how the run ended."""
    model = ScriptedChatModel(script)
    result = ToolLoop(model, list(tools), **settings).run(question)
    render_transcript(result.transcript, console)
    print(f"status: {result.status.value}   answer: {result.answer!r}")
    if result.hint:
        print(f"hint:   {result.hint}")
    return model, result


def asks(*calls: dict) -> AIMessage:
    """An assistant reply that asks for these tool calls."""
    return AIMessage(content="", tool_calls=list(calls))


# %% [markdown]
# ## Why the four steps of notebook 03 are not enough
#
# The hand-written loop of notebook 03 trusted the model. A misspelt tool name is a `KeyError`,
# a missing argument a `ValidationError` — either one ends the program and loses the
# conversation:

# %%
from pydantic import ValidationError

tools_by_name = {"add": add, "get_weather": get_weather}
bad_calls = [
    tool_call(name="get_wether", args={"city": "北京"}, id="call_1"),
    tool_call(name="add", args={"x": 6}, id="call_2"),
]
for call in bad_calls:
    try:
        tools_by_name[call["name"]].invoke(call)
    except (KeyError, ValidationError) as exc:
        print(f"{type(exc).__name__}: {exc}")

# %% [markdown]
# ## 1. Arguments that are not valid JSON
#
# Over the wire a tool call's `arguments` is a **string** that should hold a JSON object. When it
# does not parse — here it was cut off — LangChain does not raise: it moves the call from
# `tool_calls` to `invalid_tool_calls`, with the raw text and the parse error.
#
# To see this on the real protocol we use `ScriptedServer`, an OpenAI-compatible HTTP server on
# `127.0.0.1` that answers from a script, and LangChain's own `ChatOpenAI` client.

# %%
from langchain_openai import ChatOpenAI

from toolkit.testing.server import ScriptedServer, completion
from toolkit.testing.server import tool_call as wire_call

truncated = wire_call("get_weather", '{"city": "北京"', call_id="call_bad")
server = ScriptedServer(
    [
        completion(tool_calls=[truncated]),  # for the direct call below
        completion(tool_calls=[truncated]),  # the loop's first model call
        completion(tool_calls=[wire_call("get_weather", {"city": "北京"}, call_id="call_good")]),
        completion("北京今天晴，6 °C。"),
    ]
).start()
chat = ChatOpenAI(model="scripted", base_url=server.base_url, api_key="unused", max_retries=0)

response = chat.invoke("今天北京天气如何？")
print("tool_calls:        ", response.tool_calls)
print("invalid_tool_calls:", response.invalid_tool_calls)

# %% [markdown]
# `ToolLoop` answers an invalid call like any other — with an error `ToolMessage` for its id —
# and asks the model again. Here the scripted model then sends a correct call:

# %%
result = ToolLoop(chat, [add, get_weather]).run("今天北京天气如何？")
render_transcript(result.transcript, console)
print("status:", result.status.value)

# %% [markdown]
# What the model was sent on its next request — the error, as a `role: "tool"` message answering
# the broken call's id:

# %%
import json

print(json.dumps(server.chat_requests[2].json["messages"][-1], ensure_ascii=False, indent=2))
server.close()

# %% [markdown]
# ## 2. Missing, extra and wrongly typed arguments
#
# Valid JSON can still be wrong. The arguments are checked against the schema the model was
# shown before the tool runs. Three bad calls in one reply — `y` missing, an extra `date`, and
# `"six"` for an integer — get three error messages, in call order; the scripted model then
# corrects itself:

# %%
model, result = replay(
    [
        asks(
            tool_call(name="add", args={"x": 6}, id="call_1"),
            tool_call(name="get_weather", args={"city": "北京", "date": "today"}, id="call_2"),
            tool_call(name="add", args={"x": "six", "y": 5}, id="call_3"),
        ),
        asks(
            tool_call(name="get_weather", args={"city": "北京"}, id="call_4"),
            tool_call(name="get_weather", args={"city": "西安"}, id="call_5"),
        ),
        asks(tool_call(name="add", args={"x": 6, "y": 5}, id="call_6")),
        "北京和西安的气温总和为11摄氏度。",
    ]
)

# %% [markdown]
# LangChain alone would have *dropped* the extra `date` silently and run the tool; the loop
# reports it instead, because an unexpected argument usually means the model misread the schema.
# Types are checked the way pydantic validates them: `"six"` is refused, but a number written as
# a string is accepted and converted:

# %%
print(add.invoke({"x": "6", "y": 5}))

# %% [markdown]
# Every model call the scripted model received is recorded. Its second call ended with the three
# error messages — this is all the model knows about what went wrong:

# %%
for message in model.calls[1].messages[-3:]:
    print(f"[{message.tool_call_id}] {message.content}\n")

# %% [markdown]
# ## 3. An unknown tool name
#
# A misspelt or invented name gets an error listing the valid names:

# %%
model, result = replay(
    [
        asks(tool_call(name="get_wether", args={"city": "北京"}, id="call_1")),
        asks(tool_call(name="get_weather", args={"city": "北京"}, id="call_2")),
        "北京今天晴，6 °C。",
    ],
    question="今天北京天气如何？",
)

# %% [markdown]
# ## 4. A tool that raises
#
# Tools fail too. The example `get_weather` raises LangChain's `ToolException` for a city it does
# not know, with a message meant for the model (the cities it does know). Any other exception — a
# bug, like dividing by zero below — becomes an error message with its type and text. Either way
# the loop goes on and the model can answer without the tool.

# %%
from langchain_core.tools import tool


@tool(parse_docstring=True)
def average(numbers: list[float]) -> float:
    """Return the arithmetic mean of some numbers.

    Args:
        numbers: The numbers to average, e.g. [6, 5].
    """
    return sum(numbers) / len(numbers)


model, result = replay(
    [
        asks(
            tool_call(name="get_weather", args={"city": "火星"}, id="call_1"),
            tool_call(name="average", args={"numbers": []}, id="call_2"),
        ),
        "抱歉，我只能查询这些城市的天气：北京、上海、西安……",
    ],
    tools=[get_weather, average],
    question="火星的平均气温是多少？",
)

# %% [markdown]
# ## 5. A tool that hangs
#
# A tool that never returns would stall the whole run. Each call gets `tool_timeout` seconds
# (60 by default); after that the model is told the call was stopped and the run goes on. Python
# cannot kill a thread, so the hung function keeps running in the background until it returns;
# its result is discarded.

# %%
import time


@tool(parse_docstring=True)
def slow_forecast(city: str) -> str:
    """Return a ten-day forecast for a city (this one hangs).

    Args:
        city: The city, e.g. "北京".
    """
    time.sleep(30)
    return f"{city}: sunny for ten days"


started = time.monotonic()
model, result = replay(
    [
        asks(tool_call(name="slow_forecast", args={"city": "北京"}, id="call_1")),
        "抱歉，天气预报服务暂时没有响应。",
    ],
    tools=[slow_forecast],
    question="北京未来十天的天气如何？",
    tool_timeout=1,
)
print(f"the run took {time.monotonic() - started:.1f} s, not 30 s")

# %% [markdown]
# ## 6. Runs that must be stopped
#
# **A model that never stops calling tools.** `max_model_calls` (10 by default) bounds the run;
# when it is used up the run ends with `step_budget_exhausted` and a hint naming the setting:

# %%
endless = [asks(tool_call(name="add", args={"x": i, "y": 1}, id=f"call_{i}")) for i in range(10)]
model, result = replay(endless, max_model_calls=3)

# %% [markdown]
# **The same tool failing again and again.** After `retry_budget` consecutive failures of one
# tool the model is told to stop calling it, and one more failure ends the run:

# %%
mars = [asks(tool_call(name="get_weather", args={"city": "火星"}, id=f"call_{i}")) for i in range(5)]
model, result = replay(mars, retry_budget=2, question="火星的天气如何？")

# %% [markdown]
# **A provider that fails mid-run.** A model error (here scripted as the exception a provider
# error raises) does not lose the conversation: the run ends with `model_error`, the error and a
# hint, and `result.transcript` can be passed to `run()` again to continue.

# %%
from toolkit.errors import ModelError

model, result = replay(
    [
        asks(tool_call(name="get_weather", args={"city": "北京"}, id="call_1")),
        ModelError("the provider answered HTTP 503"),
    ],
    question="今天北京天气如何？",
)
print("error:", result.error)
print("messages kept:", len(result.transcript))

# %% [markdown]
# ## Recap
#
# | what went wrong | what the model gets back (one `ToolMessage`, `status="error"`) |
# |---|---|
# | `arguments` not valid JSON (`invalid_tool_calls`) | the parse error, the raw text and the tool's parameters |
# | missing / extra / wrongly typed arguments | each problem by name, and the parameters with their types |
# | unknown tool name | the valid tool names |
# | the tool raises | its message (`ToolException`) or its exception type and text |
# | the tool hangs | that it was stopped after `tool_timeout` seconds |
#
# and the run itself is bounded: `max_model_calls`, `retry_budget`, `max_wall_time`; a model
# error ends it with the transcript kept. The loop never raises for any of these and never
# leaves a call unanswered, so the conversation stays valid for the next model call.
#
# Next: **05 · Under the hood** — the HTTP request, a no-LangChain agent, and the prompt the
# model really reads.
