"""What every page's search box needs to know about the log (templates/base.html): where clicks
are reported (nothing when the log is off) and how long a pause ends a typing burst."""

from django.conf import settings
from django.urls import reverse


def insights(request) -> dict:
    conf = settings.INSIGHTS
    return {"insights_click_url": reverse("insights:click") if conf["ENABLED"] else "", "insights_burst_idle_ms": conf["BURST_IDLE_MS"]}
