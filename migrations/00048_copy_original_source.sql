-- The original's source and owner on each copy's row (issue 48). The
-- desk's report asks for the copies of one source's (or owner's) stories
-- in a period; with only duplicate_of on the row, it had to read every
-- duplicate of the period and join each to its original before it could
-- filter (1 s at 1,000,000 articles, docs/ui.md). original_source and
-- original_owner are the source of the article duplicate_of names and
-- source_owner() of it, so that an index can serve the report.
--
-- They are kept by triggers, whatever path writes a link: ingest, a
-- promotion, a departure's relinks, a split, an undo, a correction all
-- write duplicate_of, and articles_original_source sets both from it.
-- An owner follows the sources table: sources_copy_owners rewrites the
-- owner on the copies of a source whose row is added, removed or given
-- another owner. An article's source never changes (it is half its key).
--
--
-- Outside a transaction, so that the fill does not hold the whole table
-- (ADD COLUMN's lock) for the minutes it takes at a million copies: the
-- columns and triggers commit at once, then the fill takes only its rows'
-- locks. Each step may run again after a run cut short.

-- +goose NO TRANSACTION
-- +goose Up
ALTER TABLE articles ADD COLUMN IF NOT EXISTS original_source text, ADD COLUMN IF NOT EXISTS original_owner text;
COMMENT ON COLUMN articles.original_source IS 'The source of the article duplicate_of names, NULL when none (trigger articles_original_source; migration 00048).';
COMMENT ON COLUMN articles.original_owner IS 'source_owner(original_source), kept when the sources table changes (trigger sources_copy_owners; migration 00048).';

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION articles_original_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- A row moved with its subtree keeps its link: nothing to read.
    IF TG_OP = 'UPDATE' AND NEW.duplicate_of IS NOT DISTINCT FROM OLD.duplicate_of
       AND NEW.original_source IS NOT DISTINCT FROM OLD.original_source
       AND NEW.original_owner IS NOT DISTINCT FROM OLD.original_owner THEN
        RETURN NEW;
    END IF;
    IF NEW.duplicate_of IS NULL THEN
        NEW.original_source := NULL;
        NEW.original_owner := NULL;
    ELSE
        SELECT o.source, source_owner(o.source) INTO NEW.original_source, NEW.original_owner
        FROM articles o WHERE o.id = NEW.duplicate_of;
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
COMMENT ON FUNCTION articles_original_source() IS 'Sets original_source and original_owner from the article duplicate_of names.';
-- Also on a write of the two columns themselves, so that no statement can
-- set them to anything but what the link says.
DROP TRIGGER IF EXISTS articles_original_source ON articles;
CREATE TRIGGER articles_original_source BEFORE INSERT OR UPDATE OF duplicate_of, original_source, original_owner ON articles
    FOR EACH ROW EXECUTE FUNCTION articles_original_source();

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION sources_copy_owners() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    src text := CASE WHEN TG_OP = 'DELETE' THEN OLD.source ELSE NEW.source END;
BEGIN
    UPDATE articles SET original_owner = source_owner(src)
    WHERE status <> 'unique' AND original_source = src AND original_owner IS DISTINCT FROM source_owner(src);
    IF TG_OP = 'UPDATE' AND OLD.source <> NEW.source THEN
        UPDATE articles SET original_owner = source_owner(OLD.source)
        WHERE status <> 'unique' AND original_source = OLD.source
          AND original_owner IS DISTINCT FROM source_owner(OLD.source);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
COMMENT ON FUNCTION sources_copy_owners() IS 'Rewrites original_owner on the copies of a source whose sources row changed.';
DROP TRIGGER IF EXISTS sources_copy_owners ON sources;
CREATE TRIGGER sources_copy_owners AFTER INSERT OR DELETE ON sources
    FOR EACH ROW EXECUTE FUNCTION sources_copy_owners();
DROP TRIGGER IF EXISTS sources_copy_owners_update ON sources;
CREATE TRIGGER sources_copy_owners_update AFTER UPDATE OF source, owner ON sources
    FOR EACH ROW WHEN (OLD.source IS DISTINCT FROM NEW.source OR OLD.owner IS DISTINCT FROM NEW.owner)
    EXECUTE FUNCTION sources_copy_owners();

-- The rows stored before: every copy, by the original it links to. Last,
-- once the trigger keeps every new link, so that a link written while this
-- runs is right either way; a run cut short fills the rest when run again.
UPDATE articles d SET original_source = o.source, original_owner = source_owner(o.source)
FROM articles o
WHERE o.id = d.duplicate_of
  AND (d.original_source IS DISTINCT FROM o.source OR d.original_owner IS DISTINCT FROM source_owner(o.source));

-- +goose Down
DROP TRIGGER IF EXISTS sources_copy_owners_update ON sources;
DROP TRIGGER IF EXISTS sources_copy_owners ON sources;
DROP FUNCTION IF EXISTS sources_copy_owners();
DROP TRIGGER IF EXISTS articles_original_source ON articles;
DROP FUNCTION IF EXISTS articles_original_source();
ALTER TABLE articles DROP COLUMN IF EXISTS original_source, DROP COLUMN IF EXISTS original_owner;
