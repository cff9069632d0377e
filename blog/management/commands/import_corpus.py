import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from tqdm import tqdm

from blog.importer import import_corpus


class Command(BaseCommand):
    help = "Load DIR/posts.ndjson and DIR/comments.ndjson (the corpus format) into the blog. Idempotent."

    def add_arguments(self, parser):
        parser.add_argument("directory", type=Path)
        parser.add_argument("--no-progress", action="store_true", help="Hide the progress bars.")
        parser.add_argument(
            "--overwrite",
            action="store_true",
            help="Let the file win: also reset published/approved and rows edited on the site (by default neither is ever reverted).",
        )

    def handle(self, directory: Path, no_progress: bool, verbosity: int, overwrite: bool, **options):
        started = time.perf_counter()
        show = not no_progress and verbosity > 0
        factory = (lambda **kw: tqdm(unit=" rows", file=self.stderr._out, leave=False, **kw)) if show else None
        try:
            posts, comments = import_corpus(directory, now=timezone.now(), progress_factory=factory, overwrite=overwrite)
        except FileNotFoundError as exc:
            raise CommandError(str(exc)) from None
        for problem in posts.problems + comments.problems:
            self.stderr.write(f"  {problem}")
        elapsed = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {posts.created + posts.updated} posts ({posts.created} new, {posts.updated} updated, {posts.unchanged} unchanged, "
                f"{posts.kept} kept as edited on the site, {posts.skipped} skipped) and "
                f"{comments.created + comments.updated} comments ({comments.created} new, {comments.updated} updated, {comments.unchanged} unchanged, "
                f"{comments.kept} kept as edited on the site, {comments.skipped} skipped) in {elapsed:.1f}s."
            )
        )
        self.stdout.write("The changes are in the search outbox: `python manage.py search_sync` applies them (the scheduler does every minute).")
