"""Once: a full-text index on the blog's posts for a benchmark baseline. It named a site table, so
it moved to the blog's own migrations (blog/migrations/0004); kept empty so the migration history
of existing databases stays whole."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("search", "0002_generation_row")]
    operations = []
