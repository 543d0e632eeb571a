"""``python -m duizhao.cli``: the ``duizhao`` command."""

from . import main

main()
