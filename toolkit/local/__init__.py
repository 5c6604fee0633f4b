"""The embedded default model: our own OpenAI-compatible server on llama.cpp.

The pure pieces (prompt template, grammar, tool-call parser) and the runner are re-exported here;
``toolkit.local.server.create_app`` and ``toolkit.local.engine`` load llama.cpp and stay behind
their own imports.
"""

from toolkit.local.grammar import build_grammar, calls_grammar, text_grammar
from toolkit.local.parser import ParsedOutput, ToolCallStream, new_call_id, parse_tool_calls
from toolkit.local.runner import EmbeddedServer, shared_server, stop_shared_servers
from toolkit.local.template import QWEN25_TEMPLATE, render_prompt

__all__ = [
    "QWEN25_TEMPLATE",
    "EmbeddedServer",
    "ParsedOutput",
    "ToolCallStream",
    "build_grammar",
    "calls_grammar",
    "new_call_id",
    "parse_tool_calls",
    "render_prompt",
    "shared_server",
    "stop_shared_servers",
    "text_grammar",
]
