"""A second "worker process" for tests: reads queries on stdin, prints the search result as JSON.

It has its own local-memory result cache, like a separate gunicorn worker."""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from search.querying.service import search  # noqa: E402

for line in sys.stdin:
    result = search(line.strip())
    print(json.dumps({"cached": result.cached, "titles": [h.title for h in result.hits]}), flush=True)
