"""Test helpers for toolkit users and for its own tests: a scripted chat model and server."""

from toolkit.testing.model import ScriptedCall, ScriptedChatModel, chat_protocol_problems
from toolkit.testing.server import ScriptedServer

__all__ = ["ScriptedCall", "ScriptedChatModel", "ScriptedServer", "chat_protocol_problems"]
