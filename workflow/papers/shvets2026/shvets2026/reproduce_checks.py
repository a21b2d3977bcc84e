"""How many check lines the authors' reproduce.py prints, counted from its text.

The write-up says the authors' ``reproduce.py`` "printed 88 ok lines" (``python3
reproduce.py | grep -c '^  ok'``). reagree never runs fetched code, so the count is read
from the file as text: it is parsed with ``ast.parse`` (a syntax tree, nothing imported,
compiled or evaluated) and counted as follows.

- **What runs.** Run without arguments, reproduce.py runs every step of its ``STEPS``
  mapping, each once (its ``__main__`` block: ``todo = ... or list(STEPS)``).
- **What prints a check line.** A call of ``check(...)`` (which prints "ok" or "XX" and
  the label) and a ``print`` whose text chooses between ``'ok '`` and ``'XX '`` (the
  order checks of the table5 step). Every such line is an "ok" line when the numbers
  agree, so their number is the count the write-up printed when all agreed.
- **How often.** A call inside ``for`` loops runs once per iteration of each; a loop's
  iterations are read from what it loops over: a literal list, tuple, dict or set (its
  length), a name bound to one in the function or at module level, ``.items()``,
  ``.keys()`` or ``.values()`` of one, ``zip(...)`` of them (the shortest), a slice
  ``x[:n]``, and a loop variable bound to the equally long literal values of the mapping
  or list it comes from. A loop whose length cannot be read this way, or a check line
  inside a branch (``if``, ``while``, ``with``, ``try``), is an error naming its line,
  never a guess.
"""

from __future__ import annotations

import ast


class _Unknown(ValueError):
    pass


def _module_names(tree: ast.Module) -> dict[str, ast.AST]:
    """Module-level ``NAME = <literal>`` assignments."""
    names = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = node.value
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    for name, value in zip(target.elts, node.value.elts):
                        if isinstance(name, ast.Name):
                            names[name.id] = value
    return names


def _length(node: ast.AST, names: dict[str, ast.AST]) -> int:
    """How many items iterating ``node`` yields (module docstring), or _Unknown."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return len(node.elts)
    if isinstance(node, ast.Dict):
        return len(node.keys)
    if isinstance(node, ast.Name) and node.id in names:
        return _length(names[node.id], names)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and not node.args
        and node.func.attr in ("items", "keys", "values")
    ):
        return _length(node.func.value, names)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "zip" and node.args:
        return min(_length(arg, names) for arg in node.args)
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Slice)
        and node.slice.lower is None
        and node.slice.step is None
        and isinstance(node.slice.upper, ast.Constant)
    ):
        upper = int(node.slice.upper.value)
        try:
            return min(upper, _length(node.value, names))
        except _Unknown:
            return upper
    raise _Unknown(f"line {getattr(node, 'lineno', '?')}: the length of {ast.unparse(node)} cannot be read")


def _elements(node: ast.AST, names: dict[str, ast.AST]) -> list[ast.AST] | None:
    """The literal items a loop over ``node`` binds, where they are literal: the values of
    a dict for ``.values()``, (key, value) pairs for ``.items()``, the items of a list."""
    if isinstance(node, ast.Name) and node.id in names:
        return _elements(names[node.id], names)
    if isinstance(node, (ast.List, ast.Tuple)):
        return list(node.elts)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(
            target := (names.get(node.func.value.id) if isinstance(node.func.value, ast.Name) else node.func.value),
            ast.Dict,
        )
    ):
        if node.func.attr == "values":
            return list(target.values)
        if node.func.attr == "items":
            return [ast.Tuple(elts=[k, v], ctx=ast.Load()) for k, v in zip(target.keys, target.values)]
        if node.func.attr == "keys":
            return list(target.keys)
    return None


def _bind(target: ast.AST, items: list[ast.AST] | None, names: dict[str, ast.AST]) -> dict[str, ast.AST]:
    """Names a loop target binds to a literal, when every item gives it an equally long one."""
    if not items:
        return names
    bound = dict(names)
    if isinstance(target, ast.Name):
        lengths = set()
        for item in items:
            try:
                lengths.add(_length(item, names))
            except _Unknown:
                return bound
        if len(lengths) == 1:
            bound[target.id] = items[0]
    elif isinstance(target, ast.Tuple) and all(
        isinstance(i, ast.Tuple) and len(i.elts) == len(target.elts) for i in items
    ):
        for position, part in enumerate(target.elts):
            bound = _bind(part, [item.elts[position] for item in items], bound)
    return bound


def _prints_check_line(call: ast.Call) -> bool:
    """A ``check(...)`` call, or a ``print`` whose text chooses between 'ok ' and 'XX '."""
    if isinstance(call.func, ast.Name) and call.func.id == "check":
        return True
    if isinstance(call.func, ast.Name) and call.func.id == "print":
        return any(
            isinstance(node, ast.IfExp) and isinstance(node.body, ast.Constant) and str(node.body.value).strip() == "ok"
            for node in ast.walk(call)
        )
    return False


def _count(statements: list[ast.stmt], names: dict[str, ast.AST]) -> int:
    """Check lines printed by running ``statements`` once."""
    total = 0
    for statement in statements:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    names = {**names, target.id: statement.value}
        if isinstance(statement, ast.For):
            inner = _bind(statement.target, _elements(statement.iter, names), names)
            total += _length(statement.iter, names) * _count(statement.body, inner)
        else:
            found = sum(1 for node in ast.walk(statement) if isinstance(node, ast.Call) and _prints_check_line(node))
            if found and isinstance(statement, (ast.If, ast.While, ast.With, ast.Try, ast.FunctionDef)):
                raise _Unknown(
                    f"line {statement.lineno}: a check line inside a {type(statement).__name__} statement "
                    "is not counted"
                )
            total += found
    return total


def count_check_lines(source: str, name: str = "reproduce.py") -> int:
    """The check lines reproduce.py prints when run without arguments, counted from its
    text (module docstring); ValueError naming the line of what cannot be counted."""
    tree = ast.parse(source, filename=name)
    names = _module_names(tree)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    steps = names.get("STEPS")
    if not isinstance(steps, ast.Dict):
        raise ValueError(f"{name}: no STEPS mapping of step names to functions")
    total = 0
    for value in steps.values:
        if not (isinstance(value, ast.Name) and value.id in functions):
            raise ValueError(f"{name}: line {value.lineno}: step {ast.unparse(value)} is not a function of the file")
        try:
            total += _count(functions[value.id].body, names)
        except _Unknown as error:
            raise ValueError(f"{name}: step {value.id}: {error}") from None
    return total
