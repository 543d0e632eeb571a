"""``duizhao``: the authors' command line. Reads sources; never builds the site.

One module per command family (check, new, import and update, renumber, status; figures and
glossary live with their features), and what they share in :mod:`duizhao.cli.common`.
Commands import what only they need, and the group imports a command's module only when that
command runs (or ``--help`` lists it): `duizhao check` starts without the importer's Markdown
parser, Pillow or MkDocs, without the figure and glossary commands, and without the writing
commands' modules (the lock's hashing, atomic writes, the progress report).
"""

from __future__ import annotations

import importlib

import click

from .common import find_project, iter_markdown

__all__ = ["find_project", "iter_markdown", "main"]

#: Each command's name, the module that defines it (relative to this package) and its name there.
COMMANDS: dict[str, tuple[str, str]] = {
    "check": (".check", "check"),
    "new": (".new", "new"),
    "import": (".originals", "import_"),
    "renumber": (".renumber", "renumber"),
    "update": (".originals", "update"),
    "status": (".status", "status"),
    "figures": ("..figures.cli", "figures"),
    "glossary": ("..quality.glossary.cli", "glossary"),
}


class _LazyGroup(click.Group):
    """A group whose commands are imported on first use (listed in :data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in COMMANDS:
            return super().get_command(ctx, cmd_name)
        module, attr = COMMANDS[cmd_name]
        command: click.Command = getattr(importlib.import_module(module, __name__), attr)
        self.add_command(command, cmd_name)
        return command


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="duizhao")
def main() -> None:
    """duizhao: bilingual, paragraph-numbered paper translations on MkDocs + Material."""
