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
# # 05 · Under the hood: HTTP, a bare agent, and the prompt the model reads
#
# **What this notebook teaches**
#
# 1. **The wire.** A model call is one HTTP `POST /v1/chat/completions`. We send the seed's request
#    body (listing 7.5) ourselves and read the response: the fields of the request, and of a
#    `choices` entry with its `tool_calls` (listing 7.6).
# 2. **A bare agent.** `toolkit.bare` is the seed's "tinyLangChain" (section 7.4.4): a `@tool`
#    decorator, an HTTP client and an agent loop in plain Python — no LangChain — answering the
#    seed's question.
# 3. **The server side** (section 7.4.5). How `messages` and `tools` become one prompt through the
#    model's chat template (tools inside `<tools></tools>`), what the model really generates, how
#    a `<tool_call>` becomes OpenAI `tool_calls` with a generated id, and how several tool results
#    merge into one turn of `<tool_response>` blocks.
#
# We talk to the embedded server directly, so this notebook always uses the local model (a
# provider's server would not show you its prompt).

# %%
import json
import os

import httpx

from toolkit.config import load_settings
from toolkit.local.server.runner import shared_server

settings = load_settings(environ={**os.environ, "TOOLKIT_PROVIDER": "local"})
server = shared_server(settings)  # the same server load_chat_model() starts; loads once
headers = {"Authorization": f"Bearer {server.api_key or 'local'}"}
http = httpx.Client(base_url=server.base_url, headers=headers, timeout=settings.timeout)
print(server.base_url)


def show(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


# %% [markdown]
# ## 1. The request
#
# This is the seed's request body (listing 7.5) with the weather tool of listing 7.3. The client
# (LangChain's `ChatOpenAI`, or the seed's `requests.post`) sends exactly this JSON:

# %%
weather_tool = {
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

body = {
    "model": settings.model,
    "messages": [
        {"role": "system", "content": "You are a helpful assistant"},
        {"role": "user", "content": "查询西安的天气"},
    ],
    "tools": [weather_tool],
    "temperature": 0,
    "parallel_tool_calls": True,
}

# %% [markdown]
# The fields that matter for tools (the seed's table 7-2):
#
# | field | meaning |
# |---|---|
# | `model` | which model the provider should run |
# | `messages` | the whole conversation so far, each with a `role` (`system`/`developer`, `user`, `assistant`, `tool`) — the model remembers nothing between requests |
# | `tools` | the tool descriptions (notebook 02) |
# | `tool_choice` | `"auto"` (default when tools are sent), `"none"`, `"required"`, or `{"type": "function", "function": {"name": ...}}` (notebook 03) |
# | `parallel_tool_calls` | whether one reply may hold several calls |
# | `temperature` | 0 for the most deterministic output |
#
# An older field, `functions` (with `function_call`), did the same job as `tools`; it still works
# with many providers but never produces parallel calls. Use `tools`.
#
# The same request from a terminal, while this notebook's server runs (the seed's listing 7.4
# does this with `$OPENAI_API_BASE` and `$OPENAI_API_KEY`):

# %%
print(
    f"curl {server.base_url}/chat/completions \\\n"
    f"  -H 'Content-Type: application/json' \\\n"
    f"  -H 'Authorization: Bearer $OPENAI_API_KEY' \\\n"
    f"  -d '{json.dumps(body, ensure_ascii=False)}'"
)

# %% [markdown]
# ## 2. The response

# %%
response = http.post("/chat/completions", json=body)
print(response.status_code)
reply = response.json()
show(reply)

# %% [markdown]
# The top level carries the completion's `id`, `object`, `created`, `model`, `usage` (tokens
# read and written) and `choices` — one entry per generated answer (one unless you ask for more
# with `n`). Each choice (the seed's table 7-4):
#
# | field | meaning |
# |---|---|
# | `index` | position in `choices` |
# | `message.role` | `"assistant"` |
# | `message.content` | the text answer; empty or `null` when the model calls tools |
# | `message.tool_calls[]` | each call: a unique `id`, `type: "function"`, `function.name` and `function.arguments` |
# | `finish_reason` | `"tool_calls"` (the model wants tools), `"stop"` (a finished answer), `"length"` (cut off by `max_tokens`), `"content_filter"` |
# | `logprobs` | token probabilities, when asked for |
#
# Note that `arguments` is a **string** of JSON, not an object — which is why it can be invalid
# (notebook 04):

# %%
choice = reply["choices"][0]
call = choice["message"]["tool_calls"][0]
print("finish_reason:  ", choice["finish_reason"])
print("call id:        ", call["id"])
print("function name:  ", call["function"]["name"])
print("arguments:      ", repr(call["function"]["arguments"]), type(call["function"]["arguments"]))
print("decoded:        ", json.loads(call["function"]["arguments"]))

# %% [markdown]
# Here the model's work is done. Running the function, decoding its arguments and sending the
# result back are the application's job. Sending it back is one more request: the conversation
# grows by the assistant message (with its `tool_calls`) and one `role: "tool"` message per call,
# carrying the call's `id` as `tool_call_id`:

# %%
arguments = json.loads(call["function"]["arguments"])
result = "5 摄氏度" if arguments.get("unit", "celsius") == "celsius" else "41 华氏度"

follow_up = {
    **body,
    "messages": [
        *body["messages"],
        choice["message"],
        {"role": "tool", "tool_call_id": call["id"], "content": result},
    ],
}
final = http.post("/chat/completions", json=follow_up).json()["choices"][0]
print("finish_reason:", final["finish_reason"])
print("content:      ", final["message"]["content"])

# %% [markdown]
# ## 3. A bare agent: no LangChain at all
#
# With the request and the response understood, an agent is a loop around this `POST`. The seed
# builds "tinyLangChain" from `requests`, `inspect` and pydantic (listings 7.7–7.11);
# `toolkit.bare` is that prototype made safe (bad arguments, unknown tools and failing tools
# become tool messages instead of exceptions, every call gets exactly one answer, a step limit
# stops endless calling). Its API is the seed's: `@tool`, `LLM`, `create_agent`, `Agent.run`.
#
# The tools are the seed's, written the seed's way — one pydantic model as the only parameter:

# %%
from typing import Literal

from pydantic import BaseModel, Field

from toolkit.bare import LLM, create_agent, tool


class WeatherArgs(BaseModel):
    location: str = Field(description="想要查询的城市")
    units: Literal["celsius", "fahrenheit"] = Field(
        description="温度单位，celsius：摄氏度，fahrenheit：华氏度"
    )


class AddArgs(BaseModel):
    x: int = Field(description="加法运算的参数 x")
    y: int = Field(description="加法运算的参数 y")


@tool
def get_weather(args: WeatherArgs):
    """获取某个城市的天气信息"""
    if "西安" in args.location:
        return "5 摄氏度" if args.units == "celsius" else "41 华氏度"
    else:
        return "6 摄氏度" if args.units == "celsius" else "42.8 华氏度"


@tool
def add(args: AddArgs):
    """加法运算 x + y"""
    return args.x + args.y


show(get_weather.description)

# %% [markdown]
# `get_weather.description` is the tool description of listing 7.3, built from the docstring and
# the pydantic model. `get_weather.invoke(arguments_json, call_id)` validates the model's
# arguments and returns the `role: "tool"` message:

# %%
print(get_weather.invoke('{"location": "北京", "units": "celsius"}', "call_1"))
print(get_weather.invoke('{"location": "北京"}', "call_2"))

# %% [markdown]
# `LLM` posts to `<base_url>/chat/completions` (the embedded server here; a provider when a `.env`
# configures one), and `Agent.run` is a generator that yields the history — the request's
# `messages` — each time it grows, like the seed's listing 7.10:

# %%
llm = LLM(settings, base_url=server.base_url, api_key=server.api_key, temperature=0)
agent = create_agent(model=llm, tools=[add, get_weather])

example_query = "计算一下北京和西安的气温的总和"
events = agent.run({"role": "user", "content": example_query})


def print_message(msg: dict) -> None:
    print("====================== " + msg["role"] + " ========================")
    print(msg)
    print()


for e in events:
    print_message(e[-1])
print("stopped because:", agent.stop_reason, "-", agent.stop_detail)

# %% [markdown]
# Compare with the seed's run (listing 7.12, a large hosted model): it asked for both cities in
# one reply (two `get_weather` calls), then `add(6, 5)`, then answered
# "北京和西安的气温总和为11摄氏度。". Whatever the model does, the history stays a valid
# conversation: every `tool_calls` entry is followed by one `role: "tool"` message with its id.

# %% [markdown]
# ## 4. The server side: from `messages` and `tools` to a prompt
#
# A language model only continues text. The server turns the request into one prompt string with
# the model's **chat template** (a Jinja2 template shipped with the model). The embedded server
# shows its prompt at `POST /v1/prompt` — same body as a chat completion:

# %%
prompt = http.post("/prompt", json=body).json()
print(prompt["prompt_tokens"], "tokens")
print(prompt["prompt"])

# %% [markdown]
# What to notice (compare the seed's listing 7.14, Qwen2.5's own template):
#
# * each message sits between `<|im_start|>role` and `<|im_end|>` — special tokens that tell the
#   model where a turn starts and ends and who speaks;
# * the tools are **in the system turn**, one JSON line each inside `<tools></tools>`, followed by
#   the instruction to answer calls as `{"name": ..., "arguments": ...}` inside
#   `<tool_call></tool_call>`;
# * the prompt ends with an open `<|im_start|>assistant` turn for the model to continue;
# * one sentence is the embedded server's own: with `tool_choice="auto"` it adds to the system turn
#   a reminder to call a function only when one fits (a small model calls tools too eagerly).
#
# `toolkit.local.format.template.render_prompt` is the template on its own, a pure function.
# Without the server's sentence it gives exactly the seed's listing 7.14:

# %%
from toolkit.local.decision.policy import DEFAULT_NUDGE
from toolkit.local.format.template import render_prompt

template_prompt = render_prompt(body["messages"], body["tools"])
print(template_prompt)
print("the server only added its sentence:", prompt["prompt"].replace("\n\n" + DEFAULT_NUDGE, "") == template_prompt)

# %% [markdown]
# ## 5. What the model generates, and how it becomes `tool_calls`
#
# Let the model continue that prompt freely (we borrow the server's loaded model for a moment;
# its lock keeps it from serving a request at the same time):

# %%
from toolkit.local.format.job import SamplingOptions

engine = server.engine
with engine.lock:
    free = engine.generate(engine.tokenize(prompt["prompt"]), SamplingOptions(max_tokens=80))
    free_text = free.consume().text
print(free_text)

# %% [markdown]
# The template asked for a `<tool_call>` block; left to itself, this small model tends to answer
# with a fenced `json` block instead. The server's parser
# (`toolkit.local.format.parser.parse_tool_calls`, a pure function) is tolerant: it accepts
# `<tool_call>` blocks, fenced JSON and bare JSON naming a known tool, and turns each call into an
# OpenAI tool call. Anything else stays text (`content`).
#
# The server does not rely on tolerance alone: it decodes under a **grammar** built from the tool
# schemas, which only admits `<tool_call>` blocks whose JSON fits a tool's parameters. Under that
# grammar (one call here), the model writes exactly the format of listing 7.14:

# %%
from toolkit.local.format.grammar import calls_grammar

with engine.lock:
    constrained = engine.generate(
        engine.tokenize(prompt["prompt"]),
        SamplingOptions(max_tokens=80),
        grammar=calls_grammar(body["tools"], max_calls=1),
    )
    constrained_text = constrained.consume().text
print(constrained_text)

# %%
from toolkit.local.format.parser import parse_tool_calls

for text in (free_text, constrained_text):
    parsed = parse_tool_calls(text, ["get_weather"])
    print("content:   ", parsed.content)
    print("tool_calls:", parsed.tool_calls)

# %% [markdown]
# Notice what the model did **not** write: an id. The ids (`call_` + 24 hex digits) are made up
# by the parser after generation — as the seed found in vLLM's Hermes parser, which Qwen2.5 uses
# — only to fit OpenAI's API format. Parse the same text twice and the ids differ:

# %%
first = parse_tool_calls(constrained_text, ["get_weather"]).tool_calls[0]["id"]
second = parse_tool_calls(constrained_text, ["get_weather"]).tool_calls[0]["id"]
print(first, second, first != second)

# %% [markdown]
# ## 6. Tool results in the prompt: `<tool_response>` blocks
#
# On the way back, the template renders an assistant message's calls as `<tool_call>` blocks and
# each `role: "tool"` message as a `<tool_response>` block inside a **user** turn. Consecutive
# tool messages — the results of parallel calls — merge into **one** user turn. Here is the start
# of the seed's conversation (listing 7.12), rendered over HTTP by the server:

# %%
seed_history = [
    {"role": "system", "content": "You are a helpful assistant"},
    {"role": "user", "content": "计算一下北京和西安的气温的总和"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "call_68107c19eab94580826e4d",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"location": "北京", "units": "celsius"}'},
            },
            {
                "id": "call_5beca6573c8a49dbb57d07",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"location": "西安", "units": "celsius"}'},
            },
        ],
    },
    {"role": "tool", "tool_call_id": "call_68107c19eab94580826e4d", "content": "6 摄氏度"},
    {"role": "tool", "tool_call_id": "call_5beca6573c8a49dbb57d07", "content": "5 摄氏度"},
]
history_prompt = http.post(
    "/prompt", json={"messages": seed_history, "tools": [add.description, get_weather.description]}
).json()["prompt"]
print(history_prompt[history_prompt.index("<|im_start|>user"):])

# %% [markdown]
# The two results became one user turn with two `<tool_response>` blocks, as in listing 7.15 —
# with one difference that is the embedded server's own: each result is written after **the call
# it answers**, `get_weather(location="北京", units="celsius") = 6 摄氏度`. A small model that reads
# bare results ("6 摄氏度", "5 摄氏度", "11") tends to answer with the first one it sees; told which
# call each result answers, it answers the question (the README gives the figures). The stock
# template alone, with no server in between, gives exactly listing 7.15:

# %%
stock = render_prompt(seed_history, [add.description, get_weather.description])
print(stock[stock.index("<|im_start|>user"):])

# %% [markdown]
# And the ids are gone: the model matches results to calls by their **order**, not by id (the
# server uses the ids, when they are there, to write each label). The ids only matter to the API,
# where every call must be answered by a tool message with its id.

# %%
print("ids in the prompt:", "call_68107c19eab94580826e4d" in history_prompt)

# %% [markdown]
# Once the tools have answered, the server writes the final answer from a prompt of its own: the
# question, this turn's labelled results, and a request for one sentence that states the result —
# without the tool definitions, which would only tempt a small model to call again.
#
# One more prompt of the server's own: when every tool offered is arithmetic (`add`, `subtract`,
# `multiply`, `divide`, or a calculator taking an expression), a word problem is not left to the
# model's next call. The server asks the model — in a prompt with no tools, under a grammar that
# admits only the question's numbers — to write the question as **one expression**, and the calls
# are that expression's operations, innermost first. This is the instruction it asks with:

# %%
from toolkit.local.decision.arithmetic import EXPRESSION_PROMPTS, read_plan

print(EXPRESSION_PROMPTS[0])
question = "我有200元，买了3张电影票，每张45元，剩下的钱平均分给4个朋友，每人能分到多少元？"
plan = read_plan("(200 - 3 * 45) / 4", question)
print([(step.operation, step.left, step.right) for step in plan.steps[:1]], plan.value)

# %% [markdown]
# Asked with those four tools, the first answer is the innermost operation, `multiply(3, 45)`;
# with its result in the conversation, the next is `subtract(200, 135)`, then `divide(65, 4)`:

# %%
arithmetic = [
    {
        "type": "function",
        "function": {
            "name": name,
            "description": f"{name.capitalize()} two numbers: a {sign} b.",
            "parameters": {
                "type": "object",
                "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                "required": ["a", "b"],
            },
        },
    }
    for name, sign in [("add", "+"), ("subtract", "-"), ("multiply", "*"), ("divide", "/")]
]
reply = http.post(
    "/chat/completions",
    json={
        "model": settings.model,
        "messages": [{"role": "user", "content": question}],
        "tools": arithmetic,
    },
).json()
print([c["function"] for c in reply["choices"][0]["message"]["tool_calls"]])
http.close()

# %% [markdown]
# ## Recap
#
# * **The wire**: `POST /v1/chat/completions` with `model`, `messages`, `tools`, `tool_choice`,
#   `parallel_tool_calls`, `temperature`. A reply's `choices[0]` holds the `message` (with
#   `content` and/or `tool_calls`: `id`, `type`, `function.name`, `function.arguments` as a JSON
#   *string*) and the `finish_reason` (`"tool_calls"`, `"stop"`, `"length"`).
# * **An agent** is a loop: post the history, run each requested tool, append the assistant
#   message and one `role: "tool"` message per call (with `tool_call_id`), post again until the
#   finish reason is `"stop"` — `toolkit.bare` in a few hundred lines of plain Python.
# * **The server** renders `messages` and `tools` with the model's chat template: tools in the
#   system turn inside `<tools>`, calls asked for as `<tool_call>` blocks, tool results as
#   `<tool_response>` blocks merged into one user turn (the embedded server labels each result
#   with its call). It parses the generated text back into `tool_calls`, inventing the ids; a
#   grammar from the tool schemas keeps the output parseable.
#
# That is the whole machinery behind `model.bind_tools(tools).invoke(question)`.
