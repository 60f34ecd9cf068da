"""``python -m obverse``: the ``obverse`` command line."""

import sys

from obverse.cli import main

if __name__ == "__main__":
    sys.exit(main())
