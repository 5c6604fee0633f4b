"""The embedded default model: our own OpenAI-compatible server on llama.cpp, in four layers.

Each layer imports only the layers above it in this list (a test pins the rule):

* :mod:`toolkit.local.format` — pure: the request data (:class:`~toolkit.local.format.job.
  ChatJob`), the chat template that renders the prompt, the grammars built from tool schemas
  and from response formats (:mod:`toolkit.local.format.structured`), the parser that turns
  ``<tool_call>`` text into OpenAI ``tool_calls``, JSON scanning, stop strings. Nothing here
  loads llama.cpp or a web server.
* :mod:`toolkit.local.runtime` — llama.cpp: the shipped weights, the engine (evaluate, generate
  under a grammar), the grammar sampler, prompt-lookup decoding, a CPU workaround.
* :mod:`toolkit.local.decision` — text or call: the prompt's nudges, the model's probabilities
  read as signals, grounding of calls in the conversation, and the decoding that applies them;
  every threshold lives in :class:`~toolkit.local.decision.policy.ToolPolicy`.
* :mod:`toolkit.local.server` — HTTP: the request protocol, the FastAPI app, and the runner that
  serves it in-process on loopback.

The names below are imported on first use, so importing a pure module (say
``toolkit.local.format.parser``) loads neither llama.cpp nor uvicorn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.lazy import lazy_exports

if TYPE_CHECKING:
    from toolkit.local.decision.policy import ToolPolicy
    from toolkit.local.format.grammar import calls_grammar, text_grammar
    from toolkit.local.format.parser import ParsedOutput, ToolCallStream, parse_tool_calls
    from toolkit.local.format.template import QWEN25_TEMPLATE, render_prompt
    from toolkit.local.server.runner import EmbeddedServer, shared_server, stop_shared_servers

_EXPORTS: dict[str, str] = {
    "EmbeddedServer": "toolkit.local.server.runner",
    "ParsedOutput": "toolkit.local.format.parser",
    "QWEN25_TEMPLATE": "toolkit.local.format.template",
    "ToolCallStream": "toolkit.local.format.parser",
    "ToolPolicy": "toolkit.local.decision.policy",
    "calls_grammar": "toolkit.local.format.grammar",
    "parse_tool_calls": "toolkit.local.format.parser",
    "render_prompt": "toolkit.local.format.template",
    "shared_server": "toolkit.local.server.runner",
    "stop_shared_servers": "toolkit.local.server.runner",
    "text_grammar": "toolkit.local.format.grammar",
}

__all__ = [
    "QWEN25_TEMPLATE",
    "EmbeddedServer",
    "ParsedOutput",
    "ToolCallStream",
    "ToolPolicy",
    "calls_grammar",
    "parse_tool_calls",
    "render_prompt",
    "shared_server",
    "stop_shared_servers",
    "text_grammar",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
