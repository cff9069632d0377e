"""/search/click: a result opened from a logged search.

POST is what the pages' scripts send with navigator.sendBeacon (the browser sends it in the
background, navigation never waits): `id`, `pos`, `to` form-encoded; the answer is 204, or 400,
413, 429 for what was refused. GET is the no-JavaScript form of the same link on the results
page: it records the click and redirects to `to`, which must be one of our own post URLs (400
otherwise, never an open redirect). A GET with an id that is unknown, expired or over the rate
still leads to the (valid) post, recording nothing: a stale link must not strand a reader.
"""

from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseRedirect, QueryDict
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from insights import clicks, conf, tokens


@csrf_exempt  # a beacon carries no CSRF token; the signed query id is what is checked
@never_cache
@require_http_methods(["GET", "POST"])
def click(request):
    limit = conf.get().click_max_bytes
    if request.method == "POST":
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return HttpResponseBadRequest("bad Content-Length")
        if length > limit:
            return HttpResponse("too large", status=413, content_type="text/plain")
        if request.content_type == "multipart/form-data":  # a FormData beacon; the length is checked above
            params = request.POST
        else:  # URLSearchParams (form-encoded) or a text/plain body of the same form
            body = request.read(limit + 1)  # never more, whatever the header said
            if len(body) > limit:
                return HttpResponse("too large", status=413, content_type="text/plain")
            params = QueryDict(body.decode("utf-8", "replace"))
    else:
        if len(request.META.get("QUERY_STRING", "")) > limit:
            return HttpResponse("too large", status=413, content_type="text/plain")
        params = request.GET
    target = clicks.own_post_url(params.get("to", ""))
    pos = clicks.position(params.get("pos", ""))
    if target is None or pos is None:
        return HttpResponseBadRequest("not a result of this site", content_type="text/plain")
    verified = tokens.verify(params.get("id", "")) if conf.get().enabled else None  # (token, search)
    if verified is None:
        outcome = HttpResponseBadRequest("unknown query id", content_type="text/plain")
    elif not clicks.within_rate(request.META.get("REMOTE_ADDR", "")):
        outcome = HttpResponse("too many clicks", status=429, content_type="text/plain")
    else:
        clicks.store(*verified, pos, target)
        outcome = HttpResponse(status=204)
    if request.method == "GET":
        return HttpResponseRedirect(target)
    return outcome
