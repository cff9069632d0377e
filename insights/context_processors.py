"""What every page's search box needs to know about the log (templates/base.html): where clicks
are reported (nothing when the log is off) and how long a pause ends a typing burst."""

from django.urls import reverse

from insights import conf


def insights(request) -> dict:
    options = conf.get()
    return {"insights_click_url": reverse("insights:click") if options.enabled else "", "insights_burst_idle_ms": options.burst_idle_ms}
