"""Fuzzing (issue 12): authoring files generated from the grammar, then mutated.

Articles (front matter + blocks + links), ``.figures.yml`` specs, ``duizhao.lock`` files and
seed records are generated from their grammar, then mutated (truncated, random bytes spliced
in, deep nesting, long lines, hostile strings). For ``duizhao check``, ``duizhao status`` and a
build of a tiny site the properties are: no traceback, no hang (a watchdog), bounded memory,
and every problem a ``PATH:LINE: CODE message`` line whose code is in the registry.

A short run is part of the suite. ``make fuzz`` runs the long one (``DUIZHAO_FUZZ=long``:
50× the examples). Failures found once stay below as ``@example`` regression seeds.
"""

from __future__ import annotations

import os
import re
import signal
import tempfile
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import BASE_CONFIG, ROOT, Logs, Site
from duizhao.cli import main
from duizhao.diagnostics import CODES
from duizhao.yamlsafe import InputError, load_yaml

LONG = os.environ.get("DUIZHAO_FUZZ") == "long"
SCALE = 50 if LONG else 1
#: Seconds one example may take before the watchdog calls it a hang (not a speed target:
#: bench/ measures speed; this only turns an endless loop into a failure).
WATCHDOG = int(os.environ.get("DUIZHAO_FUZZ_WATCHDOG", "60"))
#: Peak Python allocations one example may make.
MEMORY_LIMIT = 256 * 1024 * 1024

DIAGNOSTIC_RE = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>[0-9]+): (?P<code>DZ[0-9]{3}) \S")

HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "&amp;&lt;&#0;",
    "{{ config }}{% raw %}",
    "\u202e\u200b\ufeff",
    "\\(x\\) $y$ *z* _w_ `v`",
    "]]><!--",
    "Ｐ００１",
    "P" + "9" * 60,
    "[x](#P0) [](#fig-1) [y](../../../../etc/passwd.md#P001)",
    "- [ ] ~~~",
    "\t\r",
]

words = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
hostile = st.sampled_from(HOSTILE)
text_value = st.one_of(words, hostile)


def ids() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(0, 150).map(lambda n: f"P{n:03d}"),
        st.sampled_from(["P1", "p002", "Ｐ００３", "P???", "", "P" + "1" * 4300, "P0042"]),
        st.text(alphabet="P0123456789 ", max_size=8),
    )


def ranges() -> st.SearchStrategy[object]:
    return st.one_of(
        st.tuples(st.integers(0, 200), st.integers(0, 200)).map(
            lambda t: f"P{t[0]:03d}-P{t[1]:03d}"
        ),
        st.sampled_from(["P001-P999999999", "1-129", "P001–P129", "P1-P2", None, 7]),
    )


@st.composite
def front_matter(draw: st.DrawFn) -> str:
    meta: dict[str, object] = {}
    if draw(st.booleans()):
        meta["title"] = draw(text_value)
    if draw(st.booleans()):
        meta["paragraphs"] = draw(ranges())
    if draw(st.booleans()):
        meta["status"] = draw(st.sampled_from(["draft", "complete", "finished", 3]))
    if draw(st.booleans()):
        meta["paper"] = draw(
            st.one_of(
                st.fixed_dictionaries(
                    {"title": text_value, "license": st.sampled_from(["CC-BY-4.0", "x", ""])},
                    optional={"url": st.sampled_from(["javascript:alert(1)", "https://x/"])},
                ),
                text_value,
            )
        )
    if draw(st.booleans()):
        meta["figures"] = draw(st.one_of(st.integers(-3, 30), text_value))
    for key in draw(st.lists(st.sampled_from(["date", "weight", "featured", "digest"]))):
        meta[key] = draw(st.one_of(st.integers(), st.booleans(), text_value))
    body = yaml.safe_dump(meta, allow_unicode=True) if meta else ""
    raw = draw(
        st.sampled_from(
            [
                "",
                "date: 2026-13-45\n",
                "x: !foo bar\n",
                "x: !!python/object/apply:os.system ['true']\n",
                "x: " + "[" * 3000 + "\n",
                "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
                "c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c]\n",
                "r: &r [*r]\n",
                "n: " + "7" * 5000 + "\n",
                "? [1]\n: 2\n",
            ]
        )
    )
    return f"---\n{body}{raw}---\n"


@st.composite
def block(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["paragraph", "figure", "details", "table"]))
    arg = draw(ids()) if kind == "paragraph" else draw(st.sampled_from(["1", "2", "x", "", "99"]))
    parts = [f"/// {kind} | {arg}"]
    if draw(st.booleans()):
        parts.append("> " + draw(text_value))
        parts.append("")
    parts.append(draw(st.one_of(text_value, st.just("<!-- duizhao:todo -->"))))
    if draw(st.integers(0, 9)):  # now and then left unclosed
        parts.append("///")
    return "\n".join(parts) + "\n"


@st.composite
def body_piece(draw: st.DrawFn) -> str:
    return draw(
        st.one_of(
            block(),
            st.sampled_from(["## 导言\n", "# T\n", "```\n", "~~~\n", "<!--\n", "-->\n", "///\n"]),
            text_value.map(lambda t: t + "\n"),
            st.tuples(text_value, ids()).map(lambda t: f"[{t[0]}](#{t[1]})\n"),
            st.tuples(st.sampled_from(["a.md", "b.md", "/a.md", "x/../a.md"]), ids()).map(
                lambda t: f"[l]({t[0]}#{t[1]})\n"
            ),
        )
    )


@st.composite
def article(draw: st.DrawFn) -> str:
    head = draw(front_matter()) if draw(st.integers(0, 5)) else ""
    pieces = draw(st.lists(body_piece(), max_size=12))
    return head + "\n" + "\n".join(pieces)


@st.composite
def figure_spec(draw: st.DrawFn) -> str:
    number = st.one_of(
        st.integers(-5, 3000),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from(["1e400", "x", None]),
    )
    entry = {
        "id": draw(st.one_of(st.integers(0, 5), text_value)),
        "box": draw(st.lists(number, min_size=0, max_size=5)),
    }
    if draw(st.booleans()):
        entry["page"] = draw(number)
    if draw(st.booleans()):
        entry["caption"] = {"en": draw(text_value), "zh": draw(text_value)}
    spec = {
        "source": draw(
            st.sampled_from(["paper.pdf", "../../../../etc/passwd", "/dev/zero", "fig.png", ""])
        ),
        "dpi": draw(number),
        "figures": [entry],
    }
    return yaml.safe_dump(spec, allow_unicode=True)


@st.composite
def lock_file(draw: st.DrawFn) -> str:
    entries = draw(
        st.dictionaries(
            st.sampled_from(["a.md", "b.md", "../x.md", "", "/abs.md"]),
            st.dictionaries(ids(), st.one_of(st.just("0123456789abcdef"), text_value)),
            max_size=3,
        )
    )
    import json

    return json.dumps({"articles": entries, "version": draw(st.sampled_from([1, 2, "1"]))})


@st.composite
def mutated(draw: st.DrawFn, source: st.SearchStrategy[str]) -> bytes:
    data = draw(source).encode("utf-8")
    for _ in range(draw(st.integers(0, 3))):
        how = draw(st.sampled_from(["truncate", "bytes", "nest", "long", "hostile", "none"]))
        at = draw(st.integers(0, len(data)))
        if how == "truncate":
            data = data[:at]
        elif how == "bytes":
            data = data[:at] + draw(st.binary(max_size=8)) + data[at:]
        elif how == "nest":
            data = data[:at] + b"[" * draw(st.integers(50, 3000)) + data[at:]
        elif how == "long":
            fragment = draw(st.sampled_from([b"[a", b"`", b"[x](<", b"*_", b"P0 ", b"<a href='"]))
            data = data[:at] + fragment * draw(st.integers(100, 2000)) + data[at:]
        elif how == "hostile":
            data = data[:at] + draw(hostile).encode() + data[at:]
    return data


# ---------------------------------------------------------------------------------------------
# Harness


@contextmanager
def bounded(memory: bool = True) -> Iterator[None]:
    """A watchdog against hangs and (``memory``) a ceiling on allocations for one example."""

    def hang(_signum: int, _frame: FrameType | None) -> None:
        raise AssertionError(f"an example ran over {WATCHDOG} s: a hang")

    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(WATCHDOG)
    if memory:
        tracemalloc.start()
    try:
        yield
        if memory:
            _current, peak = tracemalloc.get_traced_memory()
            assert peak < MEMORY_LIMIT, f"an example allocated {peak / 2**20:.0f} MB"
    finally:
        if memory:
            tracemalloc.stop()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def write_project(root: Path, files: dict[str, bytes]) -> None:
    config = {**BASE_CONFIG, "plugins": [{"duizhao": {"vendor_dir": str(ROOT / "node_modules")}}]}
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def assert_diagnostics(lines: list[str]) -> None:
    for line in lines:
        m = DIAGNOSTIC_RE.match(line)
        assert m, f"not a diagnostic: {line[:300]!r}"
        assert int(m.group("line")) >= 1 and m.group("code") in CODES, line[:300]


def run_cli(root: Path, *args: str) -> list[str]:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        result = CliRunner().invoke(main, list(args))
    finally:
        os.chdir(cwd)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1, 2), result.output
    return [line for line in result.output.splitlines() if re.match(r"^\S+:[0-9]+: ", line)]


def build_deep_page(site: Site, logs: Logs, line: int, code: str, message: str) -> str:
    """Build ``site`` (its ``deep.md`` nested past a limit) and check it: ``duizhao check``
    reports ``code`` once, at ``line`` of ``deep.md``, the build logs it once with ``message``
    (a regular expression) and the page builds, in bounded time; the page's HTML."""
    with bounded(memory=False):
        site.build()
        found = run_cli(site.root, "check", "docs")
    assert [d.split(f" {code} ")[0] for d in found if f" {code} " in d] == [f"docs/deep.md:{line}:"]
    logs.take(rf"deep\.md:{line}: {code} {message}", 1)
    return site.html("deep.md")


FUZZ = settings(
    max_examples=25 * SCALE,
    deadline=None,  # no timing here: the watchdog catches hangs, bench/ measures speed
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=not LONG,  # the suite's short run is the same every time
    database=None,
)


@FUZZ
@given(a=mutated(article()), b=mutated(article()), spec=mutated(figure_spec()))
@example(
    a=b"---\ntitle: a\ndate: 2026-13-45\nparagraphs: P001-P002\n---\n",
    b=b"---\nx: " + b"[" * 10_000 + b"\n---\n",
    spec=b"source: paper.pdf\nfigures:\n- {id: 1, page: 1, box: [.nan, 0, 1, 1]}\n",
)
@example(
    a=b"---\nparagraphs: P001-P999999999\nstatus: complete\n---\n/// paragraph | P"
    + b"1" * 4300
    + b"\n///\n",
    b=b"[" * 5000 + b"](#P0)" + b"`" * 300,
    spec=b"source: /dev/zero\nfigures: [{id: 1, box: [0, 0, 1e400, 1]}]\n",
)
def test_check_never_crashes(a: bytes, b: bytes, spec: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp, bounded():
        root = Path(tmp)
        write_project(
            root,
            {"docs/a.md": a, "docs/b.md": b, "docs/a.figures.yml": spec, "paper.pdf": b"%PDF-1"},
        )
        assert_diagnostics(run_cli(root, "check"))


@FUZZ
@given(lock=mutated(lock_file()), a=mutated(article()))
@example(lock=b'{"articles": {"a.md": {"P001": "3f', a=b"---\ntitle: a\n---\n")
@example(lock=b"[" * 100_000, a=b"")
def test_status_never_crashes(lock: bytes, a: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp, bounded():
        root = Path(tmp)
        write_project(root, {"docs/a.md": a, "duizhao.lock": lock})
        assert_diagnostics(run_cli(root, "status"))


@settings(FUZZ, max_examples=40 * SCALE)
@given(text=mutated(st.one_of(front_matter(), figure_spec())))
def test_yaml_loader_is_total(text: bytes) -> None:
    decoded = text.decode("utf-8", errors="replace")
    with bounded():
        try:
            load_yaml(decoded)
        except InputError as exc:
            assert exc.line >= 1 and exc.message


@settings(FUZZ, max_examples=60 * SCALE)
@given(text=mutated(st.one_of(front_matter(), figure_spec())))
@example(text=b"a: [1, {b: 2}]\nc: &x 3\nd: *x\n")
@example(text=b"a: 1\n\tb: 2\n")
@example(text=b"? [a, b]\n: c\n")
def test_yaml_loader_reads_as_mkdocs_does(text: bytes) -> None:
    """load_yaml (libyaml's parser where it can) reads what PyYAML's pure-Python SafeLoader,
    MkDocs' front matter reader, reads, and refuses what it refuses; and also a value that
    an escape gives a character the reader refuses raw (``"\\x1F"``, ``"\\udcff"``)."""
    decoded = text.decode("utf-8", errors="replace")
    with bounded():
        try:
            value = yaml.load(decoded, Loader=yaml.SafeLoader)
            expected: object = InputError if _non_printable(value) else repr(value)
        except Exception:
            expected = InputError
        try:
            got: object = repr(load_yaml(decoded)[0])
        except InputError:
            got = InputError
    assert got == expected


def _non_printable(value: object) -> bool:
    from duizhao.yamlsafe import NON_PRINTABLE_RE

    if isinstance(value, str):
        return NON_PRINTABLE_RE.search(value) is not None
    if isinstance(value, dict):
        return any(_non_printable(k) or _non_printable(v) for k, v in value.items())
    if isinstance(value, (list, set, tuple)):
        return any(_non_printable(v) for v in value)
    return False


# A build takes a second or two: one generated site (and the seed below) in the short run.
@settings(FUZZ, max_examples=1 * SCALE, suppress_health_check=list(HealthCheck))
@given(a=mutated(article()), lock=mutated(lock_file()), spec=mutated(figure_spec()))
@example(
    a=b"---\ntitle: a\n---\n\n" + b"[x](<" * 2000,
    lock=b"",
    spec=b"figures: [{id: 1, box: [0, 0, 20000, 20000]}]\nsource: paper.pdf\n",
)
def test_build_never_crashes(logs: Logs, a: bytes, lock: bytes, spec: bytes) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    with tempfile.TemporaryDirectory() as tmp, bounded(memory=False):  # (tracing: too slow)
        root = Path(tmp)
        files = {"docs/index.md": b"# Home\n", "docs/a.md": a, "duizhao.lock": lock}
        write_project(root, {**files, "docs/a.figures.yml": spec, "paper.pdf": b"%PDF-1"})
        config = load_config(str(root / "mkdocs.yml"), site_dir=str(root / "site"))
        build(config)
    ours = [m for m in logs.take(r"") if m.startswith("duizhao: ")]
    assert_diagnostics([m.removeprefix("duizhao: ") for m in ours])


@pytest.mark.parametrize("seed", ["x: " + "{" * 100 + "}" * 100, "a: !ENV [X]"])
def test_yaml_regressions(seed: str) -> None:
    with pytest.raises(InputError):
        load_yaml(seed)
