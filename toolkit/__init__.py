"""toolkit: OpenAI-style tool calling on LangChain, offline by default.

The public surface is what ``__all__`` lists; everything else is private and may change.
"""

from toolkit.config import Settings, load_settings
from toolkit.errors import (
    BudgetExceededError,
    ConfigError,
    EndpointError,
    InvalidArgumentsError,
    LocalModelError,
    ModelError,
    TargetError,
    ToolCallError,
    ToolDefinitionError,
    ToolExecutionError,
    ToolkitError,
    ToolTimeoutError,
    UnknownToolError,
)
from toolkit.models import load_chat_model

__all__ = [
    "BudgetExceededError",
    "ConfigError",
    "EndpointError",
    "InvalidArgumentsError",
    "LocalModelError",
    "ModelError",
    "Settings",
    "TargetError",
    "ToolCallError",
    "ToolDefinitionError",
    "ToolExecutionError",
    "ToolTimeoutError",
    "ToolkitError",
    "UnknownToolError",
    "load_chat_model",
    "load_settings",
]
