from django.core.management.commands.makemigrations import Command as MakeMigrations
from django.db.migrations.loader import MigrationLoader

from search.migration_dependency import add_dependency


class Command(MakeMigrations):
    help = MakeMigrations.help + " Migrations that hold search's triggers depend on search's latest migration."

    def write_migration_files(self, changes, update_previous_migration_paths=None):
        leaves = MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes("search")
        if leaves:
            for migration in (m for migrations in changes.values() for m in migrations):
                if add_dependency(migration, leaves[-1]) and self.verbosity >= 1:
                    self.log(f"  {migration.app_label}.{migration.name} depends on {leaves[-1][0]}.{leaves[-1][1]} (the triggers' outbox)")
        return super().write_migration_files(changes, update_previous_migration_paths)
