"""Every statement that writes the outbox NOTIFYs `search_outbox` once it commits, so the
scheduler (`search_sync --every`, search/sync/scheduler.py) applies a change within a second
whatever wrote it, instead of at its next minute.

On the outbox table itself, per statement, not in the site's row triggers: every path that
writes an entry (a row trigger, a tag renamed, a retried dead letter, a killed rebuild's
kept entries released, a sync's failure noted) wakes it, and a statement of 10,000 rows sends one
notification. The payload is the writer's backend pid, so the scheduler ignores its own."""

from django.db import migrations

SQL = """
CREATE OR REPLACE FUNCTION search_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('search_outbox', pg_backend_pid()::text);
    RETURN NULL;
END $$;
CREATE TRIGGER search_outbox_notify AFTER INSERT OR UPDATE ON search_pendingchange
    FOR EACH STATEMENT EXECUTE FUNCTION search_outbox_notify();
"""

REVERSE = """
DROP TRIGGER IF EXISTS search_outbox_notify ON search_pendingchange;
DROP FUNCTION IF EXISTS search_outbox_notify();
"""


class Migration(migrations.Migration):
    dependencies = [("search", "0012_recheck_requests")]
    operations = [migrations.RunSQL(SQL, REVERSE)]
