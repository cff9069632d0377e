import logging
import time

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from search import conf, metrics_serving, synonyms
from search.client import bulk_client
from search.sync import audit, outbox

log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Apply the search outbox: changes saved while Elasticsearch was unavailable, or retried later. "
        "With --every N, keep doing it every N seconds (the scheduler of the compose file)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--every", type=float, metavar="SECONDS", help="Run forever, applying the outbox every SECONDS; a failed round is reported and retried."
        )
        parser.add_argument(
            "--vocabulary-every", type=float, metavar="SECONDS", help="With --every: also re-read the dictionary this often (as search_vocabulary)."
        )
        parser.add_argument(
            "--audit", action="store_true", help="Also compare each kind's fingerprints with PostgreSQL now (with --every: every SEARCH_AUDIT_EVERY_SECONDS)."
        )

    def handle(self, *args, every, vocabulary_every, audit, **options):
        if every is None:
            if vocabulary_every is not None:
                raise CommandError("--vocabulary-every needs --every")
            self.apply()
            return self.run_audit() if audit else None
        if every <= 0 or (vocabulary_every is not None and vocabulary_every <= 0):
            raise CommandError("--every and --vocabulary-every need a number of seconds above 0")
        self.serve_metrics()
        words_due = time.monotonic() + (vocabulary_every or 0)
        audit_due = time.monotonic() + conf.get().sync.audit_every_seconds
        while True:
            try:
                self.apply()
                if time.monotonic() >= audit_due:
                    audit_due = time.monotonic() + conf.get().sync.audit_every_seconds
                    self.run_audit()
                if vocabulary_every is not None and time.monotonic() >= words_due:
                    words_due = time.monotonic() + vocabulary_every
                    call_command("search_vocabulary", "--if-possible", stdout=self.stdout, stderr=self.stderr)
            except CommandError as exc:  # reported; the next round tries again
                self.stderr.write(str(exc))
            except Exception as exc:  # noqa: BLE001 - whatever a round hits, the scheduler must keep running
                log.exception("search_sync round failed; retrying in %s s", every)
                self.stderr.write(f"search_sync round failed ({type(exc).__name__}: {exc}); the next round tries again")
            close_old_connections()  # PostgreSQL may have restarted between rounds
            time.sleep(every)

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
        message = f"Applied {result.applied} pending change(s); {outbox.depth()} waiting (scheduled for later or retried later)."
        if result.dead:
            message += f" {result.dead} change(s) refused too often moved to the dead letters (see /admin/)."
        if result.failed:
            self.stderr.write(f"{result.failed} change(s) refused, last error: {result.error}")
        self.stdout.write(self.style.SUCCESS(message))

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
