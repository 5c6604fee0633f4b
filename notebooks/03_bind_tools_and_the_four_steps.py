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
# # 03 · `bind_tools` and the four steps of a tool call
#
# **What this notebook teaches**
#
# A model never runs a tool. It only *asks* for one; your code runs it and reports back. A complete
# tool call therefore takes four steps:
#
# 1. **Bind** — `model.bind_tools([...])` tells the model which tools exist.
# 2. **Ask** — `invoke` the model; it either answers in text or returns an `AIMessage` whose
#    `tool_calls` name the tools and arguments it wants.
# 3. **Execute** — your code runs each requested call: `tool.invoke(tool_call)` → `ToolMessage`.
# 4. **Report back** — append the `AIMessage` and the `ToolMessage`s to the conversation and
#    invoke the model again, until it answers in text.
#
# We do each step by hand, then let `toolkit.loop.ToolLoop` do the same safely; then we look at
# `tool_choice` and parallel calls, and answer the seed's question
# "计算一下北京和西安的气温的总和" (add up the temperatures of Beijing and Xi'an).
#
# All model calls go to the embedded local model (Qwen2.5-Coder-0.5B, temperature 0), unless a
# `.env` configures a provider. It is small: it is right about *which* tool to call far more often
# than it is eloquent, and its answers are deterministic but not always what a large hosted model
# would say. Read the outputs as what they are — real answers from a real model.

# %%
from rich.console import Console

from toolkit.models import load_chat_model
from toolkit.render import render_message
from tools import add, get_weather

console = Console()
model = load_chat_model(temperature=0)
model

# %% [markdown]
# ## Step 1 — bind the tools
#
# `bind_tools` converts each tool with `convert_to_openai_tool` (notebook 02) and returns a new
# runnable that sends those descriptions with every request. The model itself is unchanged.

# %%
model_with_tools = model.bind_tools([add, get_weather])

for description in model_with_tools.kwargs["tools"]:
    function = description["function"]
    print(f"{function['name']:12} {function['description']}")

# %% [markdown]
# ## Step 2 — the model decides: call a tool, or answer
#
# The same bound model gets two questions. The seed's pattern checks `response.tool_calls`:

# %%
def ask(question: str):
    response = model_with_tools.invoke(question)
    if response.tool_calls:
        print(f"{question}\n  AI 想调用工具: {response.tool_calls}")
    else:
        print(f"{question}\n  AI 直接回答: {response.content}")
    return response


weather_reply = ask("我想去深圳玩，但不知道天气如何")
intro_reply = ask("用一句话介绍一下深圳")

# %% [markdown]
# The weather question produced a *request* — `get_weather` for 深圳 — not an answer; the
# one-line introduction of Shenzhen needed no tool, and the model answered in text. The decision
# is the model's, made from the tool descriptions and the question (the seed's model answered
# "我想去深圳玩" with a list of sights, for the same reason).
#
# Both replies are `AIMessage`s. A tool request has empty `content`, its `tool_calls` attribute
# holds LangChain's normalised calls, and the provider's `finish_reason` is `"tool_calls"`; a
# text answer has `content`, no `tool_calls`, and `finish_reason` `"stop"`:

# %%
for reply in (weather_reply, intro_reply):
    print("type:          ", type(reply).__name__)
    print("content:       ", repr(reply.content))
    print("tool_calls:    ", reply.tool_calls)
    print("finish_reason: ", reply.response_metadata.get("finish_reason"))
    print()

# %% [markdown]
# ## Steps 3 and 4 — execute, report back, get the answer
#
# This is the seed's message flow, written out. The conversation is a list of messages; the
# model's request is appended, then one `ToolMessage` per call (notebook 01 showed that
# `tool.invoke(tool_call)` returns one with the call's id), and the model is asked again.

# %%
from langchain_core.messages import HumanMessage

tools_by_name = {"add": add, "get_weather": get_weather}

messages = [HumanMessage("今天北京天气如何？")]
response = model_with_tools.invoke(messages)  # step 2
messages.append(response)

for tool_call in response.tool_calls:  # step 3
    selected_tool = tools_by_name[tool_call["name"]]
    tool_response = selected_tool.invoke(tool_call)
    print(type(tool_response))
    messages.append(tool_response)

final_response = model_with_tools.invoke(messages)  # step 4
messages.append(final_response)

for message in messages:
    message.pretty_print()

# %% [markdown]
# Note how the `ToolMessage`'s `tool_call_id` matches the id in the `AIMessage`'s call: that is
# how the model pairs results with requests. Every call needs exactly one answer before the next
# model call — an endpoint rejects a conversation with an unanswered call.
#
# The manual code above has gaps a real application cannot afford: a tool name the model made up
# raises `KeyError`, a tool that raises ends the program, one question may need several rounds,
# and nothing stops a model that never stops calling tools. Notebook 04 shows each failure.

# %% [markdown]
# ## The same, with `ToolLoop`
#
# `toolkit.loop.ToolLoop` runs the four steps until the model answers, safely: every call gets
# exactly one `ToolMessage` whatever goes wrong, the calls of one reply run concurrently, and
# budgets (model calls, time, tool timeout, repeated failures) bound the run.
#
# `ToolLoop.steps(question)` is a generator that yields every message as it is appended to the
# conversation — the question, each `AIMessage`, each `ToolMessage` — so you can watch the loop
# work. `toolkit.render.render_message` draws each one:

# %%
from toolkit.loop import ToolLoop

loop = ToolLoop(model, [add, get_weather])

for message in loop.steps("今天北京天气如何？"):
    console.print(render_message(message))

# %% [markdown]
# ## `tool_choice`: who decides whether a tool is called
#
# `bind_tools(..., tool_choice=...)` sets the request's `tool_choice`:
#
# | value | meaning |
# |---|---|
# | `"auto"` (the default) | the model decides, as above |
# | `"none"` | no tool calls: answer in text |
# | `"required"` (LangChain also accepts `"any"`) | the model must call some tool |
# | `"get_weather"` or `{"type": "function", "function": {"name": "get_weather"}}` | the model must call that tool |
#
# The seed calls the forced form "希望一定调用" — "hope it definitely calls": some providers'
# models cannot be forced and may ignore it. The embedded server enforces every form with a
# grammar, so the *form* of these replies is guaranteed:

# %%
def show(label: str, bound, question: str) -> None:
    response = bound.invoke(question)
    calls = [(c["name"], c["args"]) for c in response.tool_calls]
    print(f"{label:10} {question}\n           calls={calls} text={response.content!r}")


show("none", model.bind_tools([add, get_weather], tool_choice="none"), "今天北京天气如何？")
show("required", model.bind_tools([add, get_weather], tool_choice="required"), "用一句话介绍一下深圳")
forced = {"type": "function", "function": {"name": "get_weather"}}
show("named", model.bind_tools([add, get_weather], tool_choice=forced), "西安冷不冷？")

# %% [markdown]
# With `"none"` the model had to answer a weather question in text, without any data — `none`
# means "do not call", not "know the answer". With `"required"` it called a tool for a question
# that needs none. Forcing is for the first step of a known workflow; in `ToolLoop` a forcing
# `tool_choice` applies to the first model call only, so the model can still answer afterwards.
# A named tool must be one of the bound tools — `ToolLoop` checks that before any model call:

# %%
from toolkit.errors import ConfigError

try:
    ToolLoop(model, [add, get_weather], tool_choice="get_time")
except ConfigError as exc:
    print(f"ConfigError: {exc}")

# %% [markdown]
# ## Parallel tool calls
#
# One reply may contain several calls — the seed's transcript (listing 7.12) starts with two
# `get_weather` calls in one `AIMessage`, one per city. Each has its own id and gets its own
# `ToolMessage`; `ToolLoop` runs them concurrently and appends the results in call order.
# `parallel_tool_calls=False` asks for at most one call per reply.
#
# Whether a model uses several calls at once is up to the model: large hosted models usually do
# for this question, a 0.5B model often asks one city at a time — and the loop handles both.

# %%
question = "北京和西安的天气怎么样？"
for parallel in (True, False):
    bound = model.bind_tools([add, get_weather], tool_choice="required", parallel_tool_calls=parallel)
    response = bound.invoke(question)
    print(f"parallel_tool_calls={parallel}: {len(response.tool_calls)} call(s)")
    for call in response.tool_calls:
        print(f"   {call['id']}  {call['name']}({call['args']})")

# %% [markdown]
# ## The seed's question
#
# "计算一下北京和西安的气温的总和" needs three calls: the weather in each city, then `add`. In the
# seed's run (listing 7.12, a large hosted model) the transcript was:
#
# ```
# user       计算一下北京和西安的气温的总和
# assistant  get_weather(北京), get_weather(西安)     ← two calls in one reply
# tool       6 摄氏度
# tool       5 摄氏度
# assistant  add(x=6, y=5)
# tool       11
# assistant  北京和西安的气温总和为11摄氏度。
# ```
#
# Here is the same question on the embedded model, through `ToolLoop.run`, which returns a
# `LoopResult`: the transcript, why the run ended, the answer, and what it cost. `on_message`
# prints each message as it arrives.

# %%
from toolkit.render import render_loop_result

loop = ToolLoop(model, [add, get_weather])
result = loop.run(
    "计算一下北京和西安的气温的总和",
    on_message=lambda message: console.print(render_message(message)),
)
render_loop_result(result, console)

# %%
print("status:     ", result.status.value)
print("answer:     ", result.answer)
print("model calls:", result.model_calls)
print("tool calls: ", [(c["name"], c["args"]) for m in result.transcript for c in getattr(m, "tool_calls", [])])

# %% [markdown]
# ## Recap
#
# 1. **Bind**: `model.bind_tools(tools)` sends each tool's JSON description with every request.
# 2. **Ask**: the reply is an `AIMessage`; a non-empty `response.tool_calls` means the model wants
#    tools (finish reason `"tool_calls"`), otherwise `response.content` is its answer.
# 3. **Execute**: `tool.invoke(tool_call)` for each call → a `ToolMessage` with the call's id.
# 4. **Report back**: append the `AIMessage` and every `ToolMessage`, invoke again, until the model
#    answers in text.
#
# `ToolLoop(model, tools).steps(question)` yields the same messages as they happen, and `.run()`
# returns a `LoopResult`. `tool_choice` is `"auto"`, `"none"`, `"required"` or a tool name;
# `parallel_tool_calls` allows several calls per reply, each answered by its own `ToolMessage`.
#
# Next: **04 · When models get it wrong** — invalid JSON, bad arguments, unknown tools, tools
# that raise or hang, and how the loop survives them.
