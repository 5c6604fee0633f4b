"""Sub-commands of the ``toolkit`` CLI, one module each, registered in this order."""

from __future__ import annotations

from toolkit.commands import eval as _eval
from toolkit.commands import lint as _lint
from toolkit.commands import run as _run
from toolkit.commands import schema as _schema
from toolkit.commands import serve as _serve

__all__ = ["COMMAND_MODULES"]

COMMAND_MODULES: list = [_run, _eval, _schema, _lint, _serve]
