"""Glossary import and export: TBX (TBX-Basic / TBX v3 core structure) and CSV.

CSV uses the columns of pdf2zh / BabelDOC's glossaries (``source,target,tgt_lng``), plus
duizhao's own optional columns (``allowed``, ``forbidden``, ``definition``, ``note``; several
renderings joined with ``|``). TBX: one ``<conceptEntry>`` per entry with an ``en`` and a
``zh`` ``<langSec>``; each form or rendering a ``<termSec>`` whose
``administrativeStatus`` is preferredTerm-admn-sts, admittedTerm-admn-sts or
deprecatedTerm-admn-sts; the definition a ``<descrip type="definition">``, the note a
``<note>``. Reading is bounded (file size, no entities: defusedxml-like refusal of DOCTYPE).
Pure.
"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import yaml

from ...diagnostics import Diagnostic
from ...yamlsafe import InputError, read_bytes
from .model import Entry

CSV_COLUMNS = ["source", "target", "tgt_lng", "allowed", "forbidden", "definition", "note"]
STATUS = {
    "preferredTerm-admn-sts": "zh",
    "admittedTerm-admn-sts": "zh_allowed",
    "deprecatedTerm-admn-sts": "zh_forbidden",
}
MAX_IMPORT_BYTES = 16 * 1024 * 1024


def to_yaml_items(entries: list[Entry]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for e in entries:
        item: dict[str, Any] = {"en": list(e.en), "zh": e.zh}
        for key in ("zh_allowed", "zh_forbidden"):
            if getattr(e, key):
                item[key] = list(getattr(e, key))
        for key in ("keep_en", "case"):
            if getattr(e, key):
                item[key] = True
        for key in ("first_use", "definition", "note"):
            if getattr(e, key):
                item[key] = getattr(e, key)
        items.append(item)
    return items


def dump_yaml(items: list[dict[str, Any]]) -> str:
    return yaml.safe_dump(items, allow_unicode=True, sort_keys=False, width=100)


def export_csv(entries: list[Entry]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for e in entries:
        for form in e.en:
            writer.writerow(
                [
                    form,
                    e.zh,
                    "zh-CN",
                    "|".join(e.zh_allowed),
                    "|".join(e.zh_forbidden),
                    e.definition,
                    e.note,
                ]
            )
    return out.getvalue()


def export_tbx(entries: list[Entry]) -> str:
    tbx = ET.Element(
        "tbx",
        {
            "style": "dca",
            "type": "TBX-Basic",
            "xml:lang": "en",
            "xmlns": "urn:iso:std:iso:30042:ed-2",
        },
    )
    header = ET.SubElement(tbx, "tbxHeader")
    desc = ET.SubElement(ET.SubElement(header, "fileDesc"), "sourceDesc")
    ET.SubElement(desc, "p").text = "duizhao glossary.yml"
    body = ET.SubElement(ET.SubElement(tbx, "text"), "body")
    for n, e in enumerate(entries, 1):
        concept = ET.SubElement(body, "conceptEntry", {"id": f"c{n}"})
        if e.definition:
            ET.SubElement(concept, "descrip", {"type": "definition"}).text = e.definition
        if e.note:
            ET.SubElement(concept, "note").text = e.note
        en = ET.SubElement(concept, "langSec", {"xml:lang": "en"})
        for form in e.en:
            _term(en, form, "preferredTerm-admn-sts")
        zh = ET.SubElement(concept, "langSec", {"xml:lang": "zh"})
        _term(zh, e.zh, "preferredTerm-admn-sts")
        for r in e.zh_allowed:
            _term(zh, r, "admittedTerm-admn-sts")
        for r in e.zh_forbidden:
            _term(zh, r, "deprecatedTerm-admn-sts")
    ET.indent(tbx)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(tbx, "unicode") + "\n"


def _term(lang: ET.Element, text: str, status: str) -> None:
    sec = ET.SubElement(lang, "termSec")
    ET.SubElement(sec, "term").text = text
    ET.SubElement(sec, "termNote", {"type": "administrativeStatus"}).text = status


def import_file(path: Path) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    """YAML items (to be merged into glossary.yml) from a .csv or .tbx file."""
    try:
        data = read_bytes(path, MAX_IMPORT_BYTES)
        text = data.decode("utf-8-sig")
    except InputError as exc:
        return [], [Diagnostic(path, exc.line, "DZ448", str(exc))]
    except UnicodeDecodeError:
        return [], [Diagnostic(path, 1, "DZ448", "file is not UTF-8; save it as UTF-8")]
    if path.suffix.lower() in (".tbx", ".xml"):
        return _import_tbx(text, path)
    return _import_csv(text, path)


def _split(value: str | None) -> list[str]:
    return [v.strip() for v in (value or "").split("|") if v.strip()]


def _import_csv(text: str, path: Path) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or not {"source", "target"} <= set(reader.fieldnames):
        return [], [
            Diagnostic(
                path,
                1,
                "DZ448",
                "a glossary CSV needs the columns "
                "'source' and 'target' (pdf2zh/BabelDOC: source,target,tgt_lng)",
            )
        ]
    by_target: dict[tuple[str, str], dict[str, Any]] = {}
    for row in reader:
        lang = (row.get("tgt_lng") or "").strip().lower().replace("_", "-")
        source, target = (row.get("source") or "").strip(), (row.get("target") or "").strip()
        if not source or not target or (lang and not lang.startswith("zh")):
            continue
        item = by_target.setdefault((target, row.get("definition") or ""), {"en": [], "zh": target})
        if source not in item["en"]:
            item["en"].append(source)
        for col, key in (("allowed", "zh_allowed"), ("forbidden", "zh_forbidden")):
            if _split(row.get(col)):
                item[key] = _split(row.get(col))
        for key in ("definition", "note"):
            if (row.get(key) or "").strip():
                item[key] = row[key].strip()
    return list(by_target.values()), []


def _import_tbx(text: str, path: Path) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        return [], [
            Diagnostic(
                path,
                1,
                "DZ448",
                "a TBX file with a DOCTYPE or entities is refused; remove the DOCTYPE line",
            )
        ]
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        return [], [Diagnostic(path, exc.position[0], "DZ448", f"not well-formed XML: {exc}")]
    xml_lang = "{http://www.w3.org/XML/1998/namespace}lang"
    items: list[dict[str, Any]] = []
    for concept in root.iter():
        if _local(concept.tag) not in ("conceptEntry", "termEntry"):
            continue
        item: dict[str, Any] = {"en": []}
        for child in concept.iter():
            tag = _local(child.tag)
            if tag == "descrip" and child.get("type") == "definition" and child.text:
                item["definition"] = " ".join(child.text.split())
            elif tag == "note" and child.text:
                item["note"] = " ".join(child.text.split())
            elif tag in ("langSec", "langSet"):
                lang = (child.get(xml_lang) or child.get("lang") or "").lower()
                for sec in child.iter():
                    if _local(sec.tag) not in ("termSec", "tig", "ntig"):
                        continue
                    term = next((t.text for t in sec.iter() if _local(t.tag) == "term"), None)
                    status = next(
                        (
                            t.text
                            for t in sec.iter()
                            if _local(t.tag) == "termNote"
                            and t.get("type") == "administrativeStatus"
                        ),
                        None,
                    )
                    if not term or not term.strip():
                        continue
                    term = " ".join(term.split())
                    if lang.startswith("en"):
                        item["en"].append(term)
                    elif lang.startswith("zh"):
                        key = STATUS.get((status or "").strip(), "zh_allowed")
                        if key == "zh" and "zh" not in item:
                            item["zh"] = term
                        else:
                            item.setdefault("zh_allowed" if key == "zh" else key, []).append(term)
        if item["en"] and "zh" not in item and item.get("zh_allowed"):
            item["zh"] = item["zh_allowed"].pop(0)
            if not item["zh_allowed"]:
                del item["zh_allowed"]
        if item["en"] and "zh" in item:
            items.append(
                {
                    k: item[k]
                    for k in ("en", "zh", "zh_allowed", "zh_forbidden", "definition", "note")
                    if k in item
                }
            )
    return items, []


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
