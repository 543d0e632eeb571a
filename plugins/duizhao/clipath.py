"""The CLI's path argument for files duizhao reads or writes as articles."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from .checks import utf8_name
from .diagnostics import display_path


class ArticlePath(click.Path):
    """``click.Path`` that refuses a name of undecodable bytes (``bad\\xff.md``) as a usage
    error: such a page has no URL, title or lock key that UTF-8 text can hold."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(path_type=Path, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, (str, os.PathLike)) and not utf8_name(value):
            self.fail(
                f"{display_path(Path(value))}: the file name is not UTF-8; rename it", param, ctx
            )
        return super().convert(value, param, ctx)


class Refused(click.ClickException):
    """A command stopped by its input: the message is a diagnostic line (``PATH:PAGE: CODE
    message``), printed on stderr as it is, without click's ``Error:``."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        self.exit_code = exit_code

    def show(self, file: Any = None) -> None:
        click.echo(self.format_message(), err=True)
