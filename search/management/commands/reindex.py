import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from search import ownership, vocabulary_build
from search.aliases import indices_exist, outdated_kinds
from search.client import get_client
from search.documents import KINDS, Kind
from search.sync.rebuild import RebuildFailedAfterSwap, ReindexAlreadyRunning, rebuild


class Command(BaseCommand):
    help = (
        "Rebuild the search indices from PostgreSQL and swap them in atomically (searches keep answering "
        "from the old ones meanwhile; changes made during the rebuild are caught up)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--only", choices=KINDS, help="Rebuild one document type only.")
        parser.add_argument("--keep-old", action="store_true", help="Keep the replaced indices instead of deleting them.")
        parser.add_argument(
            "--if-missing",
            action="store_true",
            help="Rebuild only when the aliases do not exist yet or their indices were built by an older "
            "release; otherwise apply the outbox (and read the vocabulary if none is stored).",
        )
        parser.add_argument("--no-progress", action="store_true", help="Hide the progress bars.")
        parser.add_argument(
            "--take-over",
            action="store_true",
            help="Replace the prefix's indices even when another site built them (this site's user was renamed); never to share a prefix.",
        )

    def handle(self, *args, only, keep_old, if_missing, no_progress, take_over, verbosity, **options):
        try:
            if if_missing and indices_exist():
                if not take_over:  # never serve, nor sync into, another site's indices
                    ownership.ensure_ours(get_client(), KINDS)
                outdated = outdated_kinds()
                if not outdated:
                    self.stdout.write("Search indices exist; nothing to do (drop --if-missing to rebuild).")
                    if not vocabulary_build.exists():
                        call_command("search_vocabulary", "--if-possible", verbosity=verbosity)
                    return call_command("search_sync", verbosity=verbosity)
                self.stdout.write(f"Search indices built by an older release ({', '.join(outdated)}): rebuilding.")
            show = verbosity > 0 and not no_progress
            factory = (lambda **kw: tqdm(unit=" docs", file=sys.stderr, leave=False, **kw)) if show else None
            report = rebuild(kinds=(only,) if only else KINDS, keep_old=keep_old, progress_factory=factory, take_over=take_over)
        except (ReindexAlreadyRunning, RebuildFailedAfterSwap, ownership.OwnedByAnotherSite) as exc:
            raise CommandError(str(exc)) from None
        except CommandError:
            raise
        except Exception as exc:
            raise CommandError(f"reindex failed, the live indices are unchanged: {exc}") from exc
        self.describe(report)

    def describe(self, report):
        for k in report.kinds:
            self.stdout.write(f"  {k.kind}: {k.indexed:,} documents into {k.index}")
        loaded = sum(k.indexed for k in report.kinds)
        if report.load_seconds:
            self.stdout.write(f"  loaded and refreshed in {report.load_seconds:.1f}s ({loaded / report.load_seconds:,.0f} docs/s)")
        if report.removed_stale:
            self.stdout.write(f"  removed stale indices: {', '.join(report.removed_stale)}")
        if report.kept_old:
            self.stdout.write(f"  kept previous indices: {', '.join(report.kept_old)}")
        if report.refused:
            (kind, pk), why = next(iter(sorted(report.refused.items())))
            self.stderr.write(
                f"  skipped {len(report.refused)} document(s) that could not be indexed (their rows' fault), dead-lettered "
                f"(admin: dead outbox entries); first: {Kind(kind).entry} {pk}: {why[:300]}"
            )
        if report.vocabulary is None:
            self.stderr.write("  could not read the dictionary (see the log): searches stay right, but slower; `search_vocabulary` retries")
        else:
            self.stdout.write(f"  dictionary: {report.vocabulary:,} words")
        total = sum(k.indexed for k in report.kinds)
        self.stdout.write(
            self.style.SUCCESS(
                f"Reindexed {total} documents in {report.seconds:.1f}s ({total / report.seconds if report.seconds else 0:,.0f} docs/s); "
                f"caught up {report.caught_up} change(s) made during the rebuild, removed {report.reconciled} "
                f"document(s) of hidden or deleted rows, applied {report.pending_applied} pending."
            )
        )
