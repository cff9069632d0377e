#!/usr/bin/env python
"""The notebook site's manage.py (run from examples/notebook/)."""

import os
import sys
from pathlib import Path

if __name__ == "__main__":
    # The repository's search app, as `pip install` would provide it, when run from a checkout.
    sys.path.insert(1, str(Path(__file__).resolve().parents[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "notebook_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
