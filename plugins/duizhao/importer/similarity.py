"""The similarity measures of the alignment (:mod:`duizhao.importer.align`): each side's
paragraphs as words (one character per word, so that rapidfuzz's Indel similarity over these
strings is a similarity over words), their long sentences, and the sentence cores two
paragraphs share. Pure; the thresholds are :class:`~duizhao.importer.align.Thresholds`'.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

from rapidfuzz.distance import Indel

from ..worddiff import peel

if TYPE_CHECKING:
    from .align_model import Thresholds

_T = TypeVar("_T")


def longest_increasing(items: Iterable[tuple[int, _T]]) -> list[_T]:
    """The payloads of a longest subsequence of ``items`` whose numbers strictly increase
    (patience sorting, O(n log n))."""
    tails: list[int] = []  # tails[k]: the smallest number ending a chain of length k + 1
    ends: list[tuple[_T, object]] = []  # the chain ending there: (payload, previous link)
    for number, payload in items:
        k = bisect_left(tails, number)
        link = (payload, ends[k - 1] if k else None)
        if k == len(tails):
            tails.append(number)
            ends.append(link)
        else:
            tails[k] = number
            ends[k] = link
    chain: list[_T] = []
    node: object = ends[-1] if ends else None
    while node is not None:
        assert isinstance(node, tuple)
        payload, node = node
        chain.append(payload)
    chain.reverse()
    return chain


# --------------------------------------------------------------------------------------------
# Words and sentences


#: an inline HTML tag without attributes (``<em>``, ``</strong>``, ``<br/>``): formatting, not words
_INLINE_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*\s*/?>")


def without_tags(key: str) -> str:
    """``key`` without its inline HTML tags that have no attributes: a line wrapped in
    ``<em>`` is the same line, emphasised (tuning_playbook's nineteen "[Click to expand]"
    summaries)."""
    return _INLINE_TAG.sub("", key) if "<" in key else key


def without_targets(key: str) -> str:
    """``key`` with the targets of its Markdown links and images left out: ``[text](url)`` is
    ``[text]``. One pass; an unclosed ``](`` keeps the rest as it is."""
    out: list[str] = []
    i = 0
    while True:
        j = key.find("](", i)
        if j < 0:
            out.append(key[i:])
            return "".join(out)
        k = key.find(")", j + 2)
        if k < 0:
            out.append(key[i:])
            return "".join(out)
        out.append(key[i : j + 1])
        i = k + 1


class _Units:
    """The keys of one side, with each word as one character so that rapidfuzz's Indel
    similarity over these strings is a similarity over words."""

    def __init__(self, keys: Sequence[str], vocabulary: dict[str, str]) -> None:
        self.keys = list(keys)
        #: what a short unit is compared by: its words as a reader sees them (case and link
        #: targets aside: a link fixed in a one-line note is the same note)
        self.folded = [without_tags(without_targets(key)).casefold() for key in self.keys]
        tokens = [words(without_tags(key)) for key in self.keys]
        self.words = [_encode(t, vocabulary) for t in tokens]
        self.counts = [sum(t[0].isalnum() for t in ts) for ts in tokens]
        self._vocabulary = vocabulary
        self._sentences: dict[int, dict[str, int]] = {}
        self._encoded: dict[int, list[tuple[str, int]]] = {}
        self._ends: str | None = None
        self._punctuation: frozenset[str] = frozenset()
        self._marks: list[frozenset[str]] | None = None
        self._mark_units: dict[str, int] = {}
        self._content: list[frozenset[str]] | None = None
        self._content_units: dict[str, int] = {}

    def rare_marks(self, k: int, most: int) -> frozenset[str]:
        """The :func:`marks` of unit ``k`` that are in at most ``most`` units of this side (a
        page's own subject, ``Textual`` or ``API``, names nothing in particular)."""
        if self._marks is None:
            self._marks = [marks(key) for key in self.keys]
            for found in self._marks:
                for mark in found:
                    self._mark_units[mark] = self._mark_units.get(mark, 0) + 1
        return frozenset(m for m in self._marks[k] if self._mark_units[m] <= most)

    def rare_content(self, k: int, most: int) -> frozenset[str]:
        """The content words of unit ``k`` (folded; four letters or more, or with a digit:
        ``output``, ``curly``, ``v2``) that are in at most ``most`` units of this side: what
        a paragraph is about, and what a rewording of it keeps while an unrelated paragraph
        of the page does not."""
        if self._content is None:
            self._content = [
                frozenset(
                    w
                    for w in (peel(c)[1].casefold() for c in without_tags(key).split())
                    if (len(w) >= _CONTENT_LETTERS and not w.isdigit()) or _figure(w)
                )
                for key in self.keys
            ]
            for found in self._content:
                for word in found:
                    self._content_units[word] = self._content_units.get(word, 0) + 1
        return frozenset(w for w in self._content[k] if self._content_units[w] <= most)

    def sentences(self, k: int, min_words: int) -> dict[str, int]:
        """The long sentences of unit ``k`` (folded), each with its number of words."""
        found = self._sentences.get(k)
        if found is None:
            found = {}
            for sentence in _SENTENCE_END.split(self.folded[k]):
                count = sum(w[:1].isalnum() for w in sentence.split())
                if count >= min_words:
                    found[sentence.strip()] = count
            self._sentences[k] = found
        return found

    def encoded_sentences(self, k: int, min_words: int) -> list[tuple[str, int]]:
        """The sentences of unit ``k`` of ``min_words`` words or more, in order: slices of its
        encoded words, each ending at a ".", "!" or "?" word, with its number of words."""
        found = self._encoded.get(k)
        if found is None:
            if self._ends is None:  # the codes of sentence ends and of punctuation, once
                ends = {self._vocabulary.get(mark) for mark in ".!?"} - {None}
                self._ends = "".join(str(code) for code in ends)
                self._punctuation = frozenset(
                    code for word, code in self._vocabulary.items() if not word[:1].isalnum()
                )
            found = []
            start, text = 0, self.words[k]
            for at, code in enumerate(text):
                if code in self._ends or at == len(text) - 1:
                    piece = text[start : at + 1]
                    count = sum(c not in self._punctuation for c in piece)
                    if count >= min_words:
                        found.append((piece, count))
                    start = at + 1
            self._encoded[k] = found
        return found


#: where a sentence ends: ., ! or ? before a space (a heuristic; "e.g. " splits too, which
#: only makes the pieces shorter, never joins two paragraphs' sentences)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _kept_core(olds: _Units, news: _Units, i: int, j: int, t: Thresholds) -> bool:
    """Whether the sentences old ``i`` and new ``j`` share word for word hold
    ``kept_share`` of the shorter one's words."""
    a = olds.sentences(i, t.kept_sentence_words)
    b = news.sentences(j, t.kept_sentence_words)
    shared = [n for sentence, n in a.items() if sentence in b]
    kept = sum(shared)
    return (
        len(shared) >= t.kept_sentences
        and kept >= t.short_words
        and kept >= t.kept_share * min(olds.counts[i], news.counts[j])
    )


def _near_core(olds: _Units, news: _Units, i: int, j: int, t: Thresholds) -> int:
    """The words of the sentences old ``i`` and new ``j`` share near word for word (each at a
    word similarity of ``moved_sentence``, one to one, in the order of both), when they are
    ``kept_sentences`` or more and hold ``kept_share`` of the shorter's words (0 otherwise)."""
    need = t.kept_share * min(olds.counts[i], news.counts[j])
    # sentences matched in order are a common subsequence of the two, each keeping
    # ``moved_sentence`` of its words: too short a one rules the core out (one comparison)
    if _common(olds.words[i], news.words[j]) < t.moved_sentence * need:
        return 0
    in_order = _near_sentences(olds, news, i, j, t)
    held = sum(words for _x, _y, words in in_order)
    return held if len(in_order) >= t.kept_sentences and held >= need else 0


def _near_sentences(
    olds: _Units, news: _Units, i: int, j: int, t: Thresholds
) -> list[tuple[int, int, int]]:
    """The long sentences of old ``i`` and new ``j`` paired near word for word (each at a
    word similarity of ``moved_sentence``, best first, one to one, then the longest chain
    in the order of both): (old sentence, new sentence, words held) each."""
    a = olds.encoded_sentences(i, t.kept_sentence_words)
    b = news.encoded_sentences(j, t.kept_sentence_words)
    if not a or not b:
        return []
    close = sorted(
        (-score, x, y)
        for x, (sa, _) in enumerate(a)
        for y, (sb, _) in enumerate(b)
        if (score := _similarity(sa, sb, t.moved_sentence)) >= t.moved_sentence
    )
    used_a: set[int] = set()
    used_b: set[int] = set()
    kept: list[tuple[int, int]] = []
    for _score, x, y in close:
        if x not in used_a and y not in used_b:
            used_a.add(x)
            used_b.add(y)
            kept.append((x, y))
    in_order = longest_increasing((y, (x, y)) for x, y in sorted(kept))
    return [(x, y, min(a[x][1], b[y][1])) for x, y in in_order]


def words(key: str) -> list[str]:
    """The words of a key, with the punctuation around them as words of their own (so that
    ``matter.`` and ``matter`` share a word); a bracketed list of reference numbers is one
    word (:func:`_citations`)."""
    out: list[str] = []
    for chunk in key.split():
        lead, core, trail = peel(chunk)
        out.extend(lead)
        if core:
            out.append(core)
        out.extend(trail)
    return _citations(out)


#: what a bracketed list of reference numbers becomes: one word, the same in every version
CITATION = "[#]"
_CITATION_PARTS = frozenset("0123456789,-–")


def _citations(tokens: list[str]) -> list[str]:
    """``tokens`` with each ``[`` … ``]`` that holds only reference numbers, commas and
    ranges (``[17, 18, 19]``, ``[21–27]``) as :data:`CITATION`: a paper's new version
    renumbers its references (Mooncake FAST '25: "sequence parallelism (SP) [17, 18, 19, 20,
    21, 22, 23]" → "(SP) [21–27]"), which is no change of the sentence. One pass."""
    out: list[str] = []
    i, n = 0, len(tokens)
    while i < n:
        if tokens[i] == "[":
            j = i + 1
            while j < n and tokens[j] != "]" and _CITATION_PARTS.issuperset(tokens[j]):
                j += 1
            if j < n and j > i + 1 and tokens[j] == "]":
                out.append(CITATION)
                i = j + 1
                continue
        out.append(tokens[i])
        i += 1
    return out


def _encode(words: Iterable[str], vocabulary: dict[str, str]) -> str:
    out = []
    for word in words:
        code = vocabulary.get(word)
        if code is None:
            # from U+10000 on: no surrogates, and rapidfuzz takes any code point
            code = vocabulary[word] = chr(0x10000 + len(vocabulary))
        out.append(code)
    return "".join(out)


def _similarity(a: str, b: str, cutoff: float) -> float:
    """Indel similarity, 0 below ``cutoff`` (skipped when the lengths alone rule it out)."""
    la, lb = len(a), len(b)
    if not la or not lb or 2 * min(la, lb) / (la + lb) < cutoff:
        return 0.0
    return float(Indel.normalized_similarity(a, b, score_cutoff=cutoff))


def _common(a: str, b: str) -> float:
    """Length of the longest common subsequence of two encoded texts (from Indel)."""
    return (len(a) + len(b) - Indel.distance(a, b)) / 2


# --------------------------------------------------------------------------------------------
# Marks: what names a paragraph's subject however it is worded


def marks(key: str) -> frozenset[str]:
    """The *marks* of a key: its code spans, quoted phrases and link texts, the words written
    with a capital letter that do not open a sentence (names: ``Django``, ``KVCache``,
    ``TTFT``) and the numbers that are more than a small count (a digit and something else,
    or four digits: ``3339``, ``1.5``, ``v2``). A paragraph rewritten in depth to say the
    same thing keeps them (a setting's name in backticks, an option's in quotes, a figure);
    words of the language do not count. No regular expression: the spans by ``str.find``
    from each opening character, then one pass over the words, which skips a word in lower
    case without a digit at C speed. A span that does not close is read as words."""
    found: set[str] = set()
    plain: list[str] = []
    start = 0
    nxt = {c: key.find(c) for c in _MARK_CLOSE}
    while True:
        live = [p for p in nxt.values() if p >= 0]
        if not live:
            break
        i = min(live)
        c = key[i]
        close = _MARK_CLOSE[c]
        j = key.find(close, i + 1, i + 2 + _MARK_SPAN)
        inner = key[i + 1 : j].strip() if j > i else ""
        # a link text only when a target follows; a bracket of numbers is a citation
        if inner and (c != "[" or (key.startswith("(", j + 1) and not inner.isdigit())):
            found.add(c + inner + close)
            plain.append(key[start:i])
            start = i = j + 1
        else:
            i += 1
        for d in nxt:
            if 0 <= nxt[d] < i:
                nxt[d] = key.find(d, i)
    plain.append(key[start:])
    opens = True  # the next word opens a sentence
    for chunk in " ".join(plain).split():
        if not chunk.islower() or not _DIGITS.isdisjoint(chunk):
            core = peel(chunk)[1]
            if core and (_named(core, opens) or _figure(core)):
                found.add(core)
        opens = chunk[-1] in ".!?:"
    return frozenset(found)


_DIGITS = frozenset("0123456789")
#: a content word (:meth:`_Units.rare_content`) has this many characters (or a digit):
#: "the", "and", "you" are not; "output", "curly" are (and "that", "with": rare they are not)
_CONTENT_LETTERS = 4


def _named(word: str, opens: bool) -> bool:
    """A capital inside the word, or at its start where no sentence opens."""
    rest = word[1:]
    return rest != rest.lower() or (word[0].isupper() and not opens)


def _figure(word: str) -> bool:
    """A number that is more than a small count: four digits, or digits and other signs."""
    return not _DIGITS.isdisjoint(word) and (len(word) >= 4 or not word.isdigit())


#: the spans a mark is read from, by their opening character, and how long one may be
_MARK_CLOSE = {"`": "`", '"': '"', "[": "]"}
_MARK_SPAN = 80
