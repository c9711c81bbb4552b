"""``python -m fairwitness``."""

from __future__ import annotations

import sys

from fairwitness.cli import main

if __name__ == "__main__":
    sys.exit(main())
