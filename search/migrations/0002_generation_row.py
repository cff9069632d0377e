from django.db import migrations


def create_row(apps, schema_editor):
    apps.get_model("search", "IndexGeneration").objects.get_or_create(id=1, defaults={"value": 0})


class Migration(migrations.Migration):
    dependencies = [("search", "0001_initial")]
    operations = [migrations.RunPython(create_row, migrations.RunPython.noop)]
