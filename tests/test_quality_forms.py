"""The written forms of duizhao.quality.forms and the classes of issue 23 they serve (session 35):
each correct pair gives no finding, and each mistake next to it is still found."""

from __future__ import annotations

import pytest

from duizhao.quality import forms as fm
from duizhao.quality.checks import check_block

#: (original, translation): correct, no finding.
CORRECT = [
    # statutes: Section 5 of an act as 第 5 条 / 第五条, and a section in numerals
    (
        "Under Section 5 of the Copyright Act, the owner may sue.",
        "根据《版权法》第 5 条，权利人可以起诉。",
    ),
    (
        "Under Section 5 of the Copyright Act, the owner may sue.",
        "根据《版权法》第五条，权利人可以起诉。",
    ),
    ("Sections 5 and 7 of the Act apply.", "该法第 5 条和第 7 条适用。"),
    ("Under § 5 of the Act.", "根据该法第 5 条。"),
    ("See Section 4 for details.", "详见第四节。"),
    # counts: single, ordinals, magnitudes written apart or hyphened
    ("A single GPU suffices.", "1 块 GPU 就足够了。"),
    ("The first version", "第 1 版"),
    ("The fifth rule applies.", "第 5 条规则适用。"),
    ("It serves 10 M queries per second.", "它每秒处理 1000 万次查询。"),
    ("We train a 10-billion parameter model.", "我们训练一个 100 亿参数的模型。"),
    # rates: per second written first
    ("Throughput is 3 GB/s.", "吞吐量为每秒 3 GB。"),
    ("It reaches 100 Gbps.", "它达到每秒 100 Gb。"),
    # abbreviations by their Chinese names
    (
        "The US and the EU regulate AI differently, as does the UK.",
        "美国和欧盟对人工智能的监管方式不同，英国也是如此。",
    ),
    ("The UN adopted it.", "联合国通过了它。"),
    ("The system is 2,000 LOC.", "该系统有 2000 行代码。"),
    ("It costs US$5 per hour.", "每小时花费 5 美元。"),
    ("The CLI and the UI both work.", "命令行和界面都能用。"),
    # quotations of the original kept in English
    (
        'The message says "the quick brown fox jumps over the lazy dog".',
        "消息显示“the quick brown fox jumps over the lazy dog”。",
    ),
    (
        'Click "Save all your drafts to the cloud now" to keep them.',
        "点击「Save all your drafts to the cloud now」以保存。",
    ),
    # autolinks and bare URLs are one target
    ("See <https://example.com/docs> for details.", "详见 https://example.com/docs。"),
    ("See https://example.com/docs for details.", "详见 <https://example.com/docs>。"),
    ("Visit https://example.com/a.", "请访问https://example.com/a获取更多信息。"),
    # a link text's number that its target holds may be worded away (the target is compared)
    (
        "See [arxiv.org/abs/2401.12345](https://arxiv.org/abs/2401.12345).",
        "见[该论文](https://arxiv.org/abs/2401.12345)。",
    ),
    (
        "See [issue 1234](https://github.com/a/b/issues/1234).",
        "见[该问题](https://github.com/a/b/issues/1234)。",
    ),
    # dates, versions, years after a preposition
    ("It was released on May 1, 2024.", "它于 2024 年 5 月 1 日发布。"),
    ("On November 21 and 22, 2024, experts meet.", "2024 年 11 月 21 日至 22 日，专家们会面。"),
    ("It was fixed in v1.2.", "它在 1.2 版中修复。"),
    ("Version 1.2 adds it.", "v1.2 版本加入了它。"),
    ("By 2030, most data will be synthetic.", "到 2030 年，大多数数据将是合成的。"),
    ("Since 2019 the project has grown.", "自 2019 年以来，该项目不断发展。"),
    ("Released 2024-05-01.", "发布于 2024 年 5 月 1 日。"),
    # counts in words before a magnitude word, decades, half as 50%
    ("Ten million users signed up.", "1000 万用户注册了。"),
    ("Two billion parameters.", "20 亿参数。"),
    ("In the 1990s, the web grew.", "在 20 世纪 90 年代，网络发展起来。"),
    ("In the 1990s, the web grew.", "在上世纪 90 年代，网络发展起来。"),
    ("Half of the requests fail.", "50% 的请求失败。"),
    ("Memory is halved.", "内存减少了 50%。"),
    ("This doubles the throughput.", "这使吞吐量提高到 2 倍。"),
    ("It triples the cost.", "它使成本增加到 3 倍。"),
    ("Both models agree.", "2 个模型都一致。"),
    ("The service runs 24/7.", "该服务全天候运行。"),
    ("Two thirds of users agree.", "2/3 的用户同意。"),
    ("The 50/50 split is fair.", "五五开的划分是公平的。"),
    # rates with their per-second word on either side, a rate after a thousands suffix
    ("It moves 2 GB per second.", "它的传输速度为 2 GB/s。"),
    ("It moves 2 GB/s.", "它的传输速度为 2 GB 每秒。"),
    ("It reaches 9K tok/s.", "它达到 9000 tok/s。"),
    ("94K vs. 9K tok/s", "94K 对 9K tok/s"),
]

#: (original, translation, code): a mistake of the same form, still found.
WRONG = [
    (
        "Under Section 5 of the Copyright Act, the owner may sue.",
        "根据《版权法》第 6 条，权利人可以起诉。",
        "DZ406",
    ),
    ("See Section 4 for details.", "详见第五节。", "DZ406"),
    ("A single GPU suffices.", "4 块 GPU 就足够了。", "DZ405"),
    ("It serves 10 M queries per second.", "它每秒处理 100 万次查询。", "DZ405"),
    (
        "Throughput is 3 GB/s and 850K reads per second.",
        "每秒 850K 次读取，吞吐量为 3 GB。",
        "DZ405",
    ),
    ("The US and the EU regulate AI differently.", "美国和对人工智能的监管方式不同。", "DZ421"),
    ("The user interface (UI) is simple.", "用户界面很简单。", "DZ421"),
    ("See <https://example.com/docs> for details.", "详见 <https://example.com/doc>。", "DZ403"),
    ("It was fixed in v1.2.", "它在 1.3 版中修复。", "DZ405"),
    ("Ten million users signed up.", "100 万用户注册了。", "DZ405"),
    ("It triples the cost.", "它使成本增加到 4 倍。", "DZ405"),
    (
        "See [issue 1234](https://github.com/a/b/issues/1234).",
        "见[问题 1243](https://github.com/a/b/issues/1234)。",
        "DZ405",
    ),
    (
        "See [the 3 steps](https://example.com/guide).",
        "见[这些步骤](https://example.com/guide)。",
        "DZ405",
    ),
    ("In the 1990s, the web grew.", "在 20 世纪 80 年代，网络发展起来。", "DZ405"),
    ("It reaches 9K tok/s.", "它达到 9K req/s。", "DZ405"),
    ("It moves 2 GB per second.", "它的传输速度为 2 MB/s。", "DZ405"),
    ("In 2021, the operators were merged.", "2012 年，这些算子被合并。", "DZ405"),
    (
        "Our analysis shows that the top 1% of channels contribute over 90% of the energy.",
        "我们的分析表明，the top 1% of gradient channels contribute over 90% of the ℓ²-norm energy。",
        "DZ420",
    ),
    (
        'The paper "Attention Is All You Need" introduced it.',
        "论文“we did not translate this sentence at all here”提出了它。",
        "DZ420",
    ),
]


@pytest.mark.parametrize(("original", "translation"), CORRECT)
def test_correct_forms_give_no_finding(original: str, translation: str) -> None:
    assert list(check_block(original, translation)) == []


@pytest.mark.parametrize(("original", "translation", "code"), WRONG)
def test_mistakes_of_those_forms_are_found(original: str, translation: str, code: str) -> None:
    assert code in {c for c, _ in check_block(original, translation)}


def test_articles_are_sections_only_where_the_original_has_one() -> None:
    sections = frozenset({("section", "230")})
    assert fm.articles("第 230 条和第二百三十条", sections) == {("section", "230")}
    assert fm.articles("第 5 条规则", frozenset()) == frozenset()
    assert fm.articles("第 5 条规则", frozenset({("figure", "5")})) == frozenset()


def test_lower_case_sentence_skips_code_like_tokens_and_short_stretches() -> None:
    assert fm.lower_case_sentence("读取 read/write snake_case a.b f(x) 参数", 8) is None
    assert fm.lower_case_sentence("我们 the top 1% of channels 中", 8) is None
    run = fm.lower_case_sentence(
        "结果：the top 1% of gradient channels contribute over 90% of it。", 8
    )
    assert run is not None and run.startswith("the top")


def test_per_second_values_read_the_number_right_after() -> None:
    assert fm.per_second_values("约每秒 32 GB，每秒处理 5 次") == {"32"}
    assert fm.per_second_values("每秒 1,200 次") == {"1200"}


def test_a_kept_title_is_no_sentence_but_a_kept_sentence_in_emphasis_is() -> None:
    en = "Kosseff is the author of the book *The Twenty-Six Words that Created the Internet*."
    for zh in (
        "Kosseff 是《The Twenty-Six Words that Created the Internet》一书的作者。",
        "Kosseff 是 *The Twenty-Six Words that Created the Internet* 一书的作者。",
    ):
        assert list(check_block(en, zh)) == []
    en = "We stress one point: **the platforms are not doing enough to moderate content.**"
    zh = "我们强调一点：**the platforms are not doing enough to moderate content.**"
    assert "DZ420" in {c for c, _ in check_block(en, zh)}


def test_a_glossary_term_of_several_words_kept_in_english_is_no_sentence() -> None:
    en = "Each sparsely gated mixture of experts layer routes a token to two of its experts."
    zh = "每个 sparsely gated mixture of experts layer 把一个 token 路由到其中两个专家。"
    assert "DZ420" in {c for c, _ in check_block(en, zh)}
    assert list(check_block(en, zh, frozenset({"sparsely gated mixture of experts layer"}))) == []


@pytest.mark.parametrize(
    ("translation", "codes"),
    [
        ("根据《美国法典》第 47 编第 230(c)(1) 条，平台不承担责任。", set()),
        ("根据《美国法典》第 47 编第 230 条 (c)(1)，平台不承担责任。", set()),
        ("根据《美国法典》第 47 编第 230(b)(1) 条，平台不承担责任。", {"DZ406"}),
        ("根据《美国法典》第 47 编第 230(c)(2) 条，平台不承担责任。", {"DZ405"}),
    ],
)
def test_a_subsection_of_a_statute(translation: str, codes: set[str]) -> None:
    original = "Under 47 U.S.C. § 230(c)(1), a platform is not liable."
    assert {c for c, _ in check_block(original, translation)} == codes


#: Session 35's second round of issue 23 (q23b): (original, translation), correct.
CORRECT_Q23B = [
    # 1. author-year citation lists kept in the translation are no English sentence
    (
        "Training large models consumes energy (Patterson et al., 2021; Dodge et al., 2022;"
        " Luccioni et al., 2023; Strubell et al., 2019).",
        "训练大型模型会消耗大量能源（Patterson et al., 2021; Dodge et al., 2022;"
        " Luccioni et al., 2023; Strubell et al., 2019）。",
    ),
    (
        "Prior work (Smith and Jones, 2020a; Brown & Lee, 2020b; Wang and Li, 2019;"
        " Kim et al., 2018) studied it.",
        "先前的工作（Smith and Jones, 2020a; Brown & Lee, 2020b; Wang and Li, 2019;"
        " Kim et al., 2018）研究了它。",
    ),
    # 2. kB and KB are one unit
    ("It stores 4 kB per page.", "每页存储 4 KB。"),
    ("The link runs at 100 Gbps.", "该链路的速度为 100 Gb/s。"),
    ("The link runs at 8 Gbit/s.", "该链路的速度为 8 Gb/s。"),
    # 3. a legal citation quoted unchanged
    ("The claim arises under 42 U.S.C. § 1983.", "该诉讼依据 42 U.S.C. § 1983 提出。"),
    (
        "The automatic stay of 11 U.S.C. § 362(a) applies.",
        "11 U.S.C. § 362(a) 规定的自动中止适用。",
    ),
    # 4. EU legal acts numbered YYYY/NNN
    ("Commission Decision 2011/833 governs reuse.", "欧盟委员会第 2011/833 号决定规范了再利用。"),
    ("Regulation 2016/679 is the GDPR.", "第 2016/679 号条例即 GDPR。"),
    ("Directive 2019/790 applies.", "第 2019/790 号指令适用。"),
    # 5. one value in digits and in words, written twice in digits
    (
        "We generate 8 tokens per step and then process all eight tokens at once.",
        "我们每步生成 8 个 token，然后一次性处理全部 8 个 token。",
    ),
    (
        "We generate eight tokens per step and then process all 8 tokens at once.",
        "我们每步生成 8 个 token，然后一次性处理全部 8 个 token。",
    ),
    (
        "We generate 8 tokens per step and then process all eight tokens at once.",
        "我们每步生成八个 token，然后一次性处理全部八个 token。",
    ),
    # 6. the United States Code by its Chinese name
    (
        "Works of the government are excluded by 17 USC 105.",
        "政府作品依《美国法典》第 17 编第 105 条被排除在外。",
    ),
    (
        "Works of the government are excluded by 17 U.S.C. § 105.",
        "政府作品依《美国法典》第 17 编第 105 条被排除在外。",
    ),
    # 7. a count attached to a noun, with ordinals and idioms of other values around it
    (
        "Training is a two phase process: the second phase refines the model.",
        "训练是一个两阶段的过程：第二阶段对模型进行精调。",
    ),
    ("It is a two phase process that uses binary codes.", "这是一个二阶段的过程，使用二进制编码。"),
    ("A single pass is very fast.", "一次遍历十分快。"),
    ("We run a two phase commit across three nodes.", "我们在三个节点上运行一次两阶段提交。"),
    ("It is a two-phase process.", "这是一个两阶段的过程。"),
]

#: (original, translation, code): the mistakes of those forms, found.
WRONG_Q23B = [
    (
        "Training large models consumes energy (Patterson et al., 2021; Dodge et al., 2022;"
        " Luccioni et al., 2023; Strubell et al., 2019) and the cost keeps growing each year.",
        "训练大型模型会消耗大量能源（Patterson et al., 2021; Dodge et al., 2022;"
        " Luccioni et al., 2023; Strubell et al., 2019）and the cost keeps growing each year。",
        "DZ420",
    ),
    ("The link runs at 1 GB/s.", "该链路的速度为 1 Gb/s。", "DZ405"),
    ("HBM delivers 2 TB/s.", "HBM 提供 2 GB/s。", "DZ405"),
    ("HBM delivers 2 TB/s.", "HBM 每秒提供 2 GB。", "DZ405"),
    ("The link runs at 100 Gbps.", "该链路的速度为 100 GB/s。", "DZ405"),
    ("Each page holds 4 KB.", "每页存储 4 Kb。", "DZ405"),
    ("The claim arises under 42 U.S.C. § 1983.", "该诉讼依据 42 U.S.C. § 1938 提出。", "DZ406"),
    (
        "Commission Decision 2011/833 governs reuse.",
        "欧盟委员会第 2011/838 号决定规范了再利用。",
        "DZ405",
    ),
    (
        "We generate 8 tokens per step and then process all eight tokens at once.",
        "我们每步生成 8 个 token，然后一次性处理全部 token。",
        "DZ405",
    ),
    (
        "We generate 8 tokens and process eight tokens, then eight more.",
        "我们生成 8 个 token，处理 8 个 token，然后再处理更多。",
        "DZ405",
    ),
    (
        "Works of the government are excluded by 17 USC 105.",
        "政府作品依《美国法典》第 17 编第 106 条被排除在外。",
        "DZ405",
    ),
    ("It is a two phase process.", "这是一个三阶段的过程。", "DZ405"),
    (
        "Training is a two phase process: the second phase refines the model.",
        "训练是一个三阶段的过程：第二阶段对模型进行精调。",
        "DZ405",
    ),
    (
        "It is a two phase process that uses binary codes.",
        "这是一个三阶段的过程，使用二进制编码。",
        "DZ405",
    ),
]


@pytest.mark.parametrize(("original", "translation"), CORRECT_Q23B)
def test_q23b_correct_forms_give_no_finding(original: str, translation: str) -> None:
    assert list(check_block(original, translation)) == []


@pytest.mark.parametrize(("original", "translation", "code"), WRONG_Q23B)
def test_q23b_mistakes_are_found(original: str, translation: str, code: str) -> None:
    assert code in {c for c, _ in check_block(original, translation)}


def test_a_changed_unit_is_shown_as_written() -> None:
    found = dict(check_block("The link runs at 1 GB/s.", "该链路的速度为 1 Gb/s。"))
    assert found.get("DZ405") == "unit of 1 changed: GB/s → Gb/s"
    assert "DZ421" not in found  # the unit's letters are DZ405's to compare
