"""Row versions and the outbox, written by PostgreSQL itself.

* `search_version` on blog_post and blog_comment, set from one sequence by a BEFORE INSERT/UPDATE
  trigger. The trigger runs after the row lock is taken, so of two transactions updating one row
  the later committer draws the larger number: versions follow commit order per row, whatever
  the app hosts' clocks say. A document's Elasticsearch version is 2 x row version, + 1 when
  visible (search/versions.py), so the write made when a scheduled post falls due beats the
  delete sent while it was still in the future.
* AFTER INSERT/UPDATE/DELETE triggers write the outbox (search_pendingchange) in the same
  transaction as the change, whatever wrote it (ORM, QuerySet.update, bulk_create, raw SQL, the
  importer, autocommit admin actions). A post published with a future date gets a second entry
  due at that date. A deleted row's entry carries a tombstone version, 2 x (last version + 1),
  that beats every write of the row. A post whose title, slug, date or publication changes
  re-versions its comments (their documents copy those fields), which writes their entries too.

blog/ knows nothing of this: Django's models do not declare the column, so the ORM never writes it.
"""

from django.db import migrations

FORWARD = r"""
CREATE SEQUENCE search_row_version_seq;
ALTER TABLE blog_post ADD COLUMN search_version bigint NOT NULL DEFAULT 0;
ALTER TABLE blog_comment ADD COLUMN search_version bigint NOT NULL DEFAULT 0;
UPDATE blog_post SET search_version = nextval('search_row_version_seq');
UPDATE blog_comment SET search_version = nextval('search_row_version_seq');

CREATE FUNCTION search_assign_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.search_version := nextval('search_row_version_seq');
    RETURN NEW;
END $$;

CREATE FUNCTION search_outbox_entry(kind text, object_id bigint, due timestamptz, tombstone bigint)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO search_pendingchange (kind, object_id, created, due_at, attempts, last_error, tombstone_version, replay)
    VALUES (kind, object_id, statement_timestamp(), due, 0, '', tombstone, false);
$$;

CREATE FUNCTION search_post_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM search_outbox_entry('post', OLD.id, statement_timestamp(), 2 * (OLD.search_version + 1));
        RETURN NULL;
    END IF;
    PERFORM search_outbox_entry('post', NEW.id, statement_timestamp(), NULL);
    IF NEW.published AND NEW.pub_date > statement_timestamp() THEN
        PERFORM search_outbox_entry('post', NEW.id, NEW.pub_date, NULL);
    END IF;
    IF TG_OP = 'UPDATE' AND (NEW.title, NEW.slug, NEW.pub_date, NEW.published)
            IS DISTINCT FROM (OLD.title, OLD.slug, OLD.pub_date, OLD.published) THEN
        -- The comments' documents copy these fields: new versions (and outbox entries) for them.
        UPDATE blog_comment SET search_version = 0 WHERE post_id = NEW.id;
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION search_comment_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM search_outbox_entry('comment', OLD.id, statement_timestamp(), 2 * (OLD.search_version + 1));
    ELSE
        PERFORM search_outbox_entry('comment', NEW.id, statement_timestamp(), NULL);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER search_post_version BEFORE INSERT OR UPDATE ON blog_post
    FOR EACH ROW EXECUTE FUNCTION search_assign_version();
CREATE TRIGGER search_comment_version BEFORE INSERT OR UPDATE ON blog_comment
    FOR EACH ROW EXECUTE FUNCTION search_assign_version();
CREATE TRIGGER search_post_outbox AFTER INSERT OR UPDATE OR DELETE ON blog_post
    FOR EACH ROW EXECUTE FUNCTION search_post_changed();
CREATE TRIGGER search_comment_outbox AFTER INSERT OR UPDATE OR DELETE ON blog_comment
    FOR EACH ROW EXECUTE FUNCTION search_comment_changed();

INSERT INTO search_rebuildstate (id, owner_pid) VALUES (1, NULL) ON CONFLICT (id) DO NOTHING;
"""

BACKWARD = r"""
DROP TRIGGER IF EXISTS search_comment_outbox ON blog_comment;
DROP TRIGGER IF EXISTS search_post_outbox ON blog_post;
DROP TRIGGER IF EXISTS search_comment_version ON blog_comment;
DROP TRIGGER IF EXISTS search_post_version ON blog_post;
DROP FUNCTION IF EXISTS search_comment_changed();
DROP FUNCTION IF EXISTS search_post_changed();
DROP FUNCTION IF EXISTS search_outbox_entry(text, bigint, timestamptz, bigint);
DROP FUNCTION IF EXISTS search_assign_version();
ALTER TABLE blog_comment DROP COLUMN IF EXISTS search_version;
ALTER TABLE blog_post DROP COLUMN IF EXISTS search_version;
DROP SEQUENCE IF EXISTS search_row_version_seq;
"""


class Migration(migrations.Migration):
    dependencies = [("search", "0004_outbox_dead_letters_rebuild_state"), ("blog", "0001_initial")]
    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
