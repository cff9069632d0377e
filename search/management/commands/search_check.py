from django.core.management.base import BaseCommand, CommandError
from elasticsearch import ApiError, TransportError

from search.sync import checking


class Command(BaseCommand):
    help = (
        "Is the index right? Compare what PostgreSQL says is visible with the search index: missing, extra "
        "and stale documents (another version, or another content: a write made with the triggers off). "
        "Bucket sums first, id by id only where they differ (as cheap as `search_sync --audit`, which runs "
        "the same comparison). With --repair, fix them. Exits with an error while differences remain."
    )

    def add_arguments(self, parser):
        parser.add_argument("--repair", action="store_true", help="Apply every difference found, then compare again.")

    def handle(self, *args, repair, **options):
        try:
            self.run(repair)
        except (TransportError, ApiError) as exc:
            raise CommandError(f"could not read the index ({exc}); is Elasticsearch up, and has `manage.py reindex` created the aliases?") from exc

    def run(self, repair: bool):
        results = checking.check()
        self.report(results)
        total = sum(r.differences for r in results)
        failed = {}
        if total and repair:
            failed = checking.repair(results)
            results = checking.check()
            self.stdout.write("After repair:")
            self.report(results)
            total = sum(r.differences for r in results)
        if failed:
            raise CommandError(
                f"{len(failed)} repair(s) refused (a row's own fault is dead-lettered, see /admin/), first: {next(iter(failed.values()))}; "
                f"{total} difference(s) remain"
            )
        if total:
            raise CommandError(f"{total} difference(s) between PostgreSQL and the index")

    def report(self, results):
        for r in results:
            self.stdout.write(f"  {r.kind}: {len(r.missing)} missing, {len(r.extra)} extra, {len(r.stale)} stale")
        self.stdout.write(
            f"{sum(len(r.missing) for r in results)} missing, {sum(len(r.extra) for r in results)} extra, {sum(len(r.stale) for r in results)} stale"
        )
