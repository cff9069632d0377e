"""The baselines of bench/load.py served through the same Django stack as our search, with the same
JSON shape, and the stack's ceiling (a hello-world view). Mounted by config/urls.py only when
SEARCH["BASELINE_VIEWS"] is on (off by default): not part of the product."""

from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from bench import baselines
from search.querying.service import normalize
from search.views import json_response


@require_GET
def hello(request):
    """The cheapest answer the stack can give: what a cached search is compared with."""
    return HttpResponse(b'{"hello": "world"}', content_type="application/json")


@require_GET
def baseline(request, name: str):
    query = normalize(request.GET.get("q", ""))
    if name in ("multi_match", "fuzzy"):
        hits, total = baselines.multi_match_hits(query, fuzzy=name == "fuzzy", snippets=request.GET.get("snippets") != "0")
    elif name == "postgres":
        hits, total = baselines.postgres_hits(query)
    else:
        raise Http404
    return json_response({"query": query, "total": total, "results": hits})
