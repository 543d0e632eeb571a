"""How many examples a property test draws: a fast slice in `make test`, many more in `make fuzz`.

`make fuzz` sets ``DUIZHAO_FUZZ=long`` and runs the property tests with the long counts.
"""

from __future__ import annotations

import os

LONG = os.environ.get("DUIZHAO_FUZZ") == "long"


def examples(suite: int, long: int) -> int:
    """`suite` examples in the suite, `long` under `make fuzz`."""
    return long if LONG else suite


#: Why a held-out corpus's score floors are not in `make test`: scoring the held-out PDF
#: sets costs about 50 s of the suite's CPU; the suite scores the tuned corpus (its fast
#: representative slice) and `make fuzz` holds every held-out set to its floors.
HELD_OUT_IN_FUZZ = "held-out detection floors run in `make fuzz` (DUIZHAO_FUZZ=long)"
