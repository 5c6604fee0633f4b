"""``toolkit serve`` and ``toolkit prompt``: the embedded model's server, and what it reads.

``toolkit serve [--host H] [--port P] [--model PATH]`` serves the OpenAI-compatible API on
127.0.0.1 by default. Listening on any other interface requires ``TOOLKIT_SERVER_API_KEY``
(clients then send it as a Bearer token).

``toolkit prompt "question" [--tools MODULE] [--system TEXT] [--tool-choice C]`` prints the
exact prompt the embedded model reads for that question: its chat template with the tools
in the system turn and the server's decision nudge. The token count goes to stderr.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import sys

from rich.console import Console

from toolkit.config import LOCAL_MODEL_NAME, Settings, load_settings
from toolkit.errors import ConfigError, PromptError
from toolkit.wire import normalise_tool_choice

__all__ = ["is_loopback", "register"]


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``serve`` and ``prompt`` to the CLI.

    Args:
        subparsers: The top-level sub-parsers.
    """
    serve = subparsers.add_parser(
        "serve",
        help="serve the embedded model as an OpenAI-compatible API",
        description="Serve the embedded model at http://HOST:PORT/v1 (chat completions with "
        "tool calls, streaming, /v1/models, /health, /v1/prompt).",
    )
    serve.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--model", metavar="PATH", help="a GGUF file instead of the shipped model")
    serve.set_defaults(handler=_serve)

    prompt = subparsers.add_parser(
        "prompt",
        help="print the prompt the embedded model reads for a question",
        description="Render a question (with tools) into the exact prompt text the embedded "
        "model reads: its own chat template, the tools in the system turn, the decision nudge.",
    )
    prompt.add_argument("question", help="the user's question")
    prompt.add_argument(
        "--tools",
        metavar="MODULE",
        default="tools",
        help="module, file or module:NAME with the tools (default: tools)",
    )
    prompt.add_argument("--no-tools", action="store_true", help="render without tools")
    prompt.add_argument("--system", metavar="TEXT", help="a system message")
    prompt.add_argument(
        "--tool-choice",
        default="auto",
        metavar="CHOICE",
        help="auto (default), none, required or a tool name",
    )
    prompt.add_argument("--model", metavar="PATH", help="a GGUF file instead of the shipped model")
    prompt.set_defaults(handler=_prompt)


def is_loopback(host: str) -> bool:
    """Whether a host name or address only listens on this machine.

    Args:
        host: ``127.0.0.1``, ``::1``, ``localhost``, ``0.0.0.0``...

    Returns:
        True for loopback addresses and ``localhost``.
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _settings(args: argparse.Namespace) -> Settings:
    """The embedded model's settings: a provider configured for clients is not what is served,
    so its name and key stay out of the banner and the responses."""
    settings = load_settings()
    if not settings.is_local:
        settings = settings.with_overrides(
            provider="local", base_url=None, api_key=None, model=LOCAL_MODEL_NAME
        )
    if args.model:
        settings = settings.with_overrides(local_model_path=os.path.abspath(args.model))
    return settings


def _serve(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if not is_loopback(args.host) and settings.server_api_key is None:
        raise ConfigError(
            f"refusing to serve on {args.host!r} without an API key: anyone who can reach it "
            "could use the model. Set TOOLKIT_SERVER_API_KEY (clients send it as a Bearer "
            "token), or keep the default --host 127.0.0.1."
        )
    if not 0 < args.port < 65536:
        raise ConfigError(f"--port {args.port} is not a valid port; use 1-65535.")
    from toolkit.local.server.runner import EmbeddedServer  # loads llama.cpp

    console = Console(stderr=True, highlight=False)
    server = EmbeddedServer(settings, host=args.host, port=args.port)
    with console.status("loading the embedded model…", spinner="dots"):
        server.start()
    console.print(f"serving [bold]{settings.model}[/] at [bold]{server.base_url}[/] (Ctrl-C stops)")
    try:
        server.wait()
    except KeyboardInterrupt:
        console.print("stopping")
    finally:
        server.stop()
    return 0


def _prompt(args: argparse.Namespace) -> int:
    from toolkit.local.decision.policy import ToolPolicy
    from toolkit.local.decision.prompt import build_prompt
    from toolkit.local.runtime.engine import Engine
    from toolkit.local.runtime.weights import resolve_model_path
    from toolkit.local.server.protocol import parse_chat_request
    from toolkit.schema import tool_schema
    from toolkit.targets import import_from_working_directory, load_targets

    import_from_working_directory()
    tools = None if args.no_tools else [tool_schema(o) for o in load_targets(args.tools)]
    messages = [{"role": "system", "content": args.system}] if args.system else []
    messages.append({"role": "user", "content": args.question})
    try:
        choice = normalise_tool_choice(args.tool_choice)
    except ValueError as exc:
        raise ConfigError(f"--tool-choice: {exc}") from None
    payload = {"messages": messages, "tool_choice": choice}
    if tools:
        payload["tools"] = tools
    try:
        job, _ = parse_chat_request(payload)  # the server's own reading of a request
    except PromptError as exc:
        if getattr(exc, "param", None) != "tool_choice":
            raise
        raise PromptError(f"--tool-choice {args.tool_choice!r}: {exc}") from None
    vocabulary = Engine(resolve_model_path(_settings(args)), vocab_only=True)
    text = build_prompt(job, ToolPolicy(), vocabulary.chat_template)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    Console(stderr=True, highlight=False).print(f"[dim]{vocabulary.count_tokens(text)} tokens[/]")
    return 0
