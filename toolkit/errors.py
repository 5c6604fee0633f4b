"""Every exception the toolkit raises, rooted in one base class.

The tree, split by whose fault it is::

    ToolkitError                      base of everything below
    ├── ConfigError                   the user's settings (.env, environment, arguments)
    ├── TargetError                   a CLI TARGET that cannot be found, parsed or imported
    ├── ToolDefinitionError           the developer's tool definition (collected, named per tool)
    ├── ModelError                    talking to a chat model
    │   └── EndpointError             unreachable endpoint, non-2xx answer, malformed body
    ├── LocalModelError               the embedded model: weights missing, checksum, corrupt file
    │   └── ContextWindowError        a prompt longer than the model's context window
    ├── PromptError                   a chat request the embedded model cannot take (HTTP 400)
    ├── ToolCallError                 the model's fault: a bad call, fed back to the model
    │   ├── UnknownToolError          a tool name that is not bound (lists the valid names)
    │   └── InvalidArgumentsError     arguments that are not JSON or do not fit the schema
    ├── ToolExecutionError            a tool raised or timed out (fed back to the model)
    │   └── ToolTimeoutError
    └── BudgetExceededError           the run's budget ran out (names the setting to raise)

The executor turns a failed tool call into a ``ToolMessage`` built from one of these errors
(``ToolCallError`` or ``ToolExecutionError``); ``execute_tool_call(..., raise_errors=True)``
raises it instead. ``LoopResult.raise_for_status()`` raises ``BudgetExceededError`` or
``ModelError`` for a run that did not answer.

Every message says what happened and what to do next. None of them ever contains an API key:
settings hold keys as :class:`pydantic.SecretStr` and no error is built from a secret.
"""

from __future__ import annotations

__all__ = [
    "BudgetExceededError",
    "ConfigError",
    "ContextWindowError",
    "EndpointError",
    "InvalidArgumentsError",
    "LocalModelError",
    "ModelError",
    "PromptError",
    "TargetError",
    "ToolCallError",
    "ToolDefinitionError",
    "ToolExecutionError",
    "ToolTimeoutError",
    "ToolkitError",
    "UnknownToolError",
]


class ToolkitError(Exception):
    """Base class of every error the toolkit raises on purpose."""


class ConfigError(ToolkitError):
    """A setting is missing or invalid; the message names the variable to set."""


class TargetError(ToolkitError):
    """A CLI TARGET (module, file or ``module:function``) cannot be found, parsed or imported."""


class ToolDefinitionError(ToolkitError):
    """A tool definition is unusable; problems are collected and raised once, naming the tool.

    Args:
        tool_name: The name of the tool whose definition is broken.
        problems: Each problem found, in a sentence that says how to fix it.
    """

    def __init__(self, tool_name: str, problems: list[str]) -> None:
        self.tool_name = tool_name
        self.problems = list(problems)
        lines = "\n".join(f"  {i}. {p}" for i, p in enumerate(self.problems, 1))
        super().__init__(f"tool {tool_name!r} cannot be used:\n{lines}")


class ModelError(ToolkitError):
    """Calling a chat model failed."""


class EndpointError(ModelError):
    """An OpenAI-compatible endpoint was unreachable or answered something unusable."""


class LocalModelError(ToolkitError):
    """The embedded local model cannot be loaded or served."""


class ContextWindowError(LocalModelError):
    """A prompt does not fit the embedded model's context window.

    Args:
        prompt_tokens: The prompt's length in tokens.
        n_ctx: The context window, in tokens.
    """

    def __init__(self, prompt_tokens: int, n_ctx: int) -> None:
        self.prompt_tokens = prompt_tokens
        self.n_ctx = n_ctx
        super().__init__(
            f"the prompt has {prompt_tokens} tokens but the context window is {n_ctx}; "
            "send fewer or shorter messages, or raise TOOLKIT_CONTEXT."
        )


class PromptError(ToolkitError):
    """A chat request cannot become a prompt or a grammar for the embedded model.

    Raised for malformed messages or tools and for a ``tool_choice`` that cannot be met; the
    message names the field to fix. The embedded server answers it with HTTP 400.
    """


class ToolCallError(ToolkitError):
    """The model made a call that cannot be executed; the message goes back to the model."""


class UnknownToolError(ToolCallError):
    """The model named a tool that is not bound.

    Args:
        name: The name the model used.
        valid_names: The names of the bound tools.
    """

    def __init__(self, name: str, valid_names: list[str]) -> None:
        self.name = name
        self.valid_names = list(valid_names)
        listed = ", ".join(self.valid_names) or "(no tools are bound)"
        super().__init__(f"Unknown tool {name!r}. Call one of: {listed}.")


class InvalidArgumentsError(ToolCallError):
    """The arguments of a call are not a JSON object that fits the tool's schema."""


class ToolExecutionError(ToolkitError):
    """A tool raised (the exception is the ``__cause__``) or ran past its timeout.

    The message is written for the model: what failed and what to try instead.
    """


class ToolTimeoutError(ToolExecutionError):
    """A tool ran past its timeout, or past the run's time budget."""


class BudgetExceededError(ToolkitError):
    """A run ended because a budget ran out; the message names the setting to raise.

    Args:
        message: What ran out and what to do.
        setting: The setting to raise (e.g. ``"max_model_calls"``).
    """

    def __init__(self, message: str, setting: str) -> None:
        self.setting = setting
        super().__init__(message)
