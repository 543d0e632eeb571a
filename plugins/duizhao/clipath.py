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
