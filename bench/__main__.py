"""``python -m bench``: run every benchmark and print one table (see :mod:`bench.run`)."""

import sys

from bench.run import main

if __name__ == "__main__":
    sys.exit(main())
