import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from search import outbox
from search import vocabulary as known_words
from search.client import bulk_client
from search.documents import KINDS
from search.rebuild import (
    RebuildFailedAfterSwap,
    ReindexAlreadyRunning,
    indices_exist,
    outdated_kinds,
    rebuild,
    refresh_vocabulary,
)


class Command(BaseCommand):
    help = ("Rebuild the search indices from PostgreSQL and swap them in atomically; "
            "or, with --pending, apply only the changes waiting in the outbox.")

    def add_arguments(self, parser):
        parser.add_argument("--only", choices=KINDS, help="Rebuild one document type only.")
        parser.add_argument("--keep-old", action="store_true", help="Keep the replaced indices instead of deleting them.")
        parser.add_argument("--pending", action="store_true", help="Apply the outbox (changes saved while Elasticsearch was unavailable) and stop.")
        parser.add_argument("--if-missing", action="store_true",
                            help="Rebuild only when the aliases do not exist yet or their indices were built by an older release.")
        parser.add_argument("--vocabulary", action="store_true",
                            help="Only re-read the known-word vocabulary from the live indices (reindex does it too).")
        parser.add_argument("--no-progress", action="store_true", help="Hide the progress bars.")

    def handle(self, *args, only, keep_old, pending, if_missing, vocabulary, no_progress, verbosity, **options):
        try:
            if pending:
                return self.apply_pending()
            if vocabulary:
                return self.refresh_vocabulary()
            if if_missing and indices_exist():
                outdated = outdated_kinds()
                if not outdated:
                    self.stdout.write("Search indices exist; nothing to do (drop --if-missing to rebuild).")
                    if not known_words.exists():
                        self.refresh_vocabulary(required=False)
                    return self.apply_pending()
                self.stdout.write(f"Search indices built by an older release ({', '.join(outdated)}): rebuilding.")
            show = verbosity > 0 and not no_progress
            factory = (lambda **kw: tqdm(unit=" docs", file=sys.stderr, leave=False, **kw)) if show else None
            report = rebuild(kinds=(only,) if only else KINDS, keep_old=keep_old, progress_factory=factory)
        except (ReindexAlreadyRunning, RebuildFailedAfterSwap) as exc:
            raise CommandError(str(exc)) from None
        except Exception as exc:
            raise CommandError(f"reindex failed, the live indices are unchanged: {exc}") from exc
        for k in report.kinds:
            self.stdout.write(f"  {k.kind}: {k.indexed:,} documents into {k.index}")
        loaded = sum(k.indexed for k in report.kinds)
        if report.load_seconds:
            self.stdout.write(f"  loaded and refreshed in {report.load_seconds:.1f}s ({loaded / report.load_seconds:,.0f} docs/s)")
        if report.removed_stale:
            self.stdout.write(f"  removed stale indices: {', '.join(report.removed_stale)}")
        if report.kept_old:
            self.stdout.write(f"  kept previous indices: {', '.join(report.kept_old)}")
        if report.vocabulary is None:
            self.stderr.write("  could not read the known-word vocabulary (see the log): searches stay right, but slower; "
                              "`reindex --vocabulary` retries")
        else:
            self.stdout.write(f"  known-word vocabulary: {report.vocabulary:,} words")
        total = sum(k.indexed for k in report.kinds)
        self.stdout.write(self.style.SUCCESS(
            f"Reindexed {total} documents in {report.seconds:.1f}s ({total / report.seconds if report.seconds else 0:,.0f} docs/s); "
            f"caught up {report.caught_up} change(s) made during the rebuild, removed {report.reconciled} "
            f"document(s) of hidden or deleted rows, applied {report.pending_applied} pending."
        ))

    def refresh_vocabulary(self, *, required: bool = True):
        words = refresh_vocabulary(bulk_client())
        if words is None:
            message = "could not read the known-word vocabulary (see the log); searches stay right, but slower"
            if required:
                raise CommandError(message)
            self.stderr.write(f"Warning: {message}")
            return
        self.stdout.write(self.style.SUCCESS(f"Known-word vocabulary: {words:,} words."))

    def apply_pending(self):
        result = outbox.drain_all(batch=settings.SEARCH["PENDING_DRAIN_BATCH"], client=bulk_client())
        outbox.breaker.reset()
        if result.unreachable:
            raise CommandError(f"Elasticsearch refused the pending changes ({result.error}); "
                               f"{outbox.depth()} still waiting. Nothing was lost.")
        message = (f"Applied {result.applied} pending change(s); {outbox.depth()} waiting (scheduled for later "
                   f"or retried later).")
        if result.dead:
            message += f" {result.dead} change(s) refused too often moved to the dead letters (see /admin/)."
        if result.failed:
            self.stderr.write(f"{result.failed} change(s) refused, last error: {result.error}")
        self.stdout.write(self.style.SUCCESS(message))
