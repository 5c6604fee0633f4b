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
# # 01 · Tools basics: from a Python function to a tool
#
# **What this notebook teaches**
#
# 1. `@tool` turns an ordinary Python function into a LangChain *tool* object.
# 2. `tool.invoke({"city": ...})` runs it with keyword arguments and returns the plain value —
#    the quickest way to test a tool.
# 3. `tool.invoke(tool_call)` with a whole *tool call* dict (the shape a model produces) returns a
#    `ToolMessage` carrying the call's `id` — and why that works: tools are *Runnables*.
# 4. The same thing written by hand, so nothing is magic.
# 5. Where tool calls really come from: one question to the embedded model.
#
# Everything runs offline: with no provider configured, `toolkit` starts a small local model
# (Qwen2.5-Coder-0.5B) behind an OpenAI-compatible HTTP endpoint on `127.0.0.1`.
#
# LangChain distinguishes two ways of calling a tool:
#
# * **directly**, from your own code — good for testing;
# * **bound to a model**, which decides when to call it and with which arguments — how tools are
#   used in applications (notebook 03).

# %% [markdown]
# ## 1. A function becomes a tool
#
# This is the seed's first example: a weather function with a docstring. The docstring matters —
# it becomes the tool's description, which is what the model reads to decide when to call it.

# %%
from langchain_core.tools import tool


@tool
def get_weather(city: str) -> str:
    """获取指定城市的天气信息"""
    return f"{city}晴天，温度 15°C"


# %% [markdown]
# `get_weather` is no longer a function. `@tool` replaced it with a `StructuredTool` object that
# keeps the function, a name, a description and an argument schema built from the type hints:

# %%
from langchain_core.runnables import Runnable

print("type:        ", type(get_weather).__name__)
print("name:        ", get_weather.name)
print("description: ", get_weather.description)
print("args:        ", get_weather.args)
print("a Runnable?  ", isinstance(get_weather, Runnable))
print("the function:", get_weather.func)

# %% [markdown]
# Because it is an object, calling it like the original function no longer works:

# %%
try:
    get_weather(city="北京")
except TypeError as exc:
    print(f"TypeError: {exc}")

# %% [markdown]
# ## 2. Calling a tool directly: `.invoke({"city": ...})`
#
# Every tool has `.invoke()`. Given a dict of arguments, it validates them against the argument
# schema, calls the function and returns its value unchanged — here a string:

# %%
res = get_weather.invoke({"city": "上海"})
print(repr(res))

# %% [markdown]
# The arguments are validated first. A wrong key never reaches the function:

# %%
from pydantic import ValidationError

try:
    get_weather.invoke({"town": "上海"})
except ValidationError as exc:
    print(exc)

# %% [markdown]
# ## 3. Calling a tool with a tool call: `.invoke(tool_call)` → `ToolMessage`
#
# When a model wants a tool, it answers with *tool calls*. LangChain represents each one as a
# dict with four keys: the tool `name`, its `args`, a unique `id` and `"type": "tool_call"`.
# Pass such a dict to `.invoke()` and you get back a `ToolMessage` instead of a bare string:

# %%
tool_call = {
    "name": "get_weather",
    "args": {"city": "北京"},
    "id": "call_xxxx",
    "type": "tool_call",
}

tool_response = get_weather.invoke(tool_call)
print(type(tool_response))
tool_response

# %%
print("content:     ", tool_response.content)
print("tool_call_id:", tool_response.tool_call_id)
print("name:        ", tool_response.name)
print("status:      ", tool_response.status)

# %% [markdown]
# ### Why does `.invoke()` accept both forms?
#
# 1. **`get_weather` is a `Runnable`.** Every LangChain building block (models, prompts, tools,
#    chains) implements the same interface: `invoke`, `batch`, `stream` and their async twins.
#    That is why a tool has `.invoke()` at all.
# 2. **A tool's `invoke` looks at its input.** If the input is a dict with `"type": "tool_call"`,
#    it takes `tool_call["args"]` as the arguments and remembers `tool_call["id"]`; otherwise the
#    whole dict is the arguments.
# 3. **It runs the function the same way** — `get_weather(city="北京")` — and then, only when it
#    had an id, wraps the result in a `ToolMessage(content=..., tool_call_id=id)`.
#
# The id is the point: a model may ask for several calls at once, and the `ToolMessage` carrying
# `tool_call_id` is how the model later tells which result answers which call.

# %% [markdown]
# ## 4. The same thing, written by hand
#
# Here is the equivalent code without the convenience. Note that the original function is at
# `get_weather.func`, since `get_weather` itself is the tool object.

# %%
from langchain_core.messages import ToolMessage

args = tool_call["args"]
content = get_weather.func(**args)
manual_response = ToolMessage(content=content, tool_call_id=tool_call["id"], name=tool_call["name"])

print(manual_response)
print("same content:", manual_response.content == tool_response.content)
print("same id:     ", manual_response.tool_call_id == tool_response.tool_call_id)

# %% [markdown]
# ## 5. The project's example tools
#
# The `tools` package of this project holds ready-made tools written the same way (with
# Google-style docstrings, see notebook 02). Its weather tool has offline sample data chosen so
# that the seed's example works: 北京 6 °C, 西安 5 °C.

# %%
import tools

print([t.name for t in tools.ALL_TOOLS])
print(tools.get_weather.invoke({"city": "西安"}))
print(tools.get_weather.invoke({"city": "Beijing", "unit": "fahrenheit"}))
print(tools.add.invoke({"x": 6, "y": 5}))

# %% [markdown]
# ## 6. Where real tool calls come from
#
# So far we wrote the tool call ourselves. In an application the model writes it.
# `load_chat_model()` returns a LangChain chat model: your provider when a `.env` configures one,
# otherwise the embedded local model (the first call loads it, which takes a few seconds).
# `bind_tools` tells the model which tools exist; notebook 03 takes this apart step by step.

# %%
from toolkit.models import load_chat_model

model = load_chat_model(temperature=0)
response = model.bind_tools([get_weather]).invoke("今天北京天气如何？")
response.tool_calls

# %% [markdown]
# Each entry has exactly the shape we wrote by hand in section 3, with an id generated for it.
# So it can be passed straight to the tool:

# %%
for call in response.tool_calls:
    print(repr(get_weather.invoke(call)))

# %% [markdown]
# ## Recap
#
# * `@tool` wraps a function into a `StructuredTool` with a name, a description (from the
#   docstring) and an argument schema (from the type hints); the function stays at `.func`.
# * `tool.invoke({"city": "上海"})` validates the arguments and returns the function's value.
# * `tool.invoke(tool_call)` with `{"name", "args", "id", "type": "tool_call"}` returns a
#   `ToolMessage` whose `tool_call_id` is the call's id — because tools are Runnables whose
#   `invoke` recognises a tool call.
# * By hand: `ToolMessage(content=tool.func(**call["args"]), tool_call_id=call["id"])`.
# * Models produce exactly these tool-call dicts (`response.tool_calls`).
#
# Next: **02 · Schemas and docstrings** — what the model is actually told about a tool.
