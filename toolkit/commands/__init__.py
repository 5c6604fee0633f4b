"""Sub-commands of the ``toolkit`` CLI, one module each, registered in this order."""

from __future__ import annotations

from toolkit.commands import eval as _eval
from toolkit.commands import lint as _lint
from toolkit.commands import run as _run
from toolkit.commands import schema as _schema

COMMAND_MODULES: list = [_run, _eval, _schema, _lint]
