"""Option types for duizhao's text options: the characters an author's YAML may hold.

MkDocs reads mkdocs.yml with its own loader, which turns a double-quoted ``"\\udcff"`` or
``"\\0"`` into a lone surrogate or a control character. Such a section name would crash the
UTF-8 write of a generated page, and such a path the first ``open``: both are refused as a
configuration error naming the option, with the rule :mod:`duizhao.yamlsafe` applies to every
YAML file duizhao reads itself.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import ValidationError

from .yamlsafe import NON_PRINTABLE_RE


def check_text(value: str, what: str = "the value") -> str:
    bad = NON_PRINTABLE_RE.search(value)
    if bad is not None:
        raise ValidationError(
            f"{what} {value[:40]!r} holds U+{ord(bad.group(0)):04X} (a control character or a "
            "lone surrogate, as an escape in a double-quoted string makes it); remove it"
        )
    return value


class Text(c.Type[str]):
    """A string without control characters or lone surrogates."""

    def __init__(self, default: str | None = None) -> None:
        super().__init__(str, default=default)

    def run_validation(self, value: object) -> str:
        return check_text(super().run_validation(value))


class TextDict(c.DictOfItems[str]):
    """``{text: text}``, keys and values checked alike (``site: sections:``)."""

    def __init__(self, default: dict[str, str] | None = None) -> None:
        super().__init__(Text(), default=default)

    def run_validation(self, value: object) -> dict[str, Any]:
        result = super().run_validation(value)
        for key in result:
            check_text(key, "the key")
        return result


class CheckCode(c.Type[str]):
    """A code of the translation checks (DZ401-DZ439, DZ445-DZ447), as ``quality: ignore:``
    names them."""

    def __init__(self) -> None:
        super().__init__(str)

    def run_validation(self, value: object) -> str:
        from .quality.run import OptionsError, check_code

        try:
            return check_code(super().run_validation(value))
        except OptionsError as exc:
            raise ValidationError(str(exc).removeprefix("quality: ignore: ")) from None
