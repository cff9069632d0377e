from django.http import JsonResponse
from django.shortcuts import render


def results(request):
    return render(request, "search/results.html", {"query": request.GET.get("q", "")})


def api(request):
    return JsonResponse({"query": request.GET.get("q", ""), "results": []})
