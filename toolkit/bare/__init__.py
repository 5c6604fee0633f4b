"""The same agent with no LangChain at all: raw HTTP, pydantic and a loop (seed: tinyLangChain).

Three pieces, one module each, each small enough to read in one sitting:

* ``tool.py``: :func:`tool` turns a function into a :class:`Tool`: its OpenAI description dict
  (what ``convert_to_openai_tool`` produces for a ``@tool(parse_docstring=True)``) and
  :meth:`Tool.invoke`, which validates the model's arguments and returns a ``role: tool``
  message — bad JSON, wrong arguments and a failing tool become error *content* fed back to the
  model, never exceptions.
* ``client.py``: :class:`LLM` POSTs to ``<base_url>/chat/completions`` with ``tools``,
  ``tool_choice`` and ``parallel_tool_calls`` (not the deprecated ``function_call``), using the
  toolkit's settings.
* ``agent.py``: :class:`Agent` keeps the history (the request's ``messages``) and yields it as it
  grows.

What changed from the seed's prototype: an unknown tool name or malformed call is answered with a
tool message instead of a ``KeyError``; tool messages carry ``tool_call_id`` (the seed's extra
``tool_name`` key is not part of the API and is left out); ``finish_reason`` values other than
``stop``/``tool_calls`` end the run with a stated reason; a step limit ends endless tool calling;
every tool call in the history gets exactly one tool message, so the history stays valid.
"""

from toolkit.bare.agent import Agent, create_agent
from toolkit.bare.client import LLM
from toolkit.bare.tool import Tool, tool

__all__ = ["Agent", "LLM", "Tool", "create_agent", "tool"]  # noqa: RUF022 (plain sorted order)
