"""The search worker is served without its comment lines (search/theme.py)."""

from __future__ import annotations

import time

from duizhao.search.theme import _without_comments


def test_comment_lines_go_and_code_stays() -> None:
    text = (
        "// a line comment\n"
        "  /* one line */\n"
        "/* over\n   two lines */\n"
        "let a = 1; // kept: code before it\n"
        "/* a comment */ let b = 2;\n"
        'const url = "http://x/y";\n'
        "/* never closed\n"
        "let c = 3;\n"
    )
    assert _without_comments(text) == (
        "let a = 1; // kept: code before it\n"
        "/* a comment */ let b = 2;\n"
        'const url = "http://x/y";\n'
        "/* never closed\n"
        "let c = 3;\n"
    )


def test_an_unclosed_comment_is_one_pass() -> None:
    """The regular expression it replaced took quadratic time on '/*\\r' repeated."""
    for size in (20_000, 160_000):
        start = time.process_time()
        assert _without_comments("/*\r" * size) == "/*\r" * size
        assert time.process_time() - start < 0.5
