"""Every regular expression of the package, translated for a ReDoS analyser (issue 19).

Two sources, so that no pattern escapes the check:

- :func:`compiled_patterns`: every compiled ``re.Pattern`` reachable from a module of the
  package (module globals, class attributes, and tuples, lists, dicts and frozensets of them);
- :func:`literal_patterns`: every literal first argument of ``re.compile/match/search/sub/
  findall/finditer/fullmatch/split(`` in the package's source (read with :mod:`ast`), so that a
  pattern compiled inline inside a function is covered too. A string literal, an implicit or
  ``+`` concatenation of literals, and a module-level constant name are resolved; the flags
  argument is read when it is literal (``re.M | re.S``).

:func:`to_js` translates Python syntax the analyser (``recheck``, JavaScript semantics) cannot
read by re-emitting the pattern from Python's own parse tree (``re._parser``): verbose patterns
lose their whitespace, ``(?P<n>`` becomes ``(?<n>``, ``\\Z`` becomes ``$``, atomic groups and
possessive repeats become lookahead-and-backreference (their JavaScript equivalent), and
conditional groups become an alternation (which only adds backtracking, so the analyser's
verdict stays sound for the original).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import duizhao

PACKAGE_DIR = Path(duizhao.__file__).parent
FLAGS = {"I": re.I, "IGNORECASE": re.I, "M": re.M, "MULTILINE": re.M, "S": re.S}
FLAGS |= {"DOTALL": re.S, "X": re.X, "VERBOSE": re.X, "A": re.A, "ASCII": re.A, "U": re.U}
FLAGS |= {"UNICODE": re.U}
FUNCTIONS = {"compile", "match", "search", "sub", "subn", "findall", "finditer", "fullmatch"}
FUNCTIONS |= {"split"}


@dataclass(frozen=True)
class Found:
    pattern: str
    flags: int
    where: str  # "module:NAME" or "path:line"


def package_modules() -> Iterator[object]:
    yield duizhao
    for info in pkgutil.walk_packages(duizhao.__path__, "duizhao."):
        yield importlib.import_module(info.name)


def _patterns_in(value: object, depth: int = 0) -> Iterator[re.Pattern[str]]:
    if isinstance(value, re.Pattern):
        if isinstance(value.pattern, str):
            yield value
    elif depth < 3 and isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from _patterns_in(item, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for item in value.values():
            yield from _patterns_in(item, depth + 1)


def compiled_patterns() -> Iterator[Found]:
    for module in package_modules():
        name = module.__name__  # type: ignore[attr-defined]
        for attr, value in vars(module).items():
            for pattern in _patterns_in(value):
                yield Found(pattern.pattern, pattern.flags, f"{name}:{attr}")
            if isinstance(value, type) and value.__module__ == name:
                for cattr, cvalue in vars(value).items():
                    for pattern in _patterns_in(cvalue):
                        yield Found(pattern.pattern, pattern.flags, f"{name}:{attr}.{cattr}")


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "literal"`` assignments (so ``re.sub(NAME, …)`` is resolved)."""
    found: dict[str, str] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and value is not None:
            text = _literal(value, found)
            if text is not None:
                found[target.id] = text
    return found


def _literal(node: ast.expr, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left, constants), _literal(node.right, constants)
        return None if left is None or right is None else left + right
    return None


def _flags(node: ast.expr | None) -> int | None:
    if node is None:
        return 0
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return FLAGS.get(node.attr) if node.value.id == "re" else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _flags(node.left), _flags(node.right)
        return None if left is None or right is None else left | right
    return None


def _flags_argument(call: ast.Call) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "flags":
            return keyword.value
    # compile/match/search/fullmatch/findall/finditer(p, s, flags); sub(p, r, s, count, flags)
    func = call.func.attr  # type: ignore[attr-defined]
    index = {"compile": 1, "sub": 4, "subn": 4, "split": 3}.get(func, 2)
    return call.args[index] if len(call.args) > index else None


@dataclass(frozen=True)
class Dynamic:
    """A call whose pattern is not a literal: listed so that the test can name it."""

    where: str
    source: str


def literal_patterns() -> tuple[list[Found], list[Dynamic]]:
    found: list[Found] = []
    dynamic: list[Dynamic] = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        constants = _constants(tree)
        rel = path.relative_to(PACKAGE_DIR.parent)
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re"
                and node.func.attr in FUNCTIONS
                and node.args
            ):
                continue
            where = f"{rel}:{node.lineno}"
            pattern = _literal(node.args[0], constants)
            flags = _flags(_flags_argument(node))
            if pattern is None or flags is None:
                dynamic.append(Dynamic(where, ast.get_source_segment(text, node) or ""))
            else:
                found.append(Found(pattern, flags, where))
    return found, dynamic


# --- translation to JavaScript syntax, from Python's parse tree ---------------------------------

try:  # Python 3.11+
    from re import _constants as sre_constants  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

C = sre_constants
CATEGORIES = {
    C.CATEGORY_DIGIT: r"\d",
    C.CATEGORY_NOT_DIGIT: r"\D",
    C.CATEGORY_SPACE: r"\s",
    C.CATEGORY_NOT_SPACE: r"\S",
    C.CATEGORY_WORD: r"\w",
    C.CATEGORY_NOT_WORD: r"\W",
}
#: A bounded repeat ``{m,n}`` costs at most a constant factor (n) per start: its ambiguity is
#: finite, whatever n. The analyser sees large bounds shrunk to ``{min(m,4),min(m,4)+4}``, so its
#: automaton stays small (``{0,2000}`` expanded is an NFA of thousands of states, checked in
#: seconds) while every unbounded repeat, the only source of polynomial or exponential
#: backtracking, is kept as written. The constant factors are what the scaling family measures.
SHRINK = 4
SPECIAL = set(r"\^$.|?*+()[]{}/-")


def _char(code: int, in_class: bool = False) -> str:
    char = chr(code)
    if char in SPECIAL and (in_class or char != "-"):
        return "\\" + char
    if code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    if code > 0xFFFF:
        return f"\\u{{{code:x}}}"
    return char


class UntranslatableError(ValueError):
    pass


class _Emitter:
    def __init__(self, flags: int, groups: dict[int, str], strip: bool = False) -> None:
        self.strip = strip  # drop lookarounds and word boundaries (see to_js)
        self.flags = flags
        self.names = groups

    def seq(self, items: sre_parse.SubPattern | list) -> str:  # type: ignore[type-arg]
        return "".join(self.item(op, av) for op, av in items)

    def item(self, op: object, av: object) -> str:
        if op is C.LITERAL:
            return _char(av)  # type: ignore[arg-type]
        if op is C.NOT_LITERAL:
            return f"[^{_char(av, True)}]"  # type: ignore[arg-type]
        if op is C.ANY:
            return r"[\s\S]" if self.flags & re.S else "."
        if op is C.IN:
            return self.klass(av)  # type: ignore[arg-type]
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            low, high, body = av  # type: ignore[misc]
            if high != C.MAXREPEAT and high > SHRINK:  # see SHRINK
                low = min(low, SHRINK // 2)
                high = low + SHRINK // 2
            inner = self.seq(body)
            if not (len(body) == 1 and body[0][0] in (C.LITERAL, C.IN, C.ANY, C.NOT_LITERAL)):
                inner = f"(?:{inner})"
            if high == C.MAXREPEAT:
                quant = {0: "*", 1: "+"}.get(low, f"{{{low},}}")
            elif low == high:
                quant = "?" if (low, high) == (0, 1) else f"{{{low}}}"
            else:
                quant = "?" if (low, high) == (0, 1) else f"{{{low},{high}}}"
            if op is C.MIN_REPEAT:
                quant += "?"
            if op is C.POSSESSIVE_REPEAT:
                return self.atomic(inner + quant)
            return inner + quant
        if op is C.SUBPATTERN:
            group, _add, _del, body = av  # type: ignore[misc]
            inner = self.seq(body)
            if group is None:
                return f"(?:{inner})"
            name = self.names.get(group)
            return f"(?<{name}>{inner})" if name else f"({inner})"
        if op is C.ATOMIC_GROUP:
            return self.atomic(self.seq(av))  # type: ignore[arg-type]
        if op is C.BRANCH:
            _, branches = av  # type: ignore[misc]
            return "(?:" + "|".join(self.seq(b) for b in branches) + ")"
        if op is C.AT and self.strip and av in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
            return ""
        if op in (C.ASSERT, C.ASSERT_NOT) and self.strip:
            return ""
        if op is C.AT:
            return {
                C.AT_BEGINNING: "^",
                C.AT_BEGINNING_STRING: "^",
                C.AT_END: "$",
                C.AT_END_STRING: "$",
                C.AT_BOUNDARY: r"\b",
                C.AT_NON_BOUNDARY: r"\B",
            }[av]
        if op is C.GROUPREF:
            return f"\\{av}"  # type: ignore[arg-type]
        if op in (C.ASSERT, C.ASSERT_NOT):
            direction, body = av  # type: ignore[misc]
            sign = "=" if op is C.ASSERT else "!"
            look = "<" if direction < 0 else ""
            return f"(?{look}{sign}{self.seq(body)})"
        if op is C.GROUPREF_EXISTS:
            _group, yes, no = av  # type: ignore[misc]
            return "(?:" + self.seq(yes) + "|" + (self.seq(no) if no else "") + ")"
        raise UntranslatableError(f"opcode {op}")

    def atomic(self, inner: str) -> str:
        # JavaScript has none: the package has none either (an atomic group would need the
        # lookahead-and-backreference emulation and renumbered groups).
        raise UntranslatableError(f"atomic group or possessive repeat: {inner}")

    def klass(self, items: list[tuple[object, object]]) -> str:
        parts: list[str] = []
        negate = False
        for op, av in items:
            if op is C.NEGATE:
                negate = True
            elif op is C.LITERAL:
                parts.append(_char(av, True))  # type: ignore[arg-type]
            elif op is C.RANGE:
                low, high = av  # type: ignore[misc]
                parts.append(f"{_char(low, True)}-{_char(high, True)}")
            elif op is C.CATEGORY:
                parts.append(CATEGORIES[av])
            else:
                raise UntranslatableError(f"class item {op}")
        if not parts and negate:
            return r"[\s\S]"
        return ("[^" if negate else "[") + "".join(parts) + "]"


def to_js(pattern: str, flags: int = 0, strip: bool = False) -> tuple[str, str]:
    """``(source, flags)`` of a JavaScript regex with the same backtracking shape.

    With ``strip``, lookarounds and word boundaries are dropped: an assertion only prunes
    paths, so the stripped pattern backtracks at least as much as the original, and "safe" for
    it is "safe" for the original. (recheck's automaton checker reads no assertion; the test
    asks it about the stripped pattern first and its fuzzer about the original only when the
    stripped one is not safe.)"""
    parsed = sre_parse.parse(pattern, flags)
    state = parsed.state
    all_flags = state.flags
    names = {number: name for name, number in state.groupdict.items()}
    source = _Emitter(all_flags, names, strip).seq(parsed)
    js_flags = "u"
    if all_flags & re.I:
        js_flags += "i"
    if all_flags & re.M:
        js_flags += "m"
    if all_flags & re.S:
        js_flags += "s"
    return source, js_flags
