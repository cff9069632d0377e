"""The rolling upgrade of the three-node cluster from Elasticsearch 8.19 to 9.x (issue 50), as a
site does it (docs/upgrading.md): the server first, node by node on the same data, with the
site's client 8.19 (which talks to both lines) while readers search and an author saves. After
it: no search failed, every written row is in the index and found by a reader searching for it.

Run by `make test-upgrade`, which starts a cluster of its own on 8.19.21 (its data ends on 9.x)
in the oldest corner's venv and names the target version in CLUSTER_UPGRADE_TO."""

import json
import logging
import os
import urllib.request
from urllib.parse import urlencode

import pytest
from django.core.management import call_command

from blog.models import Post
from search.models import PendingChange
from tests_cluster.conftest import NODES, cluster
from tests_cluster.workload import UNCACHED, Author, SearchLoad, describe, differences, make_corpus

log = logging.getLogger(__name__)
TARGET = os.environ.get("CLUSTER_UPGRADE_TO", "")
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not TARGET, reason="make test-upgrade names the version to upgrade to (CLUSTER_UPGRADE_TO)"),
]


def versions() -> dict[str, str]:
    """Each node's name and its Elasticsearch version."""
    return dict(line.split() for line in cluster("versions").splitlines())


def found_by_its_title(base_url: str, title: str) -> bool:
    """Whether a reader searching the title as a phrase gets the post among the results."""
    query = urlencode({"q": '"' + title + '"'})
    with urllib.request.urlopen(f"{base_url}/api/search/?{query}", timeout=30) as r:
        return title in [hit["title"] for hit in json.loads(r.read())["results"]]


def test_rolling_upgrade_to_9_loses_no_search_and_no_write(es, build_index, web_server):
    before = versions()
    assert len(before) == NODES and all(v.startswith("8.19.") for v in before.values()), before
    make_corpus(posts_per_topic=10)
    build_index()
    server = web_server(**UNCACHED)
    steps = []
    with SearchLoad(server, readers=2, pause=0.05) as load, Author(pause=0.3) as author:
        for node in range(1, NODES + 1):  # one by one, each back and green before the next
            cluster("upgrade-node", str(node), TARGET, timeout=600)
            steps.append(f"node-{node}: {load.count()} searches, {author.saves} saves")
    log.info("rolling upgrade to %s: %s; %d saves; %s", TARGET, load.summary(), author.saves, "; ".join(steps))
    assert versions() == {f"node-{n}": TARGET for n in range(1, NODES + 1)}
    assert load.count() > 100 and author.saves > 10, "the load did not run"
    assert not load.failures(), describe(load.failures())
    # Zero lost writes: the outbox is applied, the index matches PostgreSQL row for row, and a
    # reader finds every post the author wrote or edited during the upgrade by its title.
    call_command("search_sync")
    assert PendingChange.objects.count() == 0
    assert differences(es) == {}
    call_command("search_check")
    written = list(Post.objects.filter(title__startswith="Author draft").values_list("title", flat=True))
    assert len(written) > 5
    missed = [title for title in written if not found_by_its_title(server, title)]
    assert not missed, f"{len(missed)} of {len(written)} written posts not found by their title: {missed[:10]}"
