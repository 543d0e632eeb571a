"""The linear replacements of issue 19's super-linear patterns agree with the patterns.

Each pattern the ReDoS analyser flagged (tests/test_redos.py) was replaced by a pattern it
proves safe or by a scanner that walks the string once (duizhao.links, duizhao.htmlscan). Here
the old pattern is the reference: on generated inputs made of the characters that matter to
it, the replacement finds the same matches with the same groups. Linearity is checked without
a clock: the scanners do all their searching through one helper (``scan.search``), and the
characters it passes over stay within a small multiple of the input's length on the shapes
that made the patterns quadratic.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from duizhao import article, lock

EXAMPLES = settings(max_examples=400, deadline=None)


def texts(alphabet: str, max_size: int = 40) -> st.SearchStrategy[str]:
    return st.text(st.sampled_from(alphabet), max_size=max_size)


# ---------------------------------------------------------------------------------------------
# Patterns made safe (no scanner): the same matches as before

OLD_BLOCK_OPEN_RE = re.compile(
    r"^ {0,3}(?P<slashes>/{3,})[ ]*(?P<name>[\w-]+)[ ]*(?:\|[ ]*(?P<arg>.*?))?[ ]*$"
)
OLD_JSON_KEY_RE = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*:')


def _opener(m: re.Match[str] | None) -> object:
    if m is None:
        return None
    # An empty argument was "" and is now unmatched: both read as no argument.
    arg = m.span("arg") if m.group("arg") else None
    return m.span(), m.group("slashes"), m.span("name"), arg


@EXAMPLES
@given(st.text(st.sampled_from(" /|a-_\n\té"), max_size=30).map(lambda s: "///" + s))
def test_block_opener_matches_as_before(line: str) -> None:
    for text in (line, " " + line, line.lstrip("/")):
        assert _opener(article._BLOCK_OPEN_RE.match(text)) == _opener(OLD_BLOCK_OPEN_RE.match(text))


def test_block_opener_examples() -> None:
    line = "/// paragraph |  P003  "
    assert article.replace_block_argument(line, "P004") == "/// paragraph |  P004  "
    assert article.replace_block_argument("/// figure |  ", "fig-1") == "/// figure | fig-1"
    assert article.replace_block_argument("////figure", "fig-1") == "////figure | fig-1"


def _old_entry_lines(text: str) -> dict[str, int]:
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = OLD_JSON_KEY_RE.match(line)
        if m:
            lines.setdefault(m.group(1), number)
    return lines


@EXAMPLES
@given(texts(' "\\:a\n\t'))
def test_json_key_matches_as_before(text: str) -> None:
    assert lock._entry_lines(text) == _old_entry_lines(text)
    assert lock._entry_lines('{\n  "a\\"b": 1,\n  "c": {"d": 2}\n}') == {'a\\"b': 2, "c": 3}
