"""How many examples a property test draws: a fast slice in `make test`, many more in `make fuzz`.

`make fuzz` sets ``DUIZHAO_FUZZ=long`` and runs the property tests with the long counts.
"""

from __future__ import annotations

import os

LONG = os.environ.get("DUIZHAO_FUZZ") == "long"


def examples(suite: int, long: int) -> int:
    """`suite` examples in the suite, `long` under `make fuzz`."""
    return long if LONG else suite
