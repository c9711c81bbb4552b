"""The GitHub Action's entry point (see action.yml): everything happens in fairwitness.github."""

from __future__ import annotations

import sys

from fairwitness.github.action import main

if __name__ == "__main__":
    sys.exit(main())
