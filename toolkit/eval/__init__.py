"""Measure tool-calling accuracy: BFCL cases, our own AST scorer, a runner and a report."""

from __future__ import annotations

from toolkit.eval.bfcl_data import (
    BFCL_INSTALL_COMMAND,
    CATEGORIES,
    DEFAULT_CATEGORIES,
    BfclCase,
    load_cases,
    to_openai_tool,
)
from toolkit.eval.bfcl_score import Call, Verdict, normalize_string, schema_valid, score_case
from toolkit.eval.report import CategorySummary, report_dict, summarize, summary_table
from toolkit.eval.runner import CaseResult, run_case, run_cases

__all__ = [
    "BFCL_INSTALL_COMMAND",
    "CATEGORIES",
    "DEFAULT_CATEGORIES",
    "BfclCase",
    "Call",
    "CaseResult",
    "CategorySummary",
    "Verdict",
    "load_cases",
    "normalize_string",
    "report_dict",
    "run_case",
    "run_cases",
    "schema_valid",
    "score_case",
    "summarize",
    "summary_table",
    "to_openai_tool",
]
