"""Once: the blog's post trigger re-queued comments on a tags change. The triggers now come from
the site's declarations (search/triggers.py) and live in the site's migrations; kept empty so the
migration history of existing databases stays whole."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("search", "0009_dictionary")]
    operations = []
