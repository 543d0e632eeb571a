"""What the held-out PDF corpus tests share: the check of a set's form, the score floors (run
in ``make fuzz``) and the check that a set shares no file, sha256 or title with the other sets."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from bench import pdfcorpus
from bench.detect import timed_detector


def assert_well_formed(
    papers: Sequence[pdfcorpus.Paper],
    others: Sequence[Path],
    *,
    min_papers: int,
    min_styles: int = 1,
    min_floats: int = 0,
    min_tables: int = 0,
) -> None:
    """The set has its papers, templates, floats and tables, and every label is well formed."""
    labels = [label for paper in papers for label in paper.labels]
    assert len(papers) >= min_papers
    assert len({paper.style for paper in papers}) >= min_styles
    assert len(labels) >= min_floats
    assert sum(label.kind == "table" for label in labels) >= min_tables
    assert {label.kind for label in labels} <= {"figure", "table"}
    names = {paper.pdf.name for corpus in others for paper in pdfcorpus.load(corpus)}
    assert not [problem for paper in papers for problem in pdfcorpus.label_problems(paper, names)]


def assert_floors(
    papers: Sequence[pdfcorpus.Paper],
    *,
    recall: float,
    precision: float,
    captions: float,
    template: float,
) -> None:
    """Score ``papers`` with the timed detector and fail naming every floor it falls short of."""
    report = pdfcorpus.score(papers, timed_detector)  # type: ignore[arg-type]
    below = report.below(recall=recall, precision=precision, captions=captions, template=template)
    assert not below, "\n".join([*below, pdfcorpus.format_report(report, papers)])


def _metadata(corpus: Path) -> list[dict[str, object]]:
    return [json.loads(path.read_text("utf-8")) for path in sorted(corpus.glob("*.json"))]


#: Repositories that collect many papers (one file each): there a shared repository is not a
#: shared paper, the file (repository and path) is.
COLLECTIONS = frozenset({"papers-we-love/papers-we-love", "ai-se/riot"})


def assert_in_no_other_set(papers: Sequence[pdfcorpus.Paper], others: Sequence[Path]) -> None:
    """Each paper's recorded sha256 is its file's, and neither it, its title nor its source is in
    ``others``: its repository (another file of a paper's repository is most often another
    version of the same paper), or, in a collection of papers, its file (repository and path:
    other pages cut from the same PDF are the same paper)."""
    meta = [data for corpus in others for data in _metadata(corpus)]
    digests = {str(data.get("sha256", "")) for data in meta}
    titles = {_source(data, "title") for data in meta}
    files = {(_source(data, "repo"), _source(data, "path")) for data in meta}
    repos = {repo for repo, _ in files if repo and repo not in COLLECTIONS}
    for paper in papers:
        data = json.loads(paper.pdf.with_suffix(".json").read_text("utf-8"))
        digest = hashlib.sha256(paper.pdf.read_bytes()).hexdigest()
        assert data["sha256"] == digest, paper.slug
        assert digest not in digests, paper.slug
        assert _source(data, "title") not in titles, paper.slug
        file = (_source(data, "repo"), _source(data, "path"))
        assert not all(file) or file not in files, paper.slug
        assert file[0] not in repos, (paper.slug, "shares its repository with another set")


def _source(data: dict[str, object], key: str) -> str:
    source = data.get("source")
    return str(source.get(key, "") if isinstance(source, dict) else "").casefold()
