"""toolkit: OpenAI-style tool calling on LangChain, offline by default.

The public surface is what ``__all__`` lists; everything else is private and may change.
Names are imported on first use (PEP 562), so ``import toolkit`` stays cheap and the CLI's
``schema`` and ``lint`` verbs do not pay for LangChain's chat-model stack or llama.cpp.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.lazy import lazy_exports

if TYPE_CHECKING:
    from toolkit.config import Settings, load_settings
    from toolkit.errors import (
        BudgetExceededError,
        ConfigError,
        EndpointError,
        InvalidArgumentsError,
        LocalModelError,
        ModelError,
        PromptError,
        TargetError,
        ToolCallError,
        ToolDefinitionError,
        ToolExecutionError,
        ToolkitError,
        ToolTimeoutError,
        UnknownToolError,
    )
    from toolkit.lint import Finding, LintReport, lint_paths, lint_source, lint_tools
    from toolkit.loop import (
        LoopResult,
        LoopStatus,
        TokenUsage,
        ToolLoop,
        execute_tool_call,
        execute_tool_calls,
        to_openai_messages,
    )
    from toolkit.models import load_chat_model
    from toolkit.schema import parameters_table, tool_schema

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "BudgetExceededError": "toolkit.errors",
    "ConfigError": "toolkit.errors",
    "EndpointError": "toolkit.errors",
    "Finding": "toolkit.lint",
    "InvalidArgumentsError": "toolkit.errors",
    "LintReport": "toolkit.lint",
    "LocalModelError": "toolkit.errors",
    "LoopResult": "toolkit.loop",
    "LoopStatus": "toolkit.loop",
    "ModelError": "toolkit.errors",
    "PromptError": "toolkit.errors",
    "Settings": "toolkit.config",
    "TargetError": "toolkit.errors",
    "TokenUsage": "toolkit.loop",
    "ToolCallError": "toolkit.errors",
    "ToolDefinitionError": "toolkit.errors",
    "ToolExecutionError": "toolkit.errors",
    "ToolLoop": "toolkit.loop",
    "ToolTimeoutError": "toolkit.errors",
    "ToolkitError": "toolkit.errors",
    "UnknownToolError": "toolkit.errors",
    "execute_tool_call": "toolkit.loop",
    "execute_tool_calls": "toolkit.loop",
    "lint_paths": "toolkit.lint",
    "lint_source": "toolkit.lint",
    "lint_tools": "toolkit.lint",
    "load_chat_model": "toolkit.models",
    "load_settings": "toolkit.config",
    "parameters_table": "toolkit.schema",
    "to_openai_messages": "toolkit.loop",
    "tool_schema": "toolkit.schema",
}

__all__ = [
    "BudgetExceededError",
    "ConfigError",
    "EndpointError",
    "Finding",
    "InvalidArgumentsError",
    "LintReport",
    "LocalModelError",
    "LoopResult",
    "LoopStatus",
    "ModelError",
    "PromptError",
    "Settings",
    "TargetError",
    "TokenUsage",
    "ToolCallError",
    "ToolDefinitionError",
    "ToolExecutionError",
    "ToolLoop",
    "ToolTimeoutError",
    "ToolkitError",
    "UnknownToolError",
    "execute_tool_call",
    "execute_tool_calls",
    "lint_paths",
    "lint_source",
    "lint_tools",
    "load_chat_model",
    "load_settings",
    "parameters_table",
    "to_openai_messages",
    "tool_schema",
]


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
