"""Docstring linter: every pitfall that silently degrades the schema LangChain sends the model.

The linter reads source with :mod:`ast` and never imports it, so a file whose tools fail to
import because of these very pitfalls still gets a full report. For each tool it replays what
LangChain (``@tool``, ``StructuredTool.from_function``, ``convert_to_openai_tool``) does with
the docstring and the signature, and reports each problem with a rule code, ``file:line``,
what the model will see instead, and the fix. The replay follows langchain-core 1.x (checked
against 1.8.3; a property test compares it with LangChain's own docstring parser).

The package, from data to entry points:

* :mod:`~toolkit.lint.catalogue`: the rules (:data:`RULES`, with the table of every code), the
  :class:`Finding` data, and :class:`~toolkit.lint.catalogue.ToolSpec`, one tool as LangChain
  will build it;
* :mod:`~toolkit.lint.docstrings`: Google docstrings parsed the way LangChain parses them, with
  line numbers;
* :mod:`~toolkit.lint.signature`: a function's parameters read from its AST, and which of them
  LangChain hides from the model;
* :mod:`~toolkit.lint.source` and :mod:`~toolkit.lint.discovery`: which functions of a source
  file are tools (decorated, wrapped, bound, listed), and with which LangChain settings;
* :mod:`~toolkit.lint.layout`, :mod:`~toolkit.lint.parameters` and :mod:`~toolkit.lint.checks`:
  the checks, pure functions from a tool to its findings;
* :mod:`~toolkit.lint.report` (:func:`lint_source`, :func:`lint_paths`) and
  :mod:`~toolkit.lint.live` (:func:`lint_tools`): the entry points; a CLI TARGET is turned into
  files by :func:`toolkit.targets.source_files`;
* :mod:`~toolkit.lint.explain`: for a tool LangChain cannot convert, the exact ``toolkit lint``
  command that reports why (``toolkit schema`` names it in its error).

By default the tools are the functions a ``@tool`` decorator (LangChain's or another
framework's), a LangChain call (``bind_tools``, ``convert_to_openai_tool``, ``create_agent``,
``ToolNode``...) or a tools list makes tools, and, in a file named on its own that declares
none, every public function; :mod:`~toolkit.lint.discovery` says exactly which and how each is
read. The public functions left out are counted in :attr:`LintReport.not_linted`.
"""

from __future__ import annotations

from toolkit.lint.catalogue import RULES, Finding, NotLinted, Rule
from toolkit.lint.explain import Explanation, explain_file, explain_tool
from toolkit.lint.live import lint_tools
from toolkit.lint.report import LintReport, lint_paths, lint_source

__all__ = [
    "RULES",
    "Explanation",
    "Finding",
    "LintReport",
    "NotLinted",
    "Rule",
    "explain_file",
    "explain_tool",
    "lint_paths",
    "lint_source",
    "lint_tools",
]
