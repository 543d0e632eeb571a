"""``python -m duizhao.cli``: the ``duizhao`` command."""

from . import main

if __name__ == "__main__":  # (not when imported: tests/redos_patterns.py imports every module)
    main()
