"""Arithmetic: the seed's ``add``, ``subtract``, ``multiply`` and a bounded calculator.

``calculate`` parses the expression with :func:`ast.parse` and evaluates only the node types it
knows (numbers, + - * / // % **, unary signs, parentheses and a short list of math functions and
constants). Nothing is ever passed to ``eval``: a name, an attribute, a call to anything outside the
list or any other syntax is refused. Work is bounded before it is done: the input length, the
nesting depth, the number of nodes, the size of every intermediate integer (in bits) and the
exponent of every power are checked first, so ``9**9**9`` is refused in microseconds instead of
running for hours. Refusals raise :class:`~langchain_core.tools.ToolException` with a message that
says what to change.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable

from langchain_core.tools import ToolException, tool

__all__ = [
    "MAX_EXPRESSION_LENGTH",
    "MAX_INTEGER_BITS",
    "add",
    "calculate",
    "multiply",
    "subtract",
]

#: Longest expression accepted, in characters.
MAX_EXPRESSION_LENGTH = 500
#: Deepest nesting of operations accepted.
MAX_DEPTH = 40
#: Most syntax-tree nodes accepted.
MAX_NODES = 400
#: Largest integer allowed anywhere in a calculation, in bits (about 1,233 decimal digits).
MAX_INTEGER_BITS = 4096

_CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "tau": math.tau}

_FUNCTIONS: dict[str, Callable[..., float]] = {
    "abs": abs,
    "round": round,
    "min": min,
    "max": max,
    "sqrt": math.sqrt,
    "exp": math.exp,
    "log": math.log,
    "log10": math.log10,
    "log2": math.log2,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "floor": math.floor,
    "ceil": math.ceil,
}

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}

_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//"}
_SYMBOLS.update({ast.Mod: "%", ast.Pow: "**"})


@tool(parse_docstring=True)
def add(x: int, y: int) -> int:
    """Add two integers and return their sum, x + y.

    Args:
        x: The first integer to add, e.g. 6.
        y: The second integer to add, e.g. 5.

    Returns:
        The sum x + y.
    """
    return x + y


@tool(parse_docstring=True)
def subtract(x: float, y: float) -> float:
    """Subtract one number from another and return the difference, x - y.

    Args:
        x: The number to subtract from, e.g. 12.
        y: The number to subtract, e.g. 5.

    Returns:
        The difference x - y.
    """
    return _plain(x - y)


@tool(parse_docstring=True)
def multiply(x: float, y: float) -> float:
    """Multiply two numbers and return their product, x * y.

    Args:
        x: The first factor, e.g. 8.
        y: The second factor, e.g. 3.

    Returns:
        The product x * y.
    """
    return _plain(x * y)


def _plain(value: float) -> float:
    """A whole number as an int (12, not 12.0), anything else rounded to 10 places."""
    rounded = round(value, 10)
    return int(rounded) if rounded == int(rounded) else rounded


def _refuse(reason: str) -> ToolException:
    return ToolException(f"Cannot calculate: {reason}")


def _check_int(value: float) -> float:
    if isinstance(value, int) and value.bit_length() > MAX_INTEGER_BITS:
        raise _refuse(f"a result exceeds {MAX_INTEGER_BITS} bits; use smaller numbers.")
    return value


def _check_power(base: float, exponent: float) -> None:
    if isinstance(base, int) and isinstance(exponent, int) and exponent > 0 and abs(base) > 1:
        if (abs(base).bit_length() - 1) * exponent > MAX_INTEGER_BITS:
            raise _refuse(
                f"{base} ** {exponent} would exceed {MAX_INTEGER_BITS} bits; "
                "use a smaller exponent or a float base such as 2.0."
            )


def _check_product(left: float, right: float) -> None:
    if isinstance(left, int) and isinstance(right, int):
        if left.bit_length() + right.bit_length() > MAX_INTEGER_BITS + 1:
            raise _refuse(f"a product would exceed {MAX_INTEGER_BITS} bits; use smaller numbers.")


def _binary(node: ast.BinOp, depth: int) -> float:
    op = type(node.op)
    if op not in _BINARY:
        raise _refuse(
            f"the operator {type(node.op).__name__} is not supported; use + - * / // % **."
        )
    left = _evaluate(node.left, depth + 1)
    right = _evaluate(node.right, depth + 1)
    if op is ast.Pow:
        _check_power(left, right)
    elif op is ast.Mult:
        _check_product(left, right)
    try:
        return _check_int(_BINARY[op](left, right))
    except ZeroDivisionError:
        raise _refuse(f"division by zero in {left} {_SYMBOLS[op]} {right}.") from None
    except OverflowError:
        raise _refuse(f"{left} {_SYMBOLS[op]} {right} is too large for a float.") from None


def _call(node: ast.Call, depth: int) -> float:
    name = node.func.id if isinstance(node.func, ast.Name) else None
    if name not in _FUNCTIONS:
        shown = name or ast.unparse(node.func)[:40]
        raise _refuse(f"unknown function {shown!r}; available: {', '.join(_FUNCTIONS)}.")
    if node.keywords:
        raise _refuse(f"{name}() takes positional arguments only.")
    args = [_evaluate(arg, depth + 1) for arg in node.args]
    try:
        return _check_int(_FUNCTIONS[name](*args))
    except (TypeError, ValueError, OverflowError) as exc:
        raise _refuse(f"{name}({', '.join(map(str, args))}) failed: {exc}.") from None


def _evaluate(node: ast.AST, depth: int) -> float:
    if depth > MAX_DEPTH:
        raise _refuse(f"the expression is nested deeper than {MAX_DEPTH} levels; simplify it.")
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise _refuse(f"{node.value!r} is not a number.")
        return _check_int(node.value)
    if isinstance(node, ast.BinOp):
        return _binary(node, depth)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        value = _evaluate(node.operand, depth + 1)
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.Name):
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        raise _refuse(f"unknown name {node.id!r}; the constants are {', '.join(_CONSTANTS)}.")
    if isinstance(node, ast.Call):
        return _call(node, depth)
    raise _refuse(
        f"{type(node).__name__} syntax is not allowed; use numbers, + - * / // % **, "
        "parentheses and the listed functions."
    )


def _format(value: float) -> str:
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise _refuse(f"the result is {value}, not a finite number.")
        return format(value, ".15g")
    return str(value)


@tool(parse_docstring=True)
def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression as a calculator would (it never runs code).

    Operators: + - * / // % and ** for powers (^ is read as a power too), with parentheses.

    Constants: pi, e, tau.

    Functions: abs, round, min, max, sqrt, exp, log, log10, log2, sin, cos, tan, floor, ceil.

    Args:
        expression: The arithmetic expression to evaluate, e.g. "(6 + 5) * 2" or "sqrt(2) / 3".

    Returns:
        The result as text, e.g. "22".
    """
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise _refuse(
            f"the expression is {len(expression)} characters long; the limit is "
            f"{MAX_EXPRESSION_LENGTH}. Split it into smaller calculations."
        )
    text = expression.strip().replace("^", "**").replace("×", "*").replace("÷", "/")
    if not text:
        raise _refuse("the expression is empty; send something like '6 + 5'.")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        detail = getattr(exc, "msg", None) or type(exc).__name__
        raise _refuse(f"{expression!r} is not a valid expression ({detail}).") from None
    nodes = sum(1 for _ in ast.walk(tree))
    if nodes > MAX_NODES:
        raise _refuse(f"the expression has {nodes} parts; the limit is {MAX_NODES}.")
    return _format(_evaluate(tree.body, 0))
