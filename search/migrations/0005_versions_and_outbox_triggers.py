"""Row versions and the outbox: the pieces shared by every declared model's triggers.

* `search_row_version_seq`: the one sequence row versions are drawn from (search/versions.py).
* `search_outbox_entry()`: writes one outbox entry (search_pendingchange); the triggers call it.

The triggers themselves are built from the site's declarations and live in the site's own
migrations (search/triggers.py). Releases before the declaration API also wrote the blog's
triggers here; the blog's migration 0003 replaces them, so this migration names no site table.
"""

from django.db import migrations

FORWARD = r"""
CREATE SEQUENCE IF NOT EXISTS search_row_version_seq;

CREATE OR REPLACE FUNCTION search_outbox_entry(kind text, object_id bigint, due timestamptz, tombstone bigint)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO search_pendingchange (kind, object_id, created, due_at, attempts, last_error, tombstone_version, replay)
    VALUES (kind, object_id, statement_timestamp(), due, 0, '', tombstone, false);
$$;

INSERT INTO search_rebuildstate (id, owner_pid) VALUES (1, NULL) ON CONFLICT (id) DO NOTHING;
"""

BACKWARD = r"""
DROP FUNCTION IF EXISTS search_outbox_entry(text, bigint, timestamptz, bigint);
DROP SEQUENCE IF EXISTS search_row_version_seq;
"""


class Migration(migrations.Migration):
    dependencies = [("search", "0004_outbox_dead_letters_rebuild_state")]
    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
