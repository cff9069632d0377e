"""What the query log stores: searches served (a row per search, or per identical searches of one
batch, counted), one row per result opened, one per day.

Nothing here can identify a reader: no IP address, no user agent, no cookie, no user. A row says
what was searched and how the search went, at what time (PostgreSQL's clock, `now()`).
"""

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import BrinIndex
from django.db import models
from django.db.models.functions import Now


class SearchLog(models.Model):
    """Searches served: results pages, pages of the JSON API, instant-results bursts.

    Rows are written in batches by insights/buffer.py, so `created` is the time of the batch's
    INSERT (a few seconds after the searches at most). Identical searches of one batch (the same
    query, source, page and outcome, as cached answers repeat) share a row: `searches` counts
    them and `elapsed_ms` holds each one's time, so every report sums `searches` and takes
    percentiles over the times, exactly as with a row per search. `token` is the random part of
    the query ids handed to those searches' pages, which clicks quote (with a part per search).
    `burst` (a random id the instant-results script makes up for one typing burst, nothing else)
    lets every keystroke of a burst update the same row, the highest `seq` winning, so a burst
    counts as one search.
    """

    PAGE, INSTANT, API = "page", "instant", "api"
    SOURCES = [(PAGE, "results page"), (INSTANT, "instant results"), (API, "JSON API")]

    token = models.CharField(max_length=24)
    source = models.CharField(max_length=8, choices=SOURCES)
    burst = models.CharField(max_length=40, null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)
    query = models.TextField()
    page = models.PositiveSmallIntegerField(default=1)
    total = models.PositiveIntegerField(default=0)
    strategy = models.CharField(max_length=20, blank=True)
    showing_for = models.TextField(blank=True)
    round_trips = models.PositiveSmallIntegerField(default=0)
    took_ms = models.PositiveIntegerField(default=0)
    cached = models.BooleanField(default=False)
    searches = models.PositiveIntegerField(default=1)
    elapsed_ms = ArrayField(models.FloatField(), default=list)  # one per search counted
    created = models.DateTimeField(db_default=Now())

    class Meta:
        verbose_name = "search"
        # Rows arrive in time order and are read by time ranges: a BRIN index costs the writes
        # next to nothing, unlike a b-tree (84-88 us per row with one, when measured).
        indexes = [BrinIndex(fields=["created"], name="insights_searchlog_created")]
        verbose_name_plural = "search log"
        constraints = [
            # Partial: the many rows without a burst add nothing to this index.
            models.UniqueConstraint(fields=["burst"], condition=models.Q(burst__isnull=False), name="insights_one_row_per_burst"),
        ]

    def __str__(self):
        return f"{self.query} ({self.source}, {self.total} results, {self.searches}x)"


class SearchClick(models.Model):
    """A result opened from a logged search: which search (its row's token and its own part of
    the query id), which result, at which position.

    Not a foreign key: the search's row may still be in a worker's buffer when the click arrives.
    One row per (search, position), so a repeated beacon or a reload of the redirect counts once.
    """

    token = models.CharField(max_length=24)  # indexed by the unique constraint below
    search = models.CharField(max_length=12, default="", blank=True)
    position = models.PositiveSmallIntegerField()
    url = models.CharField(max_length=300)
    created = models.DateTimeField(db_default=Now(), db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["token", "search", "position"], name="insights_one_click_per_search_position")]

    def __str__(self):
        return f"#{self.position} {self.url}"


class DailyStat(models.Model):
    """A day's figures, kept after its log rows are pruned so the charts and rates survive."""

    day = models.DateField(unique=True)
    searches = models.PositiveIntegerField(default=0)
    zero_results = models.PositiveIntegerField(default=0)
    corrected = models.PositiveIntegerField(default=0)
    cached = models.PositiveIntegerField(default=0)
    clicked_searches = models.PositiveIntegerField(default=0)
    clicks = models.PositiveIntegerField(default=0)
    position_sum = models.PositiveBigIntegerField(default=0)
    p50_ms = models.FloatField(null=True)
    p95_ms = models.FloatField(null=True)

    class Meta:
        ordering = ["day"]

    def __str__(self):
        return f"{self.day}: {self.searches} searches"


class ClickRate(models.Model):
    """How many clicks a client recorded in the current minute, kept in PostgreSQL so that every
    worker and host counts against one limit (a per-process cache let a client through gunicorn's
    N workers N times the limit), and the minute is PostgreSQL's. `client` is a salted hash of the
    address, never the address; a row is reused by its client's next minute and stale ones are
    deleted now and then (insights/clicks.py)."""

    client = models.CharField(max_length=24, primary_key=True)
    minute = models.DateTimeField()
    count = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"{self.client}: {self.count} at {self.minute:%H:%M}"
