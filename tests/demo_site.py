"""The example site (examples/demo/): copied into a temporary folder and built there.

The copy keeps the layout that its `vendor_dir: ../../node_modules` expects (node_modules two
levels up, linked to this checkout's), so building writes nothing into the repository (the crop
cache lives next to the copied mkdocs.yml).
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "examples" / "demo"


def copy_demo(where: Path) -> Path:
    """A copy of examples/demo under ``where``; returns the folder holding its mkdocs.yml."""
    project = where / "examples" / "demo"
    shutil.copytree(DEMO, project, ignore=shutil.ignore_patterns(".cache", "site"))
    (where / "node_modules").symlink_to(ROOT / "node_modules")
    return project


def build_demo(where: Path, *, strict: bool = True) -> Path:
    """Build a copy of the example site under ``where``; returns its site folder."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    project = copy_demo(where)
    site_dir = where / "site"
    build(load_config(str(project / "mkdocs.yml"), site_dir=str(site_dir), strict=strict))
    return site_dir
