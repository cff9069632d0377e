"""What the query log stores: one row per search served, one per result opened, one per day.

Nothing here can identify a reader: no IP address, no user agent, no cookie, no user. A row says
what was searched and how the search went, at what time (PostgreSQL's clock, `now()`).
"""
from django.contrib.postgres.indexes import BrinIndex
from django.db import models
from django.db.models.functions import Now


class SearchLog(models.Model):
    """One search served: a results page, a page of the JSON API, or one instant-results burst.

    Rows are written in batches by insights/buffer.py, so `created` is the time of the batch's
    INSERT (a few seconds after the search at most). `token` is the random half of the query id
    handed to the page, which clicks quote. `burst` (a random id the instant-results script makes
    up for one typing burst, nothing else) lets every keystroke of a burst update the same row,
    the highest `seq` winning, so a burst counts as one search.
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
    elapsed_ms = models.FloatField(default=0.0)
    cached = models.BooleanField(default=False)
    created = models.DateTimeField(db_default=Now())

    class Meta:
        verbose_name = "search"
        # Rows arrive in time order and are read by time ranges: a BRIN index costs the INSERTs
        # next to nothing, unlike a b-tree (bench/insights_cost.py).
        indexes = [BrinIndex(fields=["created"], name="insights_searchlog_created")]
        verbose_name_plural = "search log"
        constraints = [
            # Partial: the many rows without a burst add nothing to this index.
            models.UniqueConstraint(fields=["burst"], condition=models.Q(burst__isnull=False), name="insights_one_row_per_burst"),
        ]

    def __str__(self):
        return f"{self.query} ({self.source}, {self.total} results)"


class SearchClick(models.Model):
    """A result opened from a logged search: which search (its token), which result, at which position.

    Not a foreign key: the search's row may still be in a worker's buffer when the click arrives.
    One row per (search, position), so a repeated beacon or a reload of the redirect counts once.
    """

    token = models.CharField(max_length=24)  # indexed by the unique constraint below
    position = models.PositiveSmallIntegerField()
    url = models.CharField(max_length=300)
    created = models.DateTimeField(db_default=Now(), db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["token", "position"], name="insights_one_click_per_position")]

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
