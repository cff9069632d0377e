import logging
import threading
import time

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from search import conf, metrics_serving, synonyms
from search.client import bulk_client
from search.sync import audit, outbox, scheduler, segments

log = logging.getLogger(__name__)


class Command(BaseCommand):
    merging: threading.Thread | None = None  # the scheduler's merge of small segments, while it runs
    help = (
        "Apply the search outbox: changes saved while Elasticsearch was unavailable, or retried later. "
        "With --every N, the scheduler of the compose file: every change applied within a second of its commit "
        "(woken by the outbox's notifications and by scheduled entries' due times), and every N seconds a full round."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--every",
            type=float,
            metavar="SECONDS",
            help="Run forever: each outbox write applied within a second (LISTEN), and a full round every SECONDS (the safety net).",
        )
        parser.add_argument(
            "--vocabulary-every", type=float, metavar="SECONDS", help="With --every: also re-read the dictionary this often (as search_vocabulary)."
        )
        parser.add_argument(
            "--merge-segments",
            action="store_true",
            help="Also merge the small segments edits left, now (--every does it every SEARCH_MERGE_SEGMENTS_EVERY seconds, and at once with this flag).",
        )
        parser.add_argument(
            "--audit", action="store_true", help="Also compare each kind's fingerprints with PostgreSQL now (with --every: every SEARCH_AUDIT_EVERY_SECONDS)."
        )

    def handle(self, *args, every, vocabulary_every, audit, merge_segments, **options):
        if every is None:
            if vocabulary_every is not None:
                raise CommandError("--vocabulary-every needs --every")
            self.apply()
            if audit:
                self.run_audit()
            if merge_segments and not self.merge_segments():
                raise CommandError("merging the small segments failed; see the log")
            return None
        if every <= 0 or (vocabulary_every is not None and vocabulary_every <= 0):
            raise CommandError("--every and --vocabulary-every need a number of seconds above 0")
        self.serve_metrics()
        self.forever(every, vocabulary_every, merge_now=merge_segments)

    def forever(self, every: float, vocabulary_every: float | None, *, merge_now: bool = False) -> None:
        """The scheduler (search/sync/scheduler.py): a full round every `every` seconds; between
        them, woken by the outbox's notifications and by due times, only the due entries."""
        sync = conf.get().sync
        waker = scheduler.Wakeups(retry_seconds=sync.sync_breaker_seconds) if sync.outbox_listen else None
        if waker is not None:
            waker.start()  # before the first round reads the outbox: no write falls between
        words_due = time.monotonic() + (vocabulary_every or 0)
        audit_due = time.monotonic() + sync.audit_every_seconds
        merge_due = time.monotonic() + (0 if merge_now else sync.merge_segments_every_seconds)
        poll_at = not_before = 0.0
        while True:
            now = time.monotonic()
            if now >= poll_at:
                poll_at = now + every
                if not self.full_round(every, audit_due <= now, vocabulary_every is not None and words_due <= now):
                    not_before = now + sync.sync_breaker_seconds
                if audit_due <= now:
                    audit_due = now + sync.audit_every_seconds
                if vocabulary_every is not None and words_due <= now:
                    words_due = now + vocabulary_every
                if (merge_now or sync.merge_segments_every_seconds > 0) and merge_due <= now:
                    self.merge_beside_rounds()
                    merge_due = now + (sync.merge_segments_every_seconds or float("inf"))
                close_old_connections()  # PostgreSQL may have restarted between rounds
            elif waker is not None and now >= not_before:
                not_before = self.quick_round(now)
            takeable = self.takeable_in() if waker is not None else None
            now = time.monotonic()
            wait = scheduler.wait_seconds(now, poll_at=poll_at, takeable_at=None if takeable is None else now + takeable, not_before=not_before)
            if waker is None:
                time.sleep(wait)
            else:
                waker.wait(wait)

    def full_round(self, every: float, audit_now: bool, words_now: bool) -> bool:
        """What every round did before the scheduler listened: False when it failed."""
        try:
            self.apply()
            if audit_now:
                self.run_audit()
            if words_now:
                call_command("search_vocabulary", "--if-possible", stdout=self.stdout, stderr=self.stderr)
            return True
        except CommandError as exc:  # reported; the next round tries again
            self.stderr.write(str(exc))
        except Exception as exc:  # noqa: BLE001 - whatever a round hits, the scheduler must keep running
            log.exception("search_sync round failed; retrying in %s s", every)
            self.stderr.write(f"search_sync round failed ({type(exc).__name__}: {exc}); the next round tries again")
        return False

    def quick_round(self, now: float) -> float:
        """The due entries, once their saves' own syncs had their chance; returns when the next
        quick round may run (later after a failure, or when other syncs held what was due)."""
        sync = conf.get().sync
        try:
            result = outbox.drain_all(batch=sync.pending_drain_batch, client=bulk_client(), min_age=sync.listen_grace_seconds)
        except Exception:  # noqa: BLE001 - the full round reports; wakes pause meanwhile
            log.exception("search_sync: applying the outbox after a notification failed")
            close_old_connections()
            return now + sync.sync_breaker_seconds
        if result.unreachable or result.blocked:
            log.warning("search_sync: Elasticsearch refused the outbox (%s); wakes pause %s s", result.error, sync.sync_breaker_seconds)
            return now + sync.sync_breaker_seconds
        if result.failed:  # refused entries wait for their retry time; anything else, calmly
            log.warning("search_sync: %d change(s) refused on notice, last error: %s", result.failed, result.error)
            return now + sync.sync_breaker_seconds
        if result.applied:
            log.info("search_sync: applied %d change(s) on notice", result.applied)
            return 0.0
        return now + sync.listen_grace_seconds  # what was due is another sync's now: look again soon

    def takeable_in(self) -> float | None:
        try:
            return outbox.next_takeable(conf.get().sync.listen_grace_seconds)
        except Exception:  # noqa: BLE001 - PostgreSQL away: the poll goes on
            log.warning("search_sync: the outbox's next due time is unreadable", exc_info=True)
            close_old_connections()
            return None

    def serve_metrics(self):
        """With SEARCH_METRICS_SYNC_PORT, this process's counters (its sync rounds, the freshness
        of what it applied) on their own port: the web's /metrics cannot see them."""
        settings = conf.get().metrics
        if settings.enabled and settings.sync_port:
            metrics_serving.serve_in_background(settings.sync_port, settings.sync_address)

    def apply(self):
        result = outbox.drain_all(batch=conf.get().sync.pending_drain_batch, client=bulk_client())
        outbox.breaker.reset()
        if not result.unreachable:
            self.report_audit("after TRUNCATE", audit.apply_rechecks(bulk_client()))
        # Also when the outbox is blocked (the set is another index); not when nothing answers.
        synonyms_failed = "" if result.unreachable else self.copy_synonyms()
        if result.unreachable:
            raise CommandError(f"Elasticsearch refused the pending changes ({result.error}); {outbox.depth()} still waiting. Nothing was lost.")
        if result.blocked:
            raise CommandError(
                f"Elasticsearch refuses writes (a read-only or write-blocked index: disk flood stage or index.blocks.*; or overload): "
                f"{result.error}; {outbox.depth()} change(s) wait in the outbox, retried by the next run. Nothing was lost."
            )
        if synonyms_failed:
            raise CommandError(synonyms_failed)
        due, later, next_at = outbox.waiting()
        message = f"Applied {result.applied} pending change(s); {due} due now (retried by the next round)"
        message += f", {later} scheduled (the next at {next_at} UTC: a row's date ahead, or a retry)." if later else "."
        if result.dead:
            message += f" {result.dead} change(s) refused too often moved to the dead letters (see /admin/)."
        if result.failed:
            self.stderr.write(f"{result.failed} change(s) refused, last error: {result.error}")
        self.stdout.write(self.style.SUCCESS(message))

    def merge_beside_rounds(self) -> None:
        """The merge in a thread of its own: a merge waiting on a busy node never holds up the
        rounds that apply the outbox; one at a time."""
        if self.merging is not None and self.merging.is_alive():
            return
        self.merging = threading.Thread(target=self.merge_segments, name="search-merge-segments", daemon=True)
        self.merging.start()

    def merge_segments(self) -> bool:
        """The small segments edits left, merged (search/sync/segments.py); False when it failed."""
        try:
            merged = segments.merge_small_segments(bulk_client())
        except Exception:  # noqa: BLE001 - a merge is maintenance: the scheduler keeps running
            log.exception("search_sync: merging the small segments failed; the next merge tries again")
            return False
        for index, count in merged.items():
            self.stdout.write(f"Merged the small segments of {index}: at most {count} segments a shard copy now.")
        return True

    def run_audit(self):
        self.report_audit("audit", audit.audit(bulk_client()))

    def report_audit(self, what: str, report) -> None:
        if report.failed:  # dead-lettered when the document's own fault (see /admin/), else retried by the next audit
            self.stderr.write(f"{what}: {len(report.failed)} repair(s) refused, first: {next(iter(report.failed.values()))}")
        repaired = {kind: n for kind, n in report.repaired.items() if n}
        if repaired:
            self.stdout.write(f"{what}: repaired {repaired} document(s) that PostgreSQL's triggers never saw change.")

    def copy_synonyms(self) -> str:
        """Elasticsearch made to apply PostgreSQL's synonym rules, if a change did not reach it; what
        went wrong, or "" (reported after the outbox's own failures)."""
        try:
            if synonyms.reconcile(bulk_client()):
                self.stdout.write("Synonym rules copied to Elasticsearch (a change it had not taken).")
        except Exception as exc:  # noqa: BLE001 - reported like the outbox's failures; the next round retries
            log.warning("synonym rules not copied: %s", exc)
            return f"the synonym rules could not be copied to Elasticsearch ({exc}); the next run retries. Nothing was lost."
        return ""
