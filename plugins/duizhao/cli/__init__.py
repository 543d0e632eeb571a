"""``duizhao``: the authors' command line. Reads sources; never builds the site.

One module per command family (check, new, import and update, renumber, status; figures and
glossary live with their features), and what they share in :mod:`duizhao.cli.common`.
Commands import what only they need: `duizhao check` starts without the importer's Markdown
parser, Pillow or MkDocs, and without the writing commands' modules (the lock's hashing,
atomic writes, the progress report).
"""

from __future__ import annotations

import click

from ..figures.cli import figures
from ..quality.glossary.cli import glossary
from .check import check
from .common import find_project, iter_markdown
from .new import new
from .originals import import_, update
from .renumber import renumber
from .status import status

__all__ = ["find_project", "iter_markdown", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="duizhao")
def main() -> None:
    """duizhao: bilingual, paragraph-numbered paper translations on MkDocs + Material."""


for _command in (check, new, import_, renumber, update, status, figures, glossary):
    main.add_command(_command)
