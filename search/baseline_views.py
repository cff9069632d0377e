"""The baselines of bench/load.py served through the same Django stack as our search, with the same
JSON shape. Mounted only when SEARCH["BASELINE_VIEWS"] is on (off by default)."""
from django.conf import settings
from django.http import Http404
from django.views.decorators.http import require_GET

from search import baselines
from search.service import normalize
from search.views import json_response


@require_GET
def baseline(request, name: str):
    if not settings.SEARCH["BASELINE_VIEWS"]:
        raise Http404
    query = normalize(request.GET.get("q", ""))
    if name == "multi_match":
        hits, total = baselines.multi_match_hits(query)
    elif name == "postgres":
        hits, total = baselines.postgres_hits(query)
    else:
        raise Http404
    return json_response({"query": query, "total": total, "results": hits})
