"""Rich rendering of schemas, lint findings, messages and transcripts.

Every function takes a :class:`rich.console.Console` (or returns a renderable), so output is
coloured on a terminal and plain when piped.
"""

from __future__ import annotations

__all__: list[str] = []
