"""The dictionary keeps a German or French blog's word forms by lemma (search/lemmas.py). A row
built before has none until the next build: its searches find the regular forms only."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("search", "0013_outbox_notify")]

    operations = [migrations.AddField(model_name="vocabulary", name="forms", field=models.BinaryField(default=b""))]
