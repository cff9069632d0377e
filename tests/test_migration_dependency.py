"""A site's migration that holds search's triggers depends on search's latest migration, added by
`makemigrations` itself (issue 51.9): the site never looks its name up."""

import io

import pytest
from django.core.management import call_command
from django.db import migrations, models
from django.db.migrations.loader import MigrationLoader
from django.test.utils import override_settings

from search.fields import RowVersionField
from search.migration_dependency import add_dependency, needs_search


def test_only_migrations_with_search_triggers_or_row_versions_need_it():
    plain = migrations.AddField("post", "title", models.BigIntegerField())
    assert not needs_search([plain])
    assert needs_search([migrations.AddField("post", "search_version", RowVersionField())])
    assert needs_search([migrations.CreateModel("Post", [("id", models.BigIntegerField()), ("search_version", RowVersionField())])])


def test_the_dependency_is_added_once():
    migration = migrations.Migration("0002_x", "shop")
    migration.operations = [migrations.AddField("item", "search_version", RowVersionField())]
    migration.dependencies = [("shop", "0001_initial")]
    assert add_dependency(migration, ("search", "0099_last"))
    assert not add_dependency(migration, ("search", "0099_last"))
    assert migration.dependencies == [("shop", "0001_initial"), ("search", "0099_last")]


@pytest.mark.django_db
def test_makemigrations_writes_the_dependency_on_searchs_latest_migration():
    latest = MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes("search")[-1]
    out = io.StringIO()
    with override_settings(MIGRATION_MODULES={"blog": "blog.migrations_never_written"}):  # as a site's first makemigrations
        call_command("makemigrations", "blog", "--dry-run", "-v", "3", stdout=out)
    written = out.getvalue()
    assert f"blog.0001_initial depends on search.{latest[1]}" in written
    assert f"('search', '{latest[1]}')" in written  # in the migration's dependencies
