"""The linter's catalogue: its rules, its findings, and tools as LangChain will build them.

A :class:`ToolSpec` is produced from source (:mod:`toolkit.lint.discovery`) or from a live
object (:mod:`toolkit.lint.live`); the checks in :mod:`toolkit.lint.checks` turn it into
:class:`Finding` objects, each carrying a rule code of :data:`RULES`.

Rules (severity ``error`` unless marked; errors make ``toolkit lint`` exit 1):

=====  =========================================================================================
TK100  a file found while walking a directory does not parse (a file named on the command line
       that does not parse is a usage error instead)
TK101  no docstring (LangChain raises, or the description is empty), or no summary before Args:
TK102  ``Args:`` with no blank line before it: folded into the description, or LangChain raises
       ``Found invalid Google-Style docstring.``
TK103  header LangChain does not recognise: ``args:``, ``Arguments:``, ``Params:``,
       ``Parameters:``, ``Arg:``, misspellings, an indented ``Args:``, NumPy or reST fields
TK104  a parameter the model sees has no description
TK105  ``Args:`` documents a name that is not a parameter (``Arg x in docstring not found ...``)
TK106  a documented parameter has no type annotation (LangChain raises the same error)
TK107  a parameter without annotation: the model sees the empty schema ``{}``
TK108  ``@tool`` / ``from_function`` / agent tools without ``parse_docstring=True``: the whole
       docstring becomes the description and no parameter gets one
TK109  a parameter named ``_x``: dropped from the schema (warning when it has a default)
TK110  ``Returns:``/``Raises:``... right after the last argument: read as an argument, raises
TK111  ``name(type):`` without a space: read as the name ``name(type)``, raises
TK112  a blank line inside ``Args:``: LangChain stops reading there (warning when only
       description text is lost)
TK113  a tool name outside ``^[a-zA-Z0-9_-]{1,64}$`` (also ``@tool("my tool")``, ``name=``)
TK114  two tools with the same name in one file (or one package); method tools are compared
       with the other methods of their class only
TK115  warning: a one-word, empty or name-repeating description (tool or argument)
TK116  warning: a list/dict/set default value
TK117  warning: a section before ``Args:`` (``Raises:``, ``Note:``...) folded into the description
=====  =========================================================================================
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["RULES", "Finding", "NotLinted", "Param", "Rule", "ToolSpec", "finding"]


@dataclass(frozen=True)
class Rule:
    """One lint rule.

    Args:
        code: Its code, ``TK1xx``.
        name: A short slug.
        severity: ``"error"`` (exit status 1) or ``"warning"``; a finding may differ where
            the rule's summary says so.
        summary: What the rule finds.
    """

    code: str
    name: str
    severity: str
    summary: str


_RULE_LIST = (
    Rule("TK100", "unparsable-file", "error", "a file found in a directory does not parse"),
    Rule("TK101", "no-docstring", "error", "tool without a docstring or without a summary"),
    Rule("TK102", "args-not-separated", "error", "no blank line before `Args:`"),
    Rule("TK103", "bad-args-header", "error", "`args:`, `Arguments:`, `Params:`, reST/NumPy"),
    Rule("TK104", "param-undocumented", "error", "a parameter the model sees has no description"),
    Rule("TK105", "documented-not-in-signature", "error", "`Args:` names a missing parameter"),
    Rule("TK106", "documented-not-annotated", "error", "documented parameter without a type"),
    Rule("TK107", "param-not-annotated", "error", "parameter without annotation: schema `{}`"),
    Rule("TK108", "no-parse-docstring", "error", "`@tool` without `parse_docstring=True`"),
    Rule("TK109", "underscore-param", "error", "`_name` parameter dropped (warning: default)"),
    Rule("TK110", "section-after-args", "error", "`Returns:` etc. right after the last arg"),
    Rule("TK111", "type-without-space", "error", "`name(type):` instead of `name (type):`"),
    Rule("TK112", "blank-line-in-args", "error", "blank line inside `Args:` (warning: text)"),
    Rule("TK113", "invalid-tool-name", "error", "tool name outside ^[a-zA-Z0-9_-]{1,64}$"),
    Rule("TK114", "duplicate-tool-name", "error", "two tools with the same name"),
    Rule("TK115", "vague-description", "warning", "one-word or empty description"),
    Rule("TK116", "mutable-default", "warning", "list/dict/set default value"),
    Rule("TK117", "section-in-description", "warning", "section before `Args:` is folded"),
)
#: Every rule, by code.
RULES: dict[str, Rule] = {rule.code: rule for rule in _RULE_LIST}


@dataclass(frozen=True)
class Finding:
    """One problem in one tool definition.

    Args:
        code: The rule code (see :data:`RULES`).
        severity: ``"error"`` or ``"warning"``.
        path: The file.
        line: The 1-based line of the cause.
        tool: The tool's name (or its function's name).
        message: What is wrong and what the model will see instead.
        fix: How to fix it.
    """

    code: str
    severity: str
    path: str
    line: int
    tool: str
    message: str
    fix: str

    def to_dict(self) -> dict[str, object]:
        """Return the finding as a JSON-ready dict."""
        return asdict(self)


@dataclass(frozen=True)
class NotLinted:
    """A public module-level function that was not linted: nothing in its file makes it a tool.

    Args:
        path: The file.
        line: The ``def`` line.
        function: The function's name.
    """

    path: str
    line: int
    function: str

    def to_dict(self) -> dict[str, object]:
        """Return it as a JSON-ready dict."""
        return asdict(self)


@dataclass(frozen=True)
class Param:
    """One function parameter, as far as the schema is concerned.

    Args:
        name: Its name as written (``args`` for ``*args``).
        line: Its line.
        kind: ``"normal"``, ``"var_positional"`` or ``"var_keyword"``.
        annotation: The annotation's source text, or None.
        has_default: Whether it has a default.
        mutable_default: The default's source text when it is a list/dict/set, else None.
        annotated_description: A description from ``Annotated[..., "text"]`` or
            ``Field(description=...)``, else None.
        hidden: Why LangChain never shows it to the model, or None when it is shown.
    """

    name: str
    line: int
    kind: str = "normal"
    annotation: str | None = None
    has_default: bool = False
    mutable_default: str | None = None
    annotated_description: str | None = None
    hidden: str | None = None


@dataclass(frozen=True)
class ToolSpec:
    """One tool as LangChain will build it.

    Args:
        name: The tool name, or None when it is not a literal.
        function: The function (or class) name.
        path: The file.
        line: The ``def`` (or ``class``/call) line.
        name_line: The line that sets the name.
        anchor_line: The line that makes it a tool (decorator, call, list).
        origin: How it becomes a tool, in words (``@tool(parse_docstring=True)`` ...).
        parse: Whether the docstring is parsed for argument descriptions.
        raise_invalid: Whether LangChain raises on an invalid Google docstring.
        docstring: The raw docstring literal, or None.
        doc_line: The line where the docstring literal starts.
        description: An explicit ``description=`` literal, if any.
        description_given: Whether a description is passed explicitly.
        infer_params: False when the parameters come from ``args_schema`` instead.
        params: The function's parameters.
        returns_annotated: Whether the return type is annotated.
        params_known: False for classes and ``Tool`` objects (name and description only).
        owner: The class a method tool is defined in, None elsewhere.
    """

    name: str | None
    function: str
    path: str
    line: int
    name_line: int
    anchor_line: int
    origin: str
    parse: bool = True
    raise_invalid: bool = False
    docstring: str | None = None
    doc_line: int = 0
    description: str | None = None
    description_given: bool = False
    infer_params: bool = True
    params: tuple[Param, ...] = ()
    returns_annotated: bool = False
    params_known: bool = True
    owner: str | None = None


def finding(
    spec: ToolSpec, code: str, line: int, message: str, fix: str, severity: str = ""
) -> Finding:
    """Make a finding about one tool.

    Args:
        spec: The tool.
        code: The rule code.
        line: The 1-based line of the cause.
        message: What is wrong and what the model will see instead.
        fix: How to fix it.
        severity: Overrides the rule's severity when given.

    Returns:
        The finding, named after the tool (or its function when the name is not known).
    """
    return Finding(
        code=code,
        severity=severity or RULES[code].severity,
        path=spec.path,
        line=line,
        tool=spec.name or spec.function,
        message=message,
        fix=fix,
    )
