"""Sub-commands of the ``toolkit`` CLI, one module each, registered in this order."""

from __future__ import annotations

COMMAND_MODULES: list = []
