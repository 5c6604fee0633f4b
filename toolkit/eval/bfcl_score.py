"""Our own implementation of BFCL's AST checking rules, plus JSON-schema validity of calls.

Pure functions: a case's function docs, its accepted answer and the calls a model made go in, a
:class:`Verdict` comes out. Calls carry the original BFCL function names (dotted names mapped
back from the ``_`` form sent to the model).

The rules, as BFCL documents them for its AST categories:

1. **Count.** ``simple`` and ``multiple`` cases need exactly one call; ``parallel`` cases
   (``parallel``, ``parallel_multiple``) exactly as many calls as the answer lists.
2. **Function.** The call names the expected function (for ``multiple``: the right one of
   several offered).
3. **Required.** Every parameter the doc marks ``required`` is present.
4. **No unknown parameters.** Every argument is a parameter of the doc *and* appears in the
   answer (an argument the answer does not mention is an error).
5. **Types, exactly.** ``string`` is a string, ``integer`` an int (a bool is not an int),
   ``boolean`` a bool, ``array``/``tuple``/``list`` a list whose items have the item type,
   ``dict`` an object whose known keys have their types, ``any`` anything; an int is accepted
   where a ``float`` is expected (at any depth). BFCL's "variable" allowance: when an accepted
   answer itself is not of the declared type (``None``, or a variable name written as a string
   for an array), a value of that answer's type passes the type check and is then compared.
6. **Value.** The value equals one of the accepted answers. Strings are compared after BFCL's
   normalisation: whitespace and the characters ``, . / - _ * ^`` removed, lower case,
   ``'`` read as ``"`` (so "April 1, 2024" == "april 1 2024"). Lists compare item by item in
   order (strings inside normalised). A dict matches one accepted dict when each of its keys is
   an accepted key with an accepted value and each accepted key it lacks allows ``""``
   (dicts nested inside accepted values compare as plain dicts).
   Numbers compare by value where a float is expected (``2 == 2.0``), otherwise by type and value.
7. **Optional.** ``""`` among a parameter's accepted answers means it may be omitted; an answer
   parameter without ``""`` must be given even if the doc does not require it.
8. **Parallel is unordered.** Each expected call must be matched to a *distinct* produced call
   that passes rules 2-7 for it. We search for a full matching (augmenting paths), so a
   valid assignment is never missed because of the order of the calls; BFCL takes the first
   fitting call greedily, which can only reject more.
9. **Irrelevance** passes when no call is made (an attempted call whose arguments are not JSON
   still counts as a call); **relevance** passes when at least one call is made.

A call is *schema-valid* when it names an offered tool and its arguments validate against that
tool's converted JSON schema (:func:`schema_valid`, using ``jsonschema``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator

__all__ = ["Call", "Verdict", "normalize_string", "schema_valid", "score_case"]

_STRIPPED = re.compile(r"[\s,./\-_*^]")
_FLOAT_TYPES = {"float", "number"}
_ARRAY_TYPES = {"array", "tuple", "list"}
_DICT_TYPES = {"dict", "object"}


@dataclass(frozen=True)
class Call:
    """One call a model made.

    Attributes:
        name: The original BFCL function name (or the unknown name the model used).
        arguments: The arguments; ``None`` when they were not a JSON object.
    """

    name: str
    arguments: Mapping[str, Any] | None


@dataclass(frozen=True)
class Verdict:
    """The outcome of scoring one case.

    Attributes:
        passed: Whether the case passed.
        reason: Why it failed, in one sentence; empty when it passed.
    """

    passed: bool
    reason: str = ""


def normalize_string(text: str) -> str:
    """Normalise a string the way BFCL compares them.

    Args:
        text: Any string.

    Returns:
        The string without whitespace and ``, . / - _ * ^``, lower-cased, ``'`` turned to ``"``.
    """
    return _STRIPPED.sub("", text).lower().replace("'", '"')


def _has_type(value: Any, schema: Mapping[str, Any]) -> bool:
    kind = schema.get("type", "string")
    if kind == "any":
        return True
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return type(value) is int
    if kind in _FLOAT_TYPES:
        return type(value) in (int, float)
    if kind in ("boolean", "bool"):
        return type(value) is bool
    if kind in _ARRAY_TYPES:
        items = schema.get("items")
        return isinstance(value, list) and (
            not isinstance(items, Mapping) or all(_has_type(item, items) for item in value)
        )
    if kind in _DICT_TYPES:
        props = schema.get("properties") or {}
        return isinstance(value, dict) and all(
            _has_type(sub, props[key]) for key, sub in value.items() if key in props
        )
    return False


def _equal(value: Any, answer: Any, schema: Mapping[str, Any], plain: bool = False) -> bool:
    """Compare a value with one accepted answer.

    Dicts directly under a parameter (or in its list) are in accepted form,
    ``{key: [accepted values]}``; dicts inside those accepted values are ``plain``.
    """
    if isinstance(value, str) and isinstance(answer, str):
        return normalize_string(value) == normalize_string(answer)
    if isinstance(value, list) and isinstance(answer, list):
        items = schema.get("items") if isinstance(schema.get("items"), Mapping) else {}
        return len(value) == len(answer) and all(
            _equal(got, want, items, plain) for got, want in zip(value, answer, strict=True)
        )
    if isinstance(value, dict) and isinstance(answer, dict):
        if not plain:
            return _dict_matches(value, answer, schema)
        props = schema.get("properties") or {}
        return value.keys() == answer.keys() and all(
            _equal(sub, answer[key], props.get(key, {}), True) for key, sub in value.items()
        )
    numeric = (int, float)
    if schema.get("type") in _FLOAT_TYPES and type(value) in numeric and type(answer) in numeric:
        return float(value) == float(answer)
    return type(value) is type(answer) and value == answer


def _dict_matches(value: Mapping[str, Any], answer: Mapping[str, Any], schema: Mapping) -> bool:
    props = schema.get("properties") or {}
    for key, sub in value.items():
        accepted = answer.get(key)
        if not isinstance(accepted, list) or not _matches_any(
            sub, accepted, props.get(key, {}), plain=True
        ):
            return False
    return all(key in value or "" in accepted for key, accepted in answer.items())


def _matches_any(
    value: Any, accepted: Sequence[Any], schema: Mapping[str, Any], plain: bool = False
) -> bool:
    return any(_equal(value, answer, schema, plain) for answer in accepted)


def _check_value(param: str, schema: Mapping[str, Any], value: Any, accepted: list) -> str:
    off_type = {type(a) for a in accepted if a != "" and not _has_type(a, schema)}
    if not _has_type(value, schema) and type(value) not in off_type:
        return (
            f"parameter {param!r} should be {schema.get('type', 'string')}, "
            f"got {type(value).__name__} {value!r}"
        )
    if not _matches_any(value, accepted, schema):
        shown = [answer for answer in accepted if answer != ""]
        if not shown:
            return f"parameter {param!r} = {value!r} should be left out"
        return f"parameter {param!r} = {value!r} is not one of {shown!r}"
    return ""


def _check_call(function: Mapping[str, Any], expected: Mapping[str, list], call: Call) -> str:
    """Return why ``call`` does not match the expected call to ``function`` ("" if it does)."""
    name = function["name"]
    if call.name != name:
        return f"called {call.name!r} instead of {name!r}"
    if call.arguments is None:
        return f"the arguments of {name!r} are not a JSON object"
    params = function.get("parameters") or {}
    props = params.get("properties") or {}
    for param in params.get("required") or []:
        if param not in call.arguments:
            return f"{name}: required parameter {param!r} is missing"
    for param, value in call.arguments.items():
        if param not in props:
            return f"{name}: unknown parameter {param!r}"
        if param not in expected:
            return f"{name}: parameter {param!r} is not expected"
        problem = _check_value(param, props[param], value, expected[param])
        if problem:
            return f"{name}: {problem}"
    for param, accepted in expected.items():
        if param not in call.arguments and "" not in accepted:
            return f"{name}: parameter {param!r} is missing (expected one of {accepted!r})"
    return ""


def _find_function(functions: Sequence[Mapping[str, Any]], name: str) -> Mapping[str, Any]:
    for function in functions:
        if function["name"] == name:
            return function
    return {"name": name, "parameters": {"properties": {}, "required": []}}


def _expected(functions: Sequence[Mapping], answer: Sequence[Mapping]) -> list[tuple]:
    pairs = []
    for entry in answer:
        ((name, params),) = entry.items()
        pairs.append((_find_function(functions, name), params))
    return pairs


def _match_all(expected: list[tuple], calls: Sequence[Call]) -> str:
    """Match each expected call to a distinct call (augmenting paths); return "" or why not."""
    fits = [[not _check_call(fn, params, call) for call in calls] for fn, params in expected]
    owner: dict[int, int] = {}

    def assign(want: int, tried: set[int]) -> bool:
        for got, ok in enumerate(fits[want]):
            if ok and got not in tried:
                tried.add(got)
                if got not in owner or assign(owner[got], tried):
                    owner[got] = want
                    return True
        return False

    for want, (function, params) in enumerate(expected):
        if assign(want, set()):
            continue
        if any(fits[want]):
            detail = "the calls that fit it are needed for other expected calls"
        else:
            same_name = [call for call in calls if call.name == function["name"]]
            detail = _check_call(function, params, (same_name or list(calls))[0])
        return f"expected call {want + 1} ({function['name']}) unmatched: {detail}"
    return ""


def score_case(
    kind: str,
    functions: Sequence[Mapping[str, Any]],
    answer: Sequence[Mapping[str, Mapping[str, list]]],
    calls: Sequence[Call],
) -> Verdict:
    """Score one case by the rules in this module's docstring.

    Args:
        kind: ``simple``, ``multiple``, ``parallel``, ``irrelevance`` or ``relevance``.
        functions: The case's original BFCL function docs.
        answer: The accepted calls, each ``{function: {param: [acceptable values]}}``.
        calls: The calls the model made, with original function names.

    Returns:
        The verdict, with the first reason for a failure.

    Raises:
        ValueError: ``kind`` is not one of the kinds above.
    """
    if kind == "irrelevance":
        if calls:
            return Verdict(False, f"made {len(calls)} call(s) where none fits")
        return Verdict(True)
    if kind == "relevance":
        return Verdict(bool(calls), "" if calls else "made no call where one fits")
    if kind not in {"simple", "multiple", "parallel"}:
        raise ValueError(f"unknown BFCL case kind {kind!r}")
    expected = _expected(functions, answer)
    if len(calls) != len(expected):
        return Verdict(False, f"expected {len(expected)} call(s), got {len(calls)}")
    if kind == "parallel":
        reason = _match_all(expected, calls)
    else:
        reason = _check_call(*expected[0], calls[0])
    return Verdict(not reason, reason)


def schema_valid(tools: Sequence[Mapping[str, Any]], name: str, arguments: Any) -> bool:
    """Whether a call names an offered tool and its arguments fit that tool's JSON schema.

    Args:
        tools: The OpenAI tools offered to the model.
        name: The tool name as the model sent it.
        arguments: The parsed arguments (``None`` when they were not JSON).

    Returns:
        True when the call is schema-valid.
    """
    for tool in tools:
        function = tool["function"]
        if function["name"] == name:
            if not isinstance(arguments, Mapping):
                return False
            return Draft202012Validator(function["parameters"]).is_valid(dict(arguments))
    return False
