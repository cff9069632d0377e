"""A second "worker process" for tests: reads queries on stdin, prints the search result as JSON.

It has its own local-memory result cache (and, with `--api`, the JSON API's answer memo: the query
goes through /api/search/), like a separate gunicorn worker. With
`--late-notifications` its generation listener never reads its socket between searches (and never
re-reads the row on its own timer): the worst case of a notification that has not reached this
process yet when a search starts, which a busy machine produces now and then and a test cannot
wait for."""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from search import answers, generation, process  # noqa: E402
from search.querying.service import search  # noqa: E402


class LateNotifications:
    """The listening connection, except that poll() reads nothing: what PostgreSQL sent stays unread."""

    def __init__(self, conn):
        self._conn = conn

    def poll(self):
        return None

    def __getattr__(self, name):
        return getattr(self._conn, name)


if "--late-notifications" in sys.argv:
    settings.SEARCH = {**settings.SEARCH, "GENERATION_RECHECK_SECONDS": 3600.0}
    process.reset_process_state()
    connect = generation.Listener._connect

    def _connect(self):
        connect(self)
        self.conn = LateNotifications(self.conn)

    generation.Listener._connect = _connect

if "--api" in sys.argv:
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    looked_up = []  # whether each memo lookup found an answer
    memo_get = answers.memo.get
    answers.memo.get = lambda key: looked_up.append(memo_get(key)) or looked_up[-1]
    for line in sys.stdin:
        looked_up.clear()
        body = client.get("/api/search/", {"q": line.strip()}).json()
        memo_hit = bool(looked_up) and looked_up[-1] is not None
        print(json.dumps({"memo": memo_hit, "titles": [r["title"] for r in body["results"]]}), flush=True)
else:
    for line in sys.stdin:
        result = search(line.strip())
        print(json.dumps({"cached": result.cached, "titles": [h.title for h in result.hits]}), flush=True)
