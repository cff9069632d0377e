from django.core.management.base import BaseCommand, CommandError

from search.client import bulk_client
from search.sync.rebuild import refresh_vocabulary


class Command(BaseCommand):
    help = (
        "Read the dictionary of the index's words again from the live indices and store it for every web process "
        "(reindex does it too; run it hourly so the counts of words follow the blog's changes)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-possible", action="store_true", help="Only warn when the words cannot be read (searches stay right without them, only slower)."
        )

    def handle(self, *args, if_possible, **options):
        words = refresh_vocabulary(bulk_client())
        if words is None:
            message = "could not read the dictionary of the index's words (see the log); searches stay right, but slower"
            if not if_possible:
                raise CommandError(message)
            self.stderr.write(f"Warning: {message}")
            return
        self.stdout.write(self.style.SUCCESS(f"Dictionary: {words:,} words."))
