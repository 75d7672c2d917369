-- calendar-fcgi data model (docs/architecture.md). Idempotent: safe to apply again on every start.
-- Typed columns instead of a key/value meta table, so the database checks and indexes them.
-- Times: every record keeps local (site or event zone) and UTC copies, like WordPress does,
-- because clients read both and the UTC one is what filters compare.

SET NAMES utf8mb4;

CREATE TABLE IF NOT EXISTS schema_migrations (
  version     INT UNSIGNED NOT NULL PRIMARY KEY COMMENT 'applied migration number',
  applied_utc DATETIME NOT NULL DEFAULT UTC_TIMESTAMP()
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS users (
  id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  login        VARCHAR(60) NOT NULL,
  display_name VARCHAR(250) NOT NULL DEFAULT '',
  role         ENUM('administrator','editor','author','contributor','subscriber') NOT NULL,
  created_utc  DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  UNIQUE KEY users_login (login)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS app_passwords (
  id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id       BIGINT UNSIGNED NOT NULL,
  password_hash BINARY(32) NOT NULL COMMENT 'BLAKE2b-256 of the password; the password itself is never stored',
  created_utc   DATETIME NOT NULL DEFAULT UTC_TIMESTAMP(),
  last_used_utc DATETIME NULL,
  UNIQUE KEY app_passwords_hash (password_hash),
  KEY app_passwords_user (user_id),
  CONSTRAINT app_passwords_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- One row per event, venue, organizer and image attachment.
CREATE TABLE IF NOT EXISTS posts (
  id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  type         ENUM('event','venue','organizer','attachment') NOT NULL,
  status       ENUM('publish','future','draft','pending','private','trash') NOT NULL DEFAULT 'draft',
  status_before_trash ENUM('publish','future','draft','pending','private') NULL COMMENT 'restored when a trashed record is untrashed',
  author       BIGINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'users.id; 0 = no author',
  title        TEXT NOT NULL COMMENT 'event title, venue name, organizer name, attachment URL',
  title_lower  VARCHAR(191) AS (LOWER(LEFT(title, 191))) STORED COMMENT 'for name ordering and dedupe',
  content      MEDIUMTEXT NOT NULL,
  excerpt      TEXT NOT NULL,
  slug         VARCHAR(200) NOT NULL,
  password     VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'event password; empty = none',
  parent       BIGINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'post_parent; 0 = none',
  image_id     BIGINT UNSIGNED NULL COMMENT 'posts.id of the featured image attachment',
  date_local   DATETIME NOT NULL COMMENT 'publication date, site-local',
  date_utc     DATETIME NOT NULL,
  modified_local DATETIME NOT NULL,
  modified_utc DATETIME NOT NULL,
  UNIQUE KEY posts_type_slug (type, slug),
  KEY posts_type_status (type, status),
  KEY posts_type_title (type, title_lower, id),
  KEY posts_author (author),
  KEY posts_parent (parent),
  KEY posts_status_date (status, date_utc) COMMENT 'the next scheduled publication, for the response cache'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS event_details (
  event_id     BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  start_local  DATETIME NOT NULL COMMENT 'wall clock in the event time zone',
  end_local    DATETIME NOT NULL,
  start_utc    DATETIME NOT NULL,
  end_utc      DATETIME NOT NULL,
  timezone     VARCHAR(64) NOT NULL COMMENT 'IANA id or UTC+H[:MM]',
  all_day      TINYINT(1) NOT NULL DEFAULT 0,
  cost         VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'cost text as entered',
  website      VARCHAR(2048) NOT NULL DEFAULT '',
  show_map     TINYINT(1) NOT NULL DEFAULT 1,
  show_map_link TINYINT(1) NOT NULL DEFAULT 1,
  hide_from_listings TINYINT(1) NOT NULL DEFAULT 0,
  sticky       TINYINT(1) NOT NULL DEFAULT 0,
  featured     TINYINT(1) NOT NULL DEFAULT 0,
  KEY event_details_start (start_utc, event_id) COMMENT 'list order and start bounds: a page reads only its rows',
  KEY event_details_end (end_utc),
  KEY event_details_window (start_utc, end_utc, hide_from_listings) COMMENT 'covers the date window, so list counts read no table rows',
  CONSTRAINT event_details_post_fk FOREIGN KEY (event_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS venue_details (
  venue_id     BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  address      VARCHAR(255) NOT NULL DEFAULT '',
  city         VARCHAR(255) NOT NULL DEFAULT '',
  country      VARCHAR(255) NOT NULL DEFAULT '',
  province     VARCHAR(255) NOT NULL DEFAULT '',
  state        VARCHAR(255) NOT NULL DEFAULT '',
  zip          VARCHAR(64) NOT NULL DEFAULT '',
  phone        VARCHAR(64) NOT NULL DEFAULT '',
  website      VARCHAR(2048) NOT NULL DEFAULT '',
  stateprovince VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'state or province as shown; derived unless sent',
  show_map     TINYINT(1) NOT NULL DEFAULT 1,
  show_map_link TINYINT(1) NOT NULL DEFAULT 1,
  geo_lat      DOUBLE NULL COMMENT 'geolocation extension: latitude, -90..90',
  geo_lng      DOUBLE NULL COMMENT 'geolocation extension: longitude, -180..180',
  KEY venue_details_geo (geo_lat, geo_lng),
  CONSTRAINT venue_details_post_fk FOREIGN KEY (venue_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS organizer_details (
  organizer_id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  phone        VARCHAR(64) NOT NULL DEFAULT '',
  website      VARCHAR(2048) NOT NULL DEFAULT '',
  email        VARCHAR(255) NOT NULL DEFAULT '',
  CONSTRAINT organizer_details_post_fk FOREIGN KEY (organizer_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS attachment_details (
  attachment_id BIGINT UNSIGNED NOT NULL PRIMARY KEY,
  url          VARCHAR(2048) NOT NULL,
  url_hash     BINARY(32) NOT NULL COMMENT 'SHA-256 of url, to find a URL given again',
  UNIQUE KEY attachment_url (url_hash),
  CONSTRAINT attachment_details_post_fk FOREIGN KEY (attachment_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- The UID of each imported VEVENT (docs/feeds.md): importing the same calendar again updates the
-- events instead of adding twins. Keyed by the UID's SHA-256, as UIDs have no length limit.
CREATE TABLE IF NOT EXISTS event_ical_uids (
  uid_hash     BINARY(32) NOT NULL PRIMARY KEY COMMENT 'SHA-256 of the UID',
  uid          TEXT NOT NULL COMMENT 'the VEVENT UID as imported',
  event_id     BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the event the UID imports into',
  KEY event_ical_uids_event (event_id),
  CONSTRAINT event_ical_uids_event_fk FOREIGN KEY (event_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci
  COMMENT 'UIDs of imported VEVENTs (POST /events text/calendar): a second import updates the event';

CREATE TABLE IF NOT EXISTS event_venues (
  event_id     BIGINT UNSIGNED NOT NULL PRIMARY KEY COMMENT 'an event has at most one venue',
  venue_id     BIGINT UNSIGNED NOT NULL,
  KEY event_venues_venue (venue_id, event_id),
  CONSTRAINT event_venues_event_fk FOREIGN KEY (event_id) REFERENCES posts (id) ON DELETE CASCADE,
  CONSTRAINT event_venues_venue_fk FOREIGN KEY (venue_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS event_organizers (
  event_id     BIGINT UNSIGNED NOT NULL,
  organizer_id BIGINT UNSIGNED NOT NULL,
  position     SMALLINT UNSIGNED NOT NULL COMMENT 'order as given by the client',
  PRIMARY KEY (event_id, organizer_id),
  KEY event_organizers_organizer (organizer_id, event_id),
  CONSTRAINT event_organizers_event_fk FOREIGN KEY (event_id) REFERENCES posts (id) ON DELETE CASCADE,
  CONSTRAINT event_organizers_organizer_fk FOREIGN KEY (organizer_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS terms (
  id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  taxonomy     ENUM('cal_events_cat','post_tag') NOT NULL,
  name         VARCHAR(200) NOT NULL,
  name_lower   VARCHAR(200) AS (LOWER(name)) STORED,
  slug         VARCHAR(200) NOT NULL,
  description  TEXT NOT NULL,
  parent       BIGINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'terms.id of the parent category; 0 = top level',
  UNIQUE KEY terms_taxonomy_slug (taxonomy, slug),
  UNIQUE KEY terms_taxonomy_parent_name (taxonomy, parent, name_lower),
  KEY terms_taxonomy_name (taxonomy, name_lower, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS term_relationships (
  event_id     BIGINT UNSIGNED NOT NULL,
  term_id      BIGINT UNSIGNED NOT NULL,
  PRIMARY KEY (event_id, term_id),
  KEY term_relationships_term (term_id, event_id),
  CONSTRAINT term_relationships_event_fk FOREIGN KEY (event_id) REFERENCES posts (id) ON DELETE CASCADE,
  CONSTRAINT term_relationships_term_fk FOREIGN KEY (term_id) REFERENCES terms (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Published events per term: a term's `count` is term_counts.published plus the
-- scheduled events carrying it whose date has passed (counted at read time, see store/terms.cpp),
-- instead of a scan of all the term's events on every read. Kept by the triggers below inside
-- every writing transaction, whoever writes: an event's status moving to or from 'publish', a
-- link added or removed, an event deleted (BEFORE DELETE: its links go by cascade, which fires no
-- trigger). Filled from the links when empty (a new or upgraded database).
--
-- Each term's count is split over 8 shards, CONNECTION_ID() % 8 of the writer, like
-- event_day_counts (migration 7): with one row per term, concurrent creates of events in the same
-- category queued on its row lock until commit. A count is the SUM over the shards; one shard
-- alone may be negative (a link added through one and removed through another).
CREATE TABLE IF NOT EXISTS term_counts (
  term_id      BIGINT UNSIGNED NOT NULL,
  shard        TINYINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'CONNECTION_ID() % 8 of the writer',
  published    BIGINT NOT NULL DEFAULT 0 COMMENT 'events with status publish carrying the term (this shard''s part)',
  PRIMARY KEY (term_id, shard),
  CONSTRAINT term_counts_term_fk FOREIGN KEY (term_id) REFERENCES terms (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Migration 7, once: a table from before the shards gets the column (its rows become shard 0,
-- their counts stay right) and the key with it; prepared, as for migration 5. The key's first
-- column stays term_id, so the foreign key keeps its index.
SET @cal_v7 = IF(EXISTS (SELECT 1 FROM schema_migrations WHERE version = 7), 'DO 0',
  'ALTER TABLE term_counts ADD COLUMN IF NOT EXISTS shard TINYINT UNSIGNED NOT NULL DEFAULT 0 COMMENT ''CONNECTION_ID() % 8 of the writer'' AFTER term_id, MODIFY published BIGINT NOT NULL DEFAULT 0 COMMENT ''events with status publish carrying the term (this shard''''s part)'', DROP PRIMARY KEY, ADD PRIMARY KEY (term_id, shard)');
PREPARE cal_v7 FROM @cal_v7;
EXECUTE cal_v7;
DEALLOCATE PREPARE cal_v7;

-- The AFTER INSERT triggers of the tables `calendarctl demo` fills in bulk do nothing while the
-- session variable @cal_bulk_load is set: per row they cost more than the inserts themselves. That
-- loader adds the term counts of its rows and bumps data_version once per transaction itself
-- (store/demo_data.cpp). The test is an IF around the body, not a condition inside the
-- statement: a statement whose WHERE tests the variable is still opened and optimized for every
-- row, and a SET of subqueries prepares them even when an IF() skips them (the triggers were
-- most of the time of `calendarctl demo`). Such bodies end their inner statements with a ';' at the start of
-- a line (Db::run_script ends a statement at a line ending in ';'). CREATE OR REPLACE: a database
-- migrated before gets this version (Db::run_script skips the statement when the stored body is
-- already the same). The insert triggers of the bulk-written tables are further down (posts_ai).
-- Every change adds +1 or -1 to the writer's own shard (the shard's row may not exist yet, even
-- for a -1), never to all shards of the term.
CREATE OR REPLACE TRIGGER term_relationships_count_ad AFTER DELETE ON term_relationships FOR EACH ROW
  INSERT INTO term_counts (term_id, shard, published)
    SELECT OLD.term_id, CONNECTION_ID() % 8, -1 FROM posts p
    WHERE p.id = OLD.event_id AND p.type = 'event' AND p.status = 'publish'
  ON DUPLICATE KEY UPDATE published = published - 1;
-- An update that keeps the link (the list copies changing) changes no count: it writes no row.
CREATE OR REPLACE TRIGGER term_relationships_count_au_old AFTER UPDATE ON term_relationships FOR EACH ROW
  INSERT INTO term_counts (term_id, shard, published)
    SELECT OLD.term_id, CONNECTION_ID() % 8, -1 FROM posts p
    WHERE p.id = OLD.event_id AND p.type = 'event' AND p.status = 'publish'
      AND (OLD.term_id <> NEW.term_id OR OLD.event_id <> NEW.event_id)
  ON DUPLICATE KEY UPDATE published = published - 1;
CREATE OR REPLACE TRIGGER term_relationships_count_au_new AFTER UPDATE ON term_relationships FOR EACH ROW
  INSERT INTO term_counts (term_id, shard, published)
    SELECT NEW.term_id, CONNECTION_ID() % 8, 1 FROM posts p WHERE p.id = NEW.event_id AND p.type = 'event' AND p.status = 'publish'
      AND (OLD.term_id <> NEW.term_id OR OLD.event_id <> NEW.event_id)
  ON DUPLICATE KEY UPDATE published = published + 1;
CREATE OR REPLACE TRIGGER posts_count_au_publish AFTER UPDATE ON posts FOR EACH ROW
  INSERT INTO term_counts (term_id, shard, published)
    SELECT r.term_id, CONNECTION_ID() % 8, 1 FROM term_relationships r
    WHERE r.event_id = NEW.id AND NEW.type = 'event' AND NEW.status = 'publish'
      AND NOT (OLD.type = 'event' AND OLD.status = 'publish')
  ON DUPLICATE KEY UPDATE published = published + 1;
CREATE OR REPLACE TRIGGER posts_count_au_unpublish AFTER UPDATE ON posts FOR EACH ROW
  INSERT INTO term_counts (term_id, shard, published)
    SELECT r.term_id, CONNECTION_ID() % 8, -1 FROM term_relationships r
    WHERE r.event_id = OLD.id AND OLD.type = 'event' AND OLD.status = 'publish'
      AND NOT (NEW.type = 'event' AND NEW.status = 'publish')
  ON DUPLICATE KEY UPDATE published = published - 1;
CREATE OR REPLACE TRIGGER posts_count_bd BEFORE DELETE ON posts FOR EACH ROW
  INSERT INTO term_counts (term_id, shard, published)
    SELECT r.term_id, CONNECTION_ID() % 8, -1 FROM term_relationships r
    WHERE r.event_id = OLD.id AND OLD.type = 'event' AND OLD.status = 'publish'
  ON DUPLICATE KEY UPDATE published = published - 1;

INSERT INTO term_counts (term_id, published)
  SELECT r.term_id, COUNT(*) FROM term_relationships r JOIN posts p ON p.id = r.event_id
  WHERE p.type = 'event' AND p.status = 'publish' AND NOT EXISTS (SELECT 1 FROM term_counts)
  GROUP BY r.term_id;

CREATE TABLE IF NOT EXISTS options (
  name         VARCHAR(191) NOT NULL PRIMARY KEY,
  value        TEXT NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Failed authentications per client address and per login (docs/reliability.md), shared by
-- every process and host, so CGI mode and many web hosts are throttled too
-- (store/auth_failures.cpp). One row per key and fixed window, rewritten by INSERT ... ON DUPLICATE KEY UPDATE; no response is made
-- of it, so no cal_note_change trigger: a failed login never empties the response cache.
CREATE TABLE IF NOT EXISTS auth_failures (
  throttle_key VARCHAR(80) NOT NULL PRIMARY KEY COMMENT 'a:<client address> or l:<login>',
  window_start BIGINT NOT NULL COMMENT 'UNIX_TIMESTAMP() of the first failure of the window',
  failures     INT UNSIGNED NOT NULL COMMENT 'failures since window_start',
  KEY auth_failures_window (window_start)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin COMMENT 'pruned by calendar-fcgi after its window';

-- The data version and the change log (docs/performance.md, docs/sync.md): the response cache of calendar-fcgi
-- serves a stored response only while nothing it was made of has changed. Every row written to a
-- table that responses are made of is noted by trigger, inside the writing transaction, whoever
-- writes (the service, calendarctl, another process, a `mariadb` session), through
-- cal_note_change() (once per record in each of the service's transactions): it bumps one of
-- 16 counters (sharded by connection, so concurrent writers do not queue on one row) and logs
-- which record changed in data_changes under the counter's new value. A shard's counter row
-- stays locked until its writer commits, so a shard's log is in commit order with no gaps: a
-- reader that saw the counters at V and now at W reads exactly the changes in between
-- (store/data_version.cpp) and drops only the answers they touch. No write can
-- be acknowledged while a response computed before it can still be served. Cascaded foreign-key
-- deletes fire no trigger, but the delete that causes them does; TRUNCATE fires none (restart
-- calendar-fcgi after truncating a table by hand).
CREATE TABLE IF NOT EXISTS data_version (
  shard        TINYINT UNSIGNED NOT NULL PRIMARY KEY COMMENT 'CONNECTION_ID() % 16 of the writer',
  version      BIGINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'rows written through this shard'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Filled once (a plain read when the rows are there: INSERT IGNORE would lock them against
-- the writers' triggers while the service runs).
INSERT INTO data_version (shard)
  SELECT s.shard FROM (SELECT 0 AS shard UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL
    SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9
    UNION ALL SELECT 10 UNION ALL SELECT 11 UNION ALL SELECT 12 UNION ALL SELECT 13 UNION ALL SELECT 14
    UNION ALL SELECT 15) s
  WHERE NOT EXISTS (SELECT 1 FROM data_version);

CREATE TABLE IF NOT EXISTS data_changes (
  shard        TINYINT UNSIGNED NOT NULL COMMENT 'data_version.shard of the writer',
  version      BIGINT UNSIGNED NOT NULL COMMENT 'data_version.version of that shard after this change',
  kind         ENUM('event','venue','organizer','attachment','term','all','category','tag','series') NOT NULL COMMENT 'what changed; all: anything (settings, users); term: before migration 10; series: a recurring series (migration 15)',
  record_id    BIGINT UNSIGNED NOT NULL COMMENT 'posts.id or terms.id; 0 for all',
  changed_utc  DATETIME NOT NULL DEFAULT UTC_TIMESTAMP() COMMENT 'when logged; pruned after [sync] retention_days',
  PRIMARY KEY (shard, version),
  KEY data_changes_changed (changed_utc)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT 'the change log: the response cache and GET /changes read it';

-- Migration 10, once (incremental sync, docs/sync.md): the log is also what GET /changes hands out,
-- kept for [sync] retention_days (default 30) instead of minutes, so each row gets its time;
-- terms are logged as 'category' or 'tag' (a deleted term's taxonomy is known no more when its id
-- is read back); terms get a modified_utc (name, slug, description or parent changed) for
-- modified_after/modified_before. Appending to an ENUM is instant; ALTER TABLE ... IF NOT EXISTS
-- stays safe on a database that has the columns already.
SET @cal_v10 = IF(EXISTS (SELECT 1 FROM schema_migrations WHERE version = 10), 'DO 0',
  'ALTER TABLE data_changes MODIFY kind ENUM(''event'',''venue'',''organizer'',''attachment'',''term'',''all'',''category'',''tag'') NOT NULL COMMENT ''what changed; all: anything (settings, users); term: before migration 10'', ADD COLUMN IF NOT EXISTS changed_utc DATETIME NOT NULL DEFAULT UTC_TIMESTAMP() COMMENT ''when logged; pruned after [sync] retention_days'', ADD INDEX IF NOT EXISTS data_changes_changed (changed_utc)');
PREPARE cal_v10 FROM @cal_v10;
EXECUTE cal_v10;
DEALLOCATE PREPARE cal_v10;
SET @cal_v10 = IF(EXISTS (SELECT 1 FROM schema_migrations WHERE version = 10), 'DO 0',
  'ALTER TABLE terms ADD COLUMN IF NOT EXISTS modified_utc DATETIME NOT NULL DEFAULT UTC_TIMESTAMP() COMMENT ''last change of name, slug, description or parent (trigger)'', ADD INDEX IF NOT EXISTS terms_modified (taxonomy, modified_utc)');
PREPARE cal_v10 FROM @cal_v10;
EXECUTE cal_v10;
DEALLOCATE PREPARE cal_v10;
-- Migration 15, once (docs/sync.md): a recurring series is logged as 'series', so GET /changes
-- reports it as one (with its rule) and a series deleted for good as a series gone. Before the
-- triggers below, which log the new value.
SET @cal_v15 = IF(EXISTS (SELECT 1 FROM schema_migrations WHERE version = 15), 'DO 0',
  'ALTER TABLE data_changes MODIFY kind ENUM(''event'',''venue'',''organizer'',''attachment'',''term'',''all'',''category'',''tag'',''series'') NOT NULL COMMENT ''what changed; all: anything (settings, users); term: before migration 10; series: a recurring series (migration 15)''');
PREPARE cal_v15 FROM @cal_v15;
EXECUTE cal_v15;
DEALLOCATE PREPARE cal_v15;

-- While @cal_bulk_load is set (calendarctl demo), nothing is noted: that loader bumps a counter
-- once per transaction itself, and a reader that finds counters ahead of the log empties its cache.
-- Inside an explicit transaction with @cal_noted set, a record already noted in the transaction
-- is not noted again: a POST of an event with two categories wrote 7 rows that each noted (the
-- post, its details, its venue link, two term links for the event, two term counts for the
-- categories), and the notes were over a quarter of the triggers' cost; all of them commit
-- together, so one row per record says the same to every reader. @cal_noted is the binary string
-- ",kind id,kind id," of the notes of the current transaction. Only the service sets it: "," before
-- each START TRANSACTION, and again after a failed statement, whose notes were rolled back while
-- the variable kept them (store/db.cpp). It is never cleared, so it is honoured only while
-- @@in_transaction: a write outside a transaction notes every row, and every transaction of the
-- service begins with a new set. Writers that never set it (calendarctl's SQL, a `mariadb`
-- session) note every row as before. Past 8 KB (a large import) it stops growing: later records
-- are noted every time, which is never wrong. Inner statements end with a ';' at the start of a
-- line, like the compound triggers' bodies; CREATE OR REPLACE is skipped while the stored body is
-- the same (apply_schema_script).
CREATE OR REPLACE PROCEDURE cal_note_change(IN change_kind VARCHAR(16), IN changed_id BIGINT UNSIGNED)
  MODIFIES SQL DATA
BEGIN
  IF @cal_bulk_load IS NULL THEN
    IF @cal_noted IS NULL OR @@in_transaction = 0
        OR LOCATE(CAST(CONCAT(',', change_kind, ' ', changed_id, ',') AS BINARY), @cal_noted) = 0 THEN
      UPDATE data_version SET version = version + 1 WHERE shard = CONNECTION_ID() % 16
      ; INSERT INTO data_changes (shard, version, kind, record_id)
        SELECT shard, version, change_kind, changed_id FROM data_version WHERE shard = CONNECTION_ID() % 16
      ; IF @@in_transaction = 1 AND LENGTH(@cal_noted) < 8192 THEN
        SET @cal_noted = CONCAT(CAST(@cal_noted AS BINARY), CAST(CONCAT(change_kind, ' ', changed_id, ',') AS BINARY))
      ; END IF
    ; END IF
  ; END IF
; END;

-- A recurring series (posts.type 'series', migration 14) is logged as 'series' (migration 15).
-- A write of a series turns it into an event for the while (store/event_series.cpp), and that
-- change of type is logged as 'series' too: a series deleted for good, or made a one-off event,
-- leaves a 'series' entry in the log, so GET /changes can say the series is gone.
CREATE OR REPLACE TRIGGER posts_version_au AFTER UPDATE ON posts FOR EACH ROW
  CALL cal_note_change(IF(OLD.type = 'series', 'series', NEW.type), NEW.id);
CREATE OR REPLACE TRIGGER posts_version_ad AFTER DELETE ON posts FOR EACH ROW
  CALL cal_note_change(OLD.type, OLD.id);
CREATE OR REPLACE TRIGGER event_details_version_au AFTER UPDATE ON event_details FOR EACH ROW
  CALL cal_note_change('event', NEW.event_id);
CREATE OR REPLACE TRIGGER event_details_version_ad AFTER DELETE ON event_details FOR EACH ROW
  CALL cal_note_change('event', OLD.event_id);
CREATE OR REPLACE TRIGGER venue_details_version_ai AFTER INSERT ON venue_details FOR EACH ROW
  CALL cal_note_change('venue', NEW.venue_id);
CREATE OR REPLACE TRIGGER venue_details_version_au AFTER UPDATE ON venue_details FOR EACH ROW
  CALL cal_note_change('venue', NEW.venue_id);
CREATE OR REPLACE TRIGGER venue_details_version_ad AFTER DELETE ON venue_details FOR EACH ROW
  CALL cal_note_change('venue', OLD.venue_id);
CREATE OR REPLACE TRIGGER organizer_details_version_ai AFTER INSERT ON organizer_details FOR EACH ROW
  CALL cal_note_change('organizer', NEW.organizer_id);
CREATE OR REPLACE TRIGGER organizer_details_version_au AFTER UPDATE ON organizer_details FOR EACH ROW
  CALL cal_note_change('organizer', NEW.organizer_id);
CREATE OR REPLACE TRIGGER organizer_details_version_ad AFTER DELETE ON organizer_details FOR EACH ROW
  CALL cal_note_change('organizer', OLD.organizer_id);
CREATE OR REPLACE TRIGGER attachment_details_version_ai AFTER INSERT ON attachment_details FOR EACH ROW
  CALL cal_note_change('attachment', NEW.attachment_id);
CREATE OR REPLACE TRIGGER attachment_details_version_au AFTER UPDATE ON attachment_details FOR EACH ROW
  CALL cal_note_change('attachment', NEW.attachment_id);
CREATE OR REPLACE TRIGGER attachment_details_version_ad AFTER DELETE ON attachment_details FOR EACH ROW
  CALL cal_note_change('attachment', OLD.attachment_id);
-- Link tables: an update that changes only the copied columns (status, dates) follows a change
-- of the event that was noted already.
CREATE OR REPLACE TRIGGER event_venues_version_ai AFTER INSERT ON event_venues FOR EACH ROW
  IF @cal_bulk_load IS NULL THEN CALL cal_note_change('event', NEW.event_id); END IF;
CREATE OR REPLACE TRIGGER event_venues_version_au AFTER UPDATE ON event_venues FOR EACH ROW
  IF NEW.event_id <> OLD.event_id OR NEW.venue_id <> OLD.venue_id THEN CALL cal_note_change('event', NEW.event_id); CALL cal_note_change('event', OLD.event_id); END IF;
CREATE OR REPLACE TRIGGER event_venues_version_ad AFTER DELETE ON event_venues FOR EACH ROW
  CALL cal_note_change('event', OLD.event_id);
CREATE OR REPLACE TRIGGER event_organizers_version_ai AFTER INSERT ON event_organizers FOR EACH ROW
  IF @cal_bulk_load IS NULL THEN CALL cal_note_change('event', NEW.event_id); END IF;
CREATE OR REPLACE TRIGGER event_organizers_version_au AFTER UPDATE ON event_organizers FOR EACH ROW
  IF NEW.event_id <> OLD.event_id OR NEW.organizer_id <> OLD.organizer_id OR NEW.position <> OLD.position THEN CALL cal_note_change('event', NEW.event_id); CALL cal_note_change('event', OLD.event_id); END IF;
CREATE OR REPLACE TRIGGER event_organizers_version_ad AFTER DELETE ON event_organizers FOR EACH ROW
  CALL cal_note_change('event', OLD.event_id);
CREATE OR REPLACE TRIGGER term_relationships_version_au AFTER UPDATE ON term_relationships FOR EACH ROW
  IF NEW.event_id <> OLD.event_id OR NEW.term_id <> OLD.term_id THEN CALL cal_note_change('event', NEW.event_id); CALL cal_note_change('event', OLD.event_id); END IF;
CREATE OR REPLACE TRIGGER term_relationships_version_ad AFTER DELETE ON term_relationships FOR EACH ROW
  CALL cal_note_change('event', OLD.event_id);
-- Terms are logged by taxonomy (migration 10): GET /changes names a deleted term's kind.
CREATE OR REPLACE TRIGGER terms_version_ai AFTER INSERT ON terms FOR EACH ROW
  CALL cal_note_change(IF(NEW.taxonomy = 'post_tag', 'tag', 'category'), NEW.id);
CREATE OR REPLACE TRIGGER terms_version_au AFTER UPDATE ON terms FOR EACH ROW
  CALL cal_note_change(IF(NEW.taxonomy = 'post_tag', 'tag', 'category'), NEW.id);
CREATE OR REPLACE TRIGGER terms_version_ad AFTER DELETE ON terms FOR EACH ROW
  CALL cal_note_change(IF(OLD.taxonomy = 'post_tag', 'tag', 'category'), OLD.id);
-- A term's or a venue's or organizer's links would go by foreign-key cascade, which fires no
-- trigger: the events that lose them would change unlogged (GET /changes would miss them, the
-- response cache would not). Deleted here first, their own triggers log each event, whoever
-- deletes (the service unlinks venues and organizers itself before, so finds nothing here).
CREATE OR REPLACE TRIGGER terms_links_bd BEFORE DELETE ON terms FOR EACH ROW
  DELETE FROM term_relationships WHERE term_id = OLD.id;
CREATE OR REPLACE TRIGGER posts_links_bd BEFORE DELETE ON posts FOR EACH ROW BEGIN
  IF OLD.type = 'venue' THEN DELETE FROM event_venues WHERE venue_id = OLD.id
  ; ELSEIF OLD.type = 'organizer' THEN DELETE FROM event_organizers WHERE organizer_id = OLD.id
  ; END IF
; END;
-- modified_utc follows what a term's record shows of itself (not its count, which follows events).
CREATE OR REPLACE TRIGGER terms_modified_bu BEFORE UPDATE ON terms FOR EACH ROW
  SET NEW.modified_utc = IF(NEW.name <> OLD.name OR NEW.slug <> OLD.slug OR NEW.description <> OLD.description
    OR NEW.parent <> OLD.parent, UTC_TIMESTAMP(), NEW.modified_utc);
-- A term's count is part of its record (and of the events that carry it). A count row of a term
-- being deleted goes by cascade, without a trigger; the term's own delete is logged.
CREATE OR REPLACE TRIGGER term_counts_version_ai AFTER INSERT ON term_counts FOR EACH ROW
  CALL cal_note_change(COALESCE((SELECT IF(t.taxonomy = 'post_tag', 'tag', 'category') FROM terms t WHERE t.id = NEW.term_id), 'term'), NEW.term_id);
CREATE OR REPLACE TRIGGER term_counts_version_au AFTER UPDATE ON term_counts FOR EACH ROW
  CALL cal_note_change(COALESCE((SELECT IF(t.taxonomy = 'post_tag', 'tag', 'category') FROM terms t WHERE t.id = NEW.term_id), 'term'), NEW.term_id);
CREATE OR REPLACE TRIGGER term_counts_version_ad AFTER DELETE ON term_counts FOR EACH ROW
  CALL cal_note_change(COALESCE((SELECT IF(t.taxonomy = 'post_tag', 'tag', 'category') FROM terms t WHERE t.id = OLD.term_id), 'term'), OLD.term_id);
CREATE OR REPLACE TRIGGER options_version_ai AFTER INSERT ON options FOR EACH ROW
  CALL cal_note_change('all', 0);
CREATE OR REPLACE TRIGGER options_version_au AFTER UPDATE ON options FOR EACH ROW
  CALL cal_note_change('all', 0);
CREATE OR REPLACE TRIGGER options_version_ad AFTER DELETE ON options FOR EACH ROW
  CALL cal_note_change('all', 0);
CREATE OR REPLACE TRIGGER users_version_ai AFTER INSERT ON users FOR EACH ROW
  CALL cal_note_change('all', 0);
CREATE OR REPLACE TRIGGER users_version_au AFTER UPDATE ON users FOR EACH ROW
  CALL cal_note_change('all', 0);
CREATE OR REPLACE TRIGGER users_version_ad AFTER DELETE ON users FOR EACH ROW
  CALL cal_note_change('all', 0);

-- The list engine (docs/architecture.md): GET /events counts and pages without reading a row per matching
-- event. event_details carries a copy of its post's visibility (status, author, publication
-- date), kept by triggers inside every writing transaction whoever writes: BEFORE INSERT reads
-- the post (always written first: the foreign key), posts' AFTER UPDATE copies a change. The
-- indexes below then serve a list page as an ordered scan of its own rows (store/event_query.cpp).
ALTER TABLE event_details
  ADD COLUMN IF NOT EXISTS status ENUM('publish','future','draft','pending','private','trash') NOT NULL DEFAULT 'draft' COMMENT 'copy of posts.status (trigger)',
  ADD COLUMN IF NOT EXISTS author BIGINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'copy of posts.author (trigger)',
  ADD COLUMN IF NOT EXISTS publish_utc DATETIME NOT NULL DEFAULT '1970-01-01 00:00:00' COMMENT 'copy of posts.date_utc (trigger)';
ALTER TABLE event_details
  ADD INDEX IF NOT EXISTS event_details_status_start (status, hide_from_listings, start_utc, event_id, end_utc, featured) COMMENT 'one status in list order; covers the counts of partial days and end bounds',
  ADD INDEX IF NOT EXISTS event_details_listed_start (hide_from_listings, start_utc, event_id, end_utc, status, featured) COMMENT 'several statuses in list order, filtered in the index',
  ADD INDEX IF NOT EXISTS event_details_author_start (author, start_utc, event_id) COMMENT 'authors own events in list order',
  ADD INDEX IF NOT EXISTS event_details_due (status, publish_utc) COMMENT 'scheduled events whose date has passed read as published';

-- Events per (status, hidden, UTC day of start, featured): the exact count of a date window sums
-- the whole days here and counts only the partial days at its ends and the rows near its end
-- bounds from the indexes (store/event_count_plan.h). Kept by the triggers below; a post's
-- delete cascades to its details without triggers, so posts' BEFORE DELETE takes the row out.
-- Each day's count is split over 8 shards, CONNECTION_ID() % 8 of the writer, like data_version:
-- with one row per day, concurrent creates of events on the same day queued on its row lock until
-- commit (16 writers on one day: 315 POST/s instead of 700+). A count is the SUM over the shards;
-- one shard alone may be negative (an event added through one and removed through another).
CREATE TABLE IF NOT EXISTS event_day_counts (
  status       ENUM('publish','future','draft','pending','private','trash') NOT NULL,
  hide_from_listings TINYINT(1) NOT NULL,
  day          DATE NOT NULL COMMENT 'UTC day of start_utc',
  featured     TINYINT(1) NOT NULL,
  shard        TINYINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'CONNECTION_ID() % 8 of the writer',
  events       BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (status, hide_from_listings, day, featured, shard)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Migration 5, once: a table from before the shards gets the column (its rows become shard 0,
-- their counts stay right) and the key with it. A prepared statement, because ALTER TABLE has no
-- IF for a key: run every start it would rebuild the table under the service's writers.
SET @cal_v5 = IF(EXISTS (SELECT 1 FROM schema_migrations WHERE version = 5), 'DO 0',
  'ALTER TABLE event_day_counts ADD COLUMN IF NOT EXISTS shard TINYINT UNSIGNED NOT NULL DEFAULT 0 COMMENT ''CONNECTION_ID() % 8 of the writer'' AFTER featured, DROP PRIMARY KEY, ADD PRIMARY KEY (status, hide_from_listings, day, featured, shard)');
PREPARE cal_v5 FROM @cal_v5;
EXECUTE cal_v5;
DEALLOCATE PREPARE cal_v5;

-- Every whole number of hours FLOOR((end_utc - start_utc) / 3600) some event has had: the bounds
-- on duration that make a window's end bounds a bounded scan. Only grows (a long event deleted
-- leaves a looser, still true bound); one row per value, so writers never queue on a hot row.
CREATE TABLE IF NOT EXISTS event_duration_hours (
  hours        BIGINT NOT NULL PRIMARY KEY
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- Filled once from the posts and events already there (a database from before the list engine).
UPDATE event_details d JOIN posts p ON p.id = d.event_id
  SET d.status = p.status, d.author = p.author, d.publish_utc = p.date_utc
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 3);
DELETE FROM event_day_counts WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 3);
INSERT INTO event_day_counts (status, hide_from_listings, day, featured, shard, events)
  SELECT status, hide_from_listings, DATE(start_utc), featured, 0, COUNT(*) FROM event_details
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 3)
  GROUP BY status, hide_from_listings, DATE(start_utc), featured;
INSERT IGNORE INTO event_duration_hours (hours)
  SELECT DISTINCT FLOOR(TIMESTAMPDIFF(SECOND, start_utc, end_utc) / 3600) FROM event_details
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 3);

-- While @cal_bulk_load is set the loader writes the copies itself (store/demo_data.cpp). One
-- SELECT of the post, not a subquery per column: each subquery opened and planned the table again.
-- No post (a foreign-key error follows) leaves the row's own values.
CREATE OR REPLACE TRIGGER event_details_visibility_bi BEFORE INSERT ON event_details FOR EACH ROW BEGIN
  DECLARE post_status VARCHAR(20)
  ; DECLARE post_author BIGINT UNSIGNED
  ; DECLARE post_date DATETIME
  ; IF @cal_bulk_load IS NULL THEN
    SELECT p.status, p.author, p.date_utc INTO post_status, post_author, post_date FROM posts p WHERE p.id = NEW.event_id
    ; SET NEW.status = COALESCE(post_status, NEW.status), NEW.author = COALESCE(post_author, NEW.author),
      NEW.publish_utc = COALESCE(post_date, NEW.publish_utc)
  ; END IF
; END;
CREATE OR REPLACE TRIGGER posts_visibility_au AFTER UPDATE ON posts FOR EACH ROW
  UPDATE event_details SET status = NEW.status, author = NEW.author, publish_utc = NEW.date_utc
  WHERE event_id = NEW.id AND (OLD.status <> NEW.status OR OLD.author <> NEW.author OR OLD.date_utc <> NEW.date_utc);
-- Every change adds +1 or -1 to the writer's own shard (INSERT ... ON DUPLICATE KEY UPDATE: the
-- shard's row may not exist yet, even for a -1).
CREATE OR REPLACE TRIGGER event_details_days_au_old AFTER UPDATE ON event_details FOR EACH ROW
  INSERT INTO event_day_counts (status, hide_from_listings, day, featured, shard, events)
    SELECT OLD.status, OLD.hide_from_listings, DATE(OLD.start_utc), OLD.featured, CONNECTION_ID() % 8, -1 FROM DUAL
    WHERE OLD.status <> NEW.status OR OLD.hide_from_listings <> NEW.hide_from_listings OR DATE(OLD.start_utc) <> DATE(NEW.start_utc) OR OLD.featured <> NEW.featured
  ON DUPLICATE KEY UPDATE events = events - 1;
CREATE OR REPLACE TRIGGER event_details_days_au_new AFTER UPDATE ON event_details FOR EACH ROW
  INSERT INTO event_day_counts (status, hide_from_listings, day, featured, shard, events)
    SELECT NEW.status, NEW.hide_from_listings, DATE(NEW.start_utc), NEW.featured, CONNECTION_ID() % 8, 1 FROM DUAL
    WHERE OLD.status <> NEW.status OR OLD.hide_from_listings <> NEW.hide_from_listings OR DATE(OLD.start_utc) <> DATE(NEW.start_utc) OR OLD.featured <> NEW.featured
  ON DUPLICATE KEY UPDATE events = events + 1;
CREATE OR REPLACE TRIGGER event_details_days_ad AFTER DELETE ON event_details FOR EACH ROW
  INSERT INTO event_day_counts (status, hide_from_listings, day, featured, shard, events)
    VALUES (OLD.status, OLD.hide_from_listings, DATE(OLD.start_utc), OLD.featured, CONNECTION_ID() % 8, -1)
  ON DUPLICATE KEY UPDATE events = events - 1;
CREATE OR REPLACE TRIGGER posts_days_bd BEFORE DELETE ON posts FOR EACH ROW
  INSERT INTO event_day_counts (status, hide_from_listings, day, featured, shard, events)
    SELECT d.status, d.hide_from_listings, DATE(d.start_utc), d.featured, CONNECTION_ID() % 8, -1 FROM event_details d
    WHERE d.event_id = OLD.id
  ON DUPLICATE KEY UPDATE events = events - 1;
CREATE OR REPLACE TRIGGER event_details_hours_au AFTER UPDATE ON event_details FOR EACH ROW
  INSERT IGNORE INTO event_duration_hours (hours)
    SELECT FLOOR(TIMESTAMPDIFF(SECOND, NEW.start_utc, NEW.end_utc) / 3600) FROM DUAL
    WHERE NEW.start_utc <> OLD.start_utc OR NEW.end_utc <> OLD.end_utc;

-- Indexes added after the first release: databases created earlier get them here
-- (MariaDB's IF NOT EXISTS keeps this file idempotent).
ALTER TABLE event_details ADD INDEX IF NOT EXISTS event_details_window (start_utc, end_utc, hide_from_listings);

-- Link rows drive the lists filtered by them (docs/architecture.md): term_relationships,
-- event_organizers and event_venues carry copies of their event's status, hide_from_listings and
-- UTC start and end, kept by triggers inside every writing transaction whoever writes (BEFORE
-- INSERT reads the event's details, written first; event_details' AFTER INSERT and AFTER UPDATE
-- copy a change, and posts' AFTER UPDATE reaches them through event_details' copy of the status).
-- A list by one term, organizer or venue is then an ordered range scan of that one's rows in the
-- window, and its count a range count over them (store/event_link_list.cpp). While
-- @cal_bulk_load is set the loader writes the copies itself (store/demo_data.cpp). The BEFORE
-- INSERT copy reads the event's post and details in one SELECT (it was four subqueries of
-- event_details and one of posts, each opened and planned on its own, per link row); an event
-- without details yet takes its post's status and the row's defaults.
ALTER TABLE term_relationships
  ADD COLUMN IF NOT EXISTS status ENUM('publish','future','draft','pending','private','trash') NOT NULL DEFAULT 'draft' COMMENT 'copy of event_details.status (trigger)',
  ADD COLUMN IF NOT EXISTS hide_from_listings TINYINT(1) NOT NULL DEFAULT 0 COMMENT 'copy (trigger)',
  ADD COLUMN IF NOT EXISTS start_utc DATETIME NOT NULL DEFAULT '1970-01-01 00:00:00' COMMENT 'copy (trigger)',
  ADD COLUMN IF NOT EXISTS end_utc DATETIME NOT NULL DEFAULT '1970-01-01 00:00:00' COMMENT 'copy (trigger)';
ALTER TABLE term_relationships
  ADD INDEX IF NOT EXISTS term_relationships_list (term_id, status, hide_from_listings, start_utc, event_id, end_utc) COMMENT 'a term''s events of one status in list order';
ALTER TABLE event_organizers
  ADD COLUMN IF NOT EXISTS status ENUM('publish','future','draft','pending','private','trash') NOT NULL DEFAULT 'draft' COMMENT 'copy of event_details.status (trigger)',
  ADD COLUMN IF NOT EXISTS hide_from_listings TINYINT(1) NOT NULL DEFAULT 0 COMMENT 'copy (trigger)',
  ADD COLUMN IF NOT EXISTS start_utc DATETIME NOT NULL DEFAULT '1970-01-01 00:00:00' COMMENT 'copy (trigger)',
  ADD COLUMN IF NOT EXISTS end_utc DATETIME NOT NULL DEFAULT '1970-01-01 00:00:00' COMMENT 'copy (trigger)';
ALTER TABLE event_organizers
  ADD INDEX IF NOT EXISTS event_organizers_list (organizer_id, status, hide_from_listings, start_utc, event_id, end_utc) COMMENT 'an organizer''s events of one status in list order';
ALTER TABLE event_venues
  ADD COLUMN IF NOT EXISTS status ENUM('publish','future','draft','pending','private','trash') NOT NULL DEFAULT 'draft' COMMENT 'copy of event_details.status (trigger)',
  ADD COLUMN IF NOT EXISTS hide_from_listings TINYINT(1) NOT NULL DEFAULT 0 COMMENT 'copy (trigger)',
  ADD COLUMN IF NOT EXISTS start_utc DATETIME NOT NULL DEFAULT '1970-01-01 00:00:00' COMMENT 'copy (trigger)',
  ADD COLUMN IF NOT EXISTS end_utc DATETIME NOT NULL DEFAULT '1970-01-01 00:00:00' COMMENT 'copy (trigger)';
ALTER TABLE event_venues
  ADD INDEX IF NOT EXISTS event_venues_list (venue_id, status, hide_from_listings, start_utc, event_id, end_utc) COMMENT 'a venue''s events of one status in list order';

-- Filled once from the events already there (a database from before version 4).
UPDATE term_relationships r JOIN event_details d ON d.event_id = r.event_id
  SET r.status = d.status, r.hide_from_listings = d.hide_from_listings, r.start_utc = d.start_utc, r.end_utc = d.end_utc
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 4);
UPDATE event_organizers r JOIN event_details d ON d.event_id = r.event_id
  SET r.status = d.status, r.hide_from_listings = d.hide_from_listings, r.start_utc = d.start_utc, r.end_utc = d.end_utc
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 4);
UPDATE event_venues r JOIN event_details d ON d.event_id = r.event_id
  SET r.status = d.status, r.hide_from_listings = d.hide_from_listings, r.start_utc = d.start_utc, r.end_utc = d.end_utc
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 4);

CREATE OR REPLACE TRIGGER term_relationships_copy_bi BEFORE INSERT ON term_relationships FOR EACH ROW BEGIN
  DECLARE event_status, post_status VARCHAR(20)
  ; DECLARE event_hidden TINYINT
  ; DECLARE event_start, event_end DATETIME
  ; IF @cal_bulk_load IS NULL THEN
    SELECT d.status, p.status, d.hide_from_listings, d.start_utc, d.end_utc
      INTO event_status, post_status, event_hidden, event_start, event_end
      FROM posts p LEFT JOIN event_details d ON d.event_id = p.id WHERE p.id = NEW.event_id
    ; SET NEW.status = COALESCE(event_status, post_status, NEW.status),
      NEW.hide_from_listings = COALESCE(event_hidden, NEW.hide_from_listings),
      NEW.start_utc = COALESCE(event_start, NEW.start_utc), NEW.end_utc = COALESCE(event_end, NEW.end_utc)
  ; END IF
; END;
CREATE OR REPLACE TRIGGER event_details_term_relationships_au AFTER UPDATE ON event_details FOR EACH ROW
  UPDATE term_relationships SET status = NEW.status, hide_from_listings = NEW.hide_from_listings, start_utc = NEW.start_utc, end_utc = NEW.end_utc
  WHERE event_id = NEW.event_id AND (OLD.status <> NEW.status OR OLD.hide_from_listings <> NEW.hide_from_listings OR OLD.start_utc <> NEW.start_utc OR OLD.end_utc <> NEW.end_utc);
CREATE OR REPLACE TRIGGER event_organizers_copy_bi BEFORE INSERT ON event_organizers FOR EACH ROW BEGIN
  DECLARE event_status, post_status VARCHAR(20)
  ; DECLARE event_hidden TINYINT
  ; DECLARE event_start, event_end DATETIME
  ; IF @cal_bulk_load IS NULL THEN
    SELECT d.status, p.status, d.hide_from_listings, d.start_utc, d.end_utc
      INTO event_status, post_status, event_hidden, event_start, event_end
      FROM posts p LEFT JOIN event_details d ON d.event_id = p.id WHERE p.id = NEW.event_id
    ; SET NEW.status = COALESCE(event_status, post_status, NEW.status),
      NEW.hide_from_listings = COALESCE(event_hidden, NEW.hide_from_listings),
      NEW.start_utc = COALESCE(event_start, NEW.start_utc), NEW.end_utc = COALESCE(event_end, NEW.end_utc)
  ; END IF
; END;
CREATE OR REPLACE TRIGGER event_details_event_organizers_au AFTER UPDATE ON event_details FOR EACH ROW
  UPDATE event_organizers SET status = NEW.status, hide_from_listings = NEW.hide_from_listings, start_utc = NEW.start_utc, end_utc = NEW.end_utc
  WHERE event_id = NEW.event_id AND (OLD.status <> NEW.status OR OLD.hide_from_listings <> NEW.hide_from_listings OR OLD.start_utc <> NEW.start_utc OR OLD.end_utc <> NEW.end_utc);
CREATE OR REPLACE TRIGGER event_venues_copy_bi BEFORE INSERT ON event_venues FOR EACH ROW BEGIN
  DECLARE event_status, post_status VARCHAR(20)
  ; DECLARE event_hidden TINYINT
  ; DECLARE event_start, event_end DATETIME
  ; IF @cal_bulk_load IS NULL THEN
    SELECT d.status, p.status, d.hide_from_listings, d.start_utc, d.end_utc
      INTO event_status, post_status, event_hidden, event_start, event_end
      FROM posts p LEFT JOIN event_details d ON d.event_id = p.id WHERE p.id = NEW.event_id
    ; SET NEW.status = COALESCE(event_status, post_status, NEW.status),
      NEW.hide_from_listings = COALESCE(event_hidden, NEW.hide_from_listings),
      NEW.start_utc = COALESCE(event_start, NEW.start_utc), NEW.end_utc = COALESCE(event_end, NEW.end_utc)
  ; END IF
; END;
CREATE OR REPLACE TRIGGER event_details_event_venues_au AFTER UPDATE ON event_details FOR EACH ROW
  UPDATE event_venues SET status = NEW.status, hide_from_listings = NEW.hide_from_listings, start_utc = NEW.start_utc, end_utc = NEW.end_utc
  WHERE event_id = NEW.event_id AND (OLD.status <> NEW.status OR OLD.hide_from_listings <> NEW.hide_from_listings OR OLD.start_utc <> NEW.start_utc OR OLD.end_utc <> NEW.end_utc);

INSERT IGNORE INTO schema_migrations (version) VALUES (1), (2), (3), (4), (5);
-- Separate from the line above: version 6 is another change's.
INSERT IGNORE INTO schema_migrations (version) VALUES (7);

-- Migration 8, once (docs/mysql.md): every table and column explains itself in SHOW CREATE TABLE and
-- SHOW FULL COLUMNS. A new database gets the comments here too (its CREATE TABLEs above are left
-- as they were), so new and upgraded databases end up identical. Each MODIFY restates the
-- column's definition unchanged but for its COMMENT: ALGORITHM=INSTANT makes MariaDB change only
-- the table's metadata (no row is read, at a million events as at ten) and fail instead of
-- copying the table should a definition here differ from the table's. The one exception is the
-- generated column terms.name_lower, whose comment MariaDB changes only by copying: terms holds
-- the categories and tags (tens of rows), so that ALTER is ALGORITHM=COPY. A procedure, created
-- and dropped here, because ALTER TABLE has no IF (like migrations 5 and 7) and its COMMENT
-- texts read better without a second level of quoting.
CREATE OR REPLACE PROCEDURE cal_migration_8()
  MODIFIES SQL DATA
BEGIN
  IF NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 8) THEN
    ALTER TABLE schema_migrations ALGORITHM=INSTANT, COMMENT 'numbered migrations of schema.sql already applied to this database',
      MODIFY applied_utc DATETIME NOT NULL DEFAULT UTC_TIMESTAMP() COMMENT 'when it was applied (UTC)'
    ; ALTER TABLE users ALGORITHM=INSTANT, COMMENT 'who may write through the API (calendarctl user add); visitors need no row',
      MODIFY id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT COMMENT 'user id; posts.author',
      MODIFY login VARCHAR(60) NOT NULL COMMENT 'login name for Basic authentication',
      MODIFY display_name VARCHAR(250) NOT NULL DEFAULT '' COMMENT 'name shown as an author',
      MODIFY role ENUM('administrator','editor','author','contributor','subscriber') NOT NULL COMMENT 'WordPress role: what the user may do',
      MODIFY created_utc DATETIME NOT NULL DEFAULT UTC_TIMESTAMP() COMMENT 'when the user was added (UTC)'
    ; ALTER TABLE app_passwords ALGORITHM=INSTANT, COMMENT 'application passwords of users (calendarctl password add), as hashes',
      MODIFY id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT COMMENT 'password id',
      MODIFY user_id BIGINT UNSIGNED NOT NULL COMMENT 'users.id of the owner',
      MODIFY created_utc DATETIME NOT NULL DEFAULT UTC_TIMESTAMP() COMMENT 'when it was added (UTC)',
      MODIFY last_used_utc DATETIME NULL COMMENT 'last successful authentication with it (UTC); NULL = never'
    ; ALTER TABLE posts ALGORITHM=INSTANT, COMMENT 'events, venues, organizers and image attachments: what they share (see the *_details tables)',
      MODIFY id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT COMMENT 'record id, as in the API',
      MODIFY type ENUM('event','venue','organizer','attachment') NOT NULL COMMENT 'what the record is',
      MODIFY status ENUM('publish','future','draft','pending','private','trash') NOT NULL DEFAULT 'draft' COMMENT 'WordPress post status; future whose date_utc has passed reads as publish',
      MODIFY content MEDIUMTEXT NOT NULL COMMENT 'description (sanitized HTML)',
      MODIFY excerpt TEXT NOT NULL COMMENT 'short description (sanitized HTML)',
      MODIFY slug VARCHAR(200) NOT NULL COMMENT 'URL name, unique per type',
      MODIFY date_utc DATETIME NOT NULL COMMENT 'publication date, UTC',
      MODIFY modified_local DATETIME NOT NULL COMMENT 'last change, site-local',
      MODIFY modified_utc DATETIME NOT NULL COMMENT 'last change, UTC'
    ; ALTER TABLE event_details ALGORITHM=INSTANT, COMMENT 'one row per event: its dates and settings',
      MODIFY event_id BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the event',
      MODIFY end_local DATETIME NOT NULL COMMENT 'wall clock in the event time zone',
      MODIFY start_utc DATETIME NOT NULL COMMENT 'start, UTC: what date filters and list order use',
      MODIFY end_utc DATETIME NOT NULL COMMENT 'end, UTC',
      MODIFY all_day TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1 = all-day event (start 00:00:00, end 23:59:59 local)',
      MODIFY website VARCHAR(2048) NOT NULL DEFAULT '' COMMENT 'event website URL; empty = none',
      MODIFY show_map TINYINT(1) NOT NULL DEFAULT 1 COMMENT '1 = pages show a map of the venue',
      MODIFY show_map_link TINYINT(1) NOT NULL DEFAULT 1 COMMENT '1 = pages show a link to a map',
      MODIFY hide_from_listings TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1 = left out of event lists (shown on its own)',
      MODIFY sticky TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1 = sticky in month views',
      MODIFY featured TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1 = featured event'
    ; ALTER TABLE venue_details ALGORITHM=INSTANT, COMMENT 'one row per venue: its address and settings',
      MODIFY venue_id BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the venue',
      MODIFY address VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'street address',
      MODIFY city VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'city',
      MODIFY country VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'country name as entered',
      MODIFY province VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'province (outside the United States)',
      MODIFY state VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'state (United States)',
      MODIFY zip VARCHAR(64) NOT NULL DEFAULT '' COMMENT 'postal code',
      MODIFY phone VARCHAR(64) NOT NULL DEFAULT '' COMMENT 'phone number as entered',
      MODIFY website VARCHAR(2048) NOT NULL DEFAULT '' COMMENT 'venue website URL; empty = none',
      MODIFY show_map TINYINT(1) NOT NULL DEFAULT 1 COMMENT '1 = pages show a map',
      MODIFY show_map_link TINYINT(1) NOT NULL DEFAULT 1 COMMENT '1 = pages show a link to a map'
    ; ALTER TABLE organizer_details ALGORITHM=INSTANT, COMMENT 'one row per organizer: how to reach them',
      MODIFY organizer_id BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the organizer',
      MODIFY phone VARCHAR(64) NOT NULL DEFAULT '' COMMENT 'phone number as entered',
      MODIFY website VARCHAR(2048) NOT NULL DEFAULT '' COMMENT 'organizer website URL; empty = none',
      MODIFY email VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'email address; empty = none'
    ; ALTER TABLE attachment_details ALGORITHM=INSTANT, COMMENT 'one row per image attachment (featured images)',
      MODIFY attachment_id BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the attachment',
      MODIFY url VARCHAR(2048) NOT NULL COMMENT 'image URL'
    ; ALTER TABLE event_venues ALGORITHM=INSTANT, COMMENT 'the venue of each event that has one',
      MODIFY venue_id BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the venue'
    ; ALTER TABLE event_organizers ALGORITHM=INSTANT, COMMENT 'the organizers of each event, in order',
      MODIFY event_id BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the event',
      MODIFY organizer_id BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the organizer'
    ; ALTER TABLE terms ALGORITHM=INSTANT, COMMENT 'event categories (hierarchical) and tags',
      MODIFY id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT COMMENT 'term id, as in the API',
      MODIFY taxonomy ENUM('cal_events_cat','post_tag') NOT NULL COMMENT 'cal_events_cat = category, post_tag = tag',
      MODIFY name VARCHAR(200) NOT NULL COMMENT 'name as shown',
      MODIFY slug VARCHAR(200) NOT NULL COMMENT 'URL name, unique per taxonomy',
      MODIFY description TEXT NOT NULL COMMENT 'description (sanitized HTML)'
    ; ALTER TABLE terms ALGORITHM=COPY,
      MODIFY name_lower VARCHAR(200) AS (LOWER(name)) STORED COMMENT 'for name ordering and the unique name per parent'
    ; ALTER TABLE term_relationships ALGORITHM=INSTANT, COMMENT 'the categories and tags of each event',
      MODIFY event_id BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the event',
      MODIFY term_id BIGINT UNSIGNED NOT NULL COMMENT 'terms.id of the category or tag'
    ; ALTER TABLE term_counts ALGORITHM=INSTANT, COMMENT 'published events per term, split over shards (kept by triggers); a count is the SUM',
      MODIFY term_id BIGINT UNSIGNED NOT NULL COMMENT 'terms.id'
    ; ALTER TABLE options ALGORITHM=INSTANT, COMMENT 'site settings by name (a change empties the response cache)',
      MODIFY name VARCHAR(191) NOT NULL COMMENT 'setting name',
      MODIFY value TEXT NOT NULL COMMENT 'setting value'
    ; ALTER TABLE data_version ALGORITHM=INSTANT, COMMENT 'write counters the response cache compares (kept by triggers)'
    ; ALTER TABLE event_day_counts ALGORITHM=INSTANT, COMMENT 'events per status, hidden flag, UTC start day and featured flag, split over shards (kept by triggers); for list counts',
      MODIFY status ENUM('publish','future','draft','pending','private','trash') NOT NULL COMMENT 'event_details.status',
      MODIFY hide_from_listings TINYINT(1) NOT NULL COMMENT 'event_details.hide_from_listings',
      MODIFY featured TINYINT(1) NOT NULL COMMENT 'event_details.featured',
      MODIFY events BIGINT NOT NULL DEFAULT 0 COMMENT 'events counted (this shard''s part)'
    ; ALTER TABLE event_duration_hours ALGORITHM=INSTANT, COMMENT 'every whole number of hours an event has lasted: bounds end-date scans',
      MODIFY hours BIGINT NOT NULL COMMENT 'FLOOR((end_utc - start_utc) / 3600) of some event'
    ; INSERT INTO schema_migrations (version) VALUES (8)
  ; END IF
; END;
CALL cal_migration_8();
DROP PROCEDURE cal_migration_8;

-- Migration 10: the change log of incremental sync (GET /changes).
INSERT IGNORE INTO schema_migrations (version) VALUES (10);

-- The search index (docs/search.md): the words of every event's title, description and excerpt
-- as stored, and which events hold each word. The service writes an event's words in the
-- transaction that writes its text; anyone else's write (the mysql client, calendarctl) is
-- marked pending by the triggers below, and searches test pending events with plain LIKE until
-- the next write through the service (or `calendarctl search-index rebuild`) indexes them.
-- Words are stored with ASCII letters in lower case (the collation's LIKE does not tell ASCII
-- cases apart) and compare byte for byte here; a search matches them with LIKE under the text's
-- collation.
CREATE TABLE IF NOT EXISTS search_words (
  id    INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY COMMENT 'the word''s number in search_postings',
  word  VARCHAR(190) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL COMMENT 'a word of an event text, ASCII letters in lower case, otherwise byte for byte',
  UNIQUE KEY search_words_word (word)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT='the search index''s vocabulary: every word of the events'' titles, descriptions and excerpts';
-- Like the link tables, postings carry copies of their event's list columns (written with them,
-- kept by the triggers on event_details below), so that a search is answered from the list
-- index without reading the events it does not show.
CREATE TABLE IF NOT EXISTS search_postings (
  word_id  INT UNSIGNED NOT NULL COMMENT 'search_words.id',
  event_id BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of an event whose text holds the word',
  status   ENUM('publish','future','draft','pending','private','trash') NOT NULL DEFAULT 'draft' COMMENT 'copy of event_details.status (written with the posting, kept by trigger)',
  hide_from_listings TINYINT(1) NOT NULL DEFAULT 0 COMMENT 'copy of event_details.hide_from_listings',
  start_utc DATETIME NOT NULL DEFAULT '1970-01-01 00:00:00' COMMENT 'copy of event_details.start_utc',
  end_utc   DATETIME NOT NULL DEFAULT '1970-01-01 00:00:00' COMMENT 'copy of event_details.end_utc',
  PRIMARY KEY (word_id, event_id),
  KEY search_postings_event (event_id),
  KEY search_postings_list (word_id, status, hide_from_listings, start_utc, event_id, end_utc) COMMENT 'a word''s events of one status in list order',
  CONSTRAINT search_postings_event_fk FOREIGN KEY (event_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT='the search index: which events hold each word';
-- unindexable = 1: the text has a word longer than search_words.word holds; such an event stays
-- here and every search tests it with LIKE.
CREATE TABLE IF NOT EXISTS search_pending (
  event_id    BIGINT UNSIGNED NOT NULL PRIMARY KEY COMMENT 'posts.id of an event whose words are not in the index',
  unindexable TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1: a word too long for search_words.word',
  CONSTRAINT search_pending_event_fk FOREIGN KEY (event_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT='events searches test with LIKE until the service indexes them';
-- A text changed by anyone marks the event pending (a new event: posts_ai below).
CREATE OR REPLACE TRIGGER posts_search_au AFTER UPDATE ON posts FOR EACH ROW BEGIN IF NEW.type = 'event' AND (NOT OLD.title <=> NEW.title OR NOT OLD.content <=> NEW.content OR NOT OLD.excerpt <=> NEW.excerpt OR OLD.type <> 'event') THEN
  INSERT INTO search_pending (event_id) VALUES (NEW.id) ON DUPLICATE KEY UPDATE unindexable = 0
  ; END IF
; END;
CREATE OR REPLACE TRIGGER event_details_search_postings_au AFTER UPDATE ON event_details FOR EACH ROW
  UPDATE search_postings SET status = NEW.status, hide_from_listings = NEW.hide_from_listings, start_utc = NEW.start_utc, end_utc = NEW.end_utc
  WHERE event_id = NEW.event_id AND (OLD.status <> NEW.status OR OLD.hide_from_listings <> NEW.hide_from_listings OR OLD.start_utc <> NEW.start_utc OR OLD.end_utc <> NEW.end_utc);
-- The work of a row inserted into posts, event_details or term_relationships: one AFTER INSERT
-- trigger per table, which tests @cal_bulk_load once. Every trigger fired costs, even one whose
-- body the variable skips, and a CALL is paid before cal_note_change() can test it: a bulk writer
-- (a series' occurrences, `calendarctl demo`) would pay that per row for nothing. In turn, posts:
-- the change log, then the search index's pending mark of an event; event_details: the change
-- log, the day counts (event_day_counts, sharded as above), the duration bound
-- (event_duration_hours), then the list columns copied to the event's links and postings written
-- before its details; term_relationships: the term's count of published events (term_counts,
-- sharded), then the change log. While @cal_bulk_load is set the writer does all of it itself
-- (store/demo_data.cpp, store/occurrence_copies.h). Databases created before have a trigger per
-- job instead, doing the same: the DROPs below remove them.
CREATE OR REPLACE TRIGGER posts_ai AFTER INSERT ON posts FOR EACH ROW BEGIN IF @cal_bulk_load IS NULL THEN
  CALL cal_note_change(NEW.type, NEW.id)
  ; IF NEW.type = 'event' THEN
    INSERT INTO search_pending (event_id) VALUES (NEW.id) ON DUPLICATE KEY UPDATE unindexable = 0
  ; END IF
  ; END IF
; END;
CREATE OR REPLACE TRIGGER event_details_ai AFTER INSERT ON event_details FOR EACH ROW BEGIN IF @cal_bulk_load IS NULL THEN
  CALL cal_note_change('event', NEW.event_id)
  ; INSERT INTO event_day_counts (status, hide_from_listings, day, featured, shard, events)
    VALUES (NEW.status, NEW.hide_from_listings, DATE(NEW.start_utc), NEW.featured, CONNECTION_ID() % 8, 1)
  ON DUPLICATE KEY UPDATE events = events + 1
  ; INSERT IGNORE INTO event_duration_hours (hours)
    VALUES (FLOOR(TIMESTAMPDIFF(SECOND, NEW.start_utc, NEW.end_utc) / 3600))
  ; UPDATE term_relationships SET status = NEW.status, hide_from_listings = NEW.hide_from_listings, start_utc = NEW.start_utc, end_utc = NEW.end_utc
  WHERE event_id = NEW.event_id
  ; UPDATE event_organizers SET status = NEW.status, hide_from_listings = NEW.hide_from_listings, start_utc = NEW.start_utc, end_utc = NEW.end_utc
  WHERE event_id = NEW.event_id
  ; UPDATE event_venues SET status = NEW.status, hide_from_listings = NEW.hide_from_listings, start_utc = NEW.start_utc, end_utc = NEW.end_utc
  WHERE event_id = NEW.event_id
  ; UPDATE search_postings SET status = NEW.status, hide_from_listings = NEW.hide_from_listings, start_utc = NEW.start_utc, end_utc = NEW.end_utc
  WHERE event_id = NEW.event_id
  ; END IF
; END;
-- term_relationships_ai: with migration 19, whose table it counts into.
DROP TRIGGER IF EXISTS posts_version_ai;
DROP TRIGGER IF EXISTS posts_search_ai;
DROP TRIGGER IF EXISTS event_details_version_ai;
DROP TRIGGER IF EXISTS event_details_days_ai;
DROP TRIGGER IF EXISTS event_details_hours_ai;
DROP TRIGGER IF EXISTS event_details_term_relationships_ai;
DROP TRIGGER IF EXISTS event_details_event_organizers_ai;
DROP TRIGGER IF EXISTS event_details_event_venues_ai;
DROP TRIGGER IF EXISTS event_details_search_postings_ai;
DROP TRIGGER IF EXISTS term_relationships_count_ai;
DROP TRIGGER IF EXISTS term_relationships_version_ai;
-- Events from before the index: pending until indexed.
INSERT IGNORE INTO search_pending (event_id)
  SELECT id FROM posts WHERE type = 'event' AND NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 11);
INSERT IGNORE INTO schema_migrations (version) VALUES (11);

-- Migration 12: what `calendarctl import-wordpress` copied from which WordPress site
-- (docs/importing-wordpress.md), so that a second run updates those records instead of adding
-- twins, and leaves alone the ones that did not change there. WordPress ids are kept where they
-- are free here; target_id says where each one went. No foreign key: one table maps posts, terms
-- and users; a target deleted here since is created again by the next run.
CREATE TABLE IF NOT EXISTS wordpress_imports (
  source       VARCHAR(191) NOT NULL COMMENT 'the WordPress site: its siteurl option (else database/prefix), a space, its tables'' prefix',
  kind         ENUM('post','term','user') NOT NULL COMMENT 'the WordPress id space: wp_posts.ID, wp_term_taxonomy.term_taxonomy_id, wp_users.ID',
  source_id    BIGINT UNSIGNED NOT NULL COMMENT 'the id in WordPress',
  target_id    BIGINT UNSIGNED NOT NULL COMMENT 'posts.id, terms.id or users.id here',
  fingerprint  BINARY(32) NOT NULL COMMENT 'SHA-256 of the record as last imported: an unchanged one is not written again',
  PRIMARY KEY (source, kind, source_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci
  COMMENT 'records imported from WordPress (calendarctl import-wordpress) and where they went';
INSERT IGNORE INTO schema_migrations (version) VALUES (12);

-- Postings per word, status, hidden flag and UTC start day: a search for one word then counts
-- its events as the event list counts all events (event_day_counts), the whole days from here
-- and only the partial days at the window's ends from the postings' list index. Kept by the
-- triggers below (sharded like event_day_counts, so concurrent writers of a common word do not
-- queue on one row); a deleted post's postings go by foreign key, which fires no trigger, so its
-- BEFORE DELETE trigger takes them out. The service's indexer (store/search_index.cpp) and the
-- demo loader count their postings in and out themselves, grouped, while @cal_bulk_load is set.
CREATE TABLE IF NOT EXISTS search_word_days (
  word_id  INT UNSIGNED NOT NULL COMMENT 'search_words.id',
  status   ENUM('publish','future','draft','pending','private','trash') NOT NULL COMMENT 'the postings'' status copy',
  hide_from_listings TINYINT(1) NOT NULL COMMENT 'the postings'' hide_from_listings copy',
  day      DATE NOT NULL COMMENT 'UTC day of the postings'' start_utc',
  shard    TINYINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'CONNECTION_ID() % 8 of the writer',
  events   BIGINT NOT NULL DEFAULT 0 COMMENT 'this shard''s part; one shard alone may be negative',
  PRIMARY KEY (word_id, status, hide_from_listings, day, shard)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT='search_postings counted per word and start day';
CREATE OR REPLACE TRIGGER search_postings_days_ai AFTER INSERT ON search_postings FOR EACH ROW BEGIN IF @cal_bulk_load IS NULL THEN
  INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events)
    VALUES (NEW.word_id, NEW.status, NEW.hide_from_listings, DATE(NEW.start_utc), CONNECTION_ID() % 8, 1)
  ON DUPLICATE KEY UPDATE events = events + 1
  ; END IF
; END;
CREATE OR REPLACE TRIGGER search_postings_days_ad AFTER DELETE ON search_postings FOR EACH ROW BEGIN IF @cal_bulk_load IS NULL THEN
  INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events)
    VALUES (OLD.word_id, OLD.status, OLD.hide_from_listings, DATE(OLD.start_utc), CONNECTION_ID() % 8, -1)
  ON DUPLICATE KEY UPDATE events = events - 1
  ; END IF
; END;
CREATE OR REPLACE TRIGGER search_postings_days_au AFTER UPDATE ON search_postings FOR EACH ROW BEGIN
  IF NOT (OLD.word_id = NEW.word_id AND OLD.status = NEW.status AND OLD.hide_from_listings = NEW.hide_from_listings AND DATE(OLD.start_utc) = DATE(NEW.start_utc)) THEN
    INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events)
      VALUES (OLD.word_id, OLD.status, OLD.hide_from_listings, DATE(OLD.start_utc), CONNECTION_ID() % 8, -1)
    ON DUPLICATE KEY UPDATE events = events - 1
    ; INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events)
      VALUES (NEW.word_id, NEW.status, NEW.hide_from_listings, DATE(NEW.start_utc), CONNECTION_ID() % 8, 1)
    ON DUPLICATE KEY UPDATE events = events + 1
  ; END IF
; END;
CREATE OR REPLACE TRIGGER posts_search_days_bd BEFORE DELETE ON posts FOR EACH ROW
  INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events)
    SELECT sp.word_id, sp.status, sp.hide_from_listings, DATE(sp.start_utc), CONNECTION_ID() % 8, -1
    FROM search_postings sp WHERE sp.event_id = OLD.id
  ON DUPLICATE KEY UPDATE events = events - 1;
-- Migration 13, once: the counts of the postings already there.
DELETE FROM search_word_days WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 13);
INSERT INTO search_word_days (word_id, status, hide_from_listings, day, shard, events)
  SELECT word_id, status, hide_from_listings, DATE(start_utc), 0, COUNT(*) FROM search_postings
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 13)
  GROUP BY word_id, status, hide_from_listings, DATE(start_utc);
INSERT IGNORE INTO schema_migrations (version) VALUES (13);

-- Migration 14: recurring events (docs/recurring-events.md). A series is the record a client
-- wrote with `recurrence` lines; its occurrences are ordinary event posts (posts.parent = the
-- series), so every list, count, filter and search serves them unchanged. The series itself is a
-- post of type 'series' whose event fields wait in event_series and whose links wait in
-- series_links: no list reads either table. Appending to an ENUM changes only the table's metadata.
SET @cal_v14 = IF(EXISTS (SELECT 1 FROM schema_migrations WHERE version = 14), 'DO 0',
  'ALTER TABLE posts MODIFY type ENUM(''event'',''venue'',''organizer'',''attachment'',''series'') NOT NULL COMMENT ''what the record is; series: a recurring event''''s rule and fields, its occurrences are events''');
PREPARE cal_v14 FROM @cal_v14;
EXECUTE cal_v14;
DEALLOCATE PREPARE cal_v14;
CREATE TABLE IF NOT EXISTS event_series (
  series_id    BIGINT UNSIGNED NOT NULL PRIMARY KEY COMMENT 'posts.id of the series (type series)',
  start_local  DATETIME NOT NULL COMMENT 'first occurrence (DTSTART), wall clock in the series zone',
  end_local    DATETIME NOT NULL COMMENT 'end of the first occurrence (DTEND), wall clock',
  start_utc    DATETIME NOT NULL COMMENT 'first occurrence, UTC',
  end_utc      DATETIME NOT NULL COMMENT 'end of the first occurrence, UTC',
  timezone     VARCHAR(64) NOT NULL COMMENT 'IANA id or UTC+H[:MM]: the zone the rule is expanded in',
  all_day      TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1 = all-day occurrences',
  cost         VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'cost text as entered, copied to each occurrence',
  website      VARCHAR(2048) NOT NULL DEFAULT '' COMMENT 'website URL, copied to each occurrence',
  show_map     TINYINT(1) NOT NULL DEFAULT 1 COMMENT 'copied to each occurrence',
  show_map_link TINYINT(1) NOT NULL DEFAULT 1 COMMENT 'copied to each occurrence',
  hide_from_listings TINYINT(1) NOT NULL DEFAULT 0 COMMENT 'copied to each occurrence',
  sticky       TINYINT(1) NOT NULL DEFAULT 0 COMMENT 'copied to each occurrence',
  featured     TINYINT(1) NOT NULL DEFAULT 0 COMMENT 'copied to each occurrence',
  recurrence   TEXT NOT NULL COMMENT 'RRULE, RDATE and EXDATE lines in normal form, one per line',
  is_infinite  TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1 = a rule without COUNT or UNTIL, materialised to horizon_utc',
  horizon_utc  DATETIME NOT NULL COMMENT 'occurrences starting before this instant are materialised',
  CONSTRAINT event_series_post_fk FOREIGN KEY (series_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci
  COMMENT 'one row per recurring series: the event fields and rule its occurrences are made from';
-- No foreign key to the target: it is a venue or organizer post or a term. Targets deleted since
-- are skipped when the links are copied (store/event_series.cpp).
CREATE TABLE IF NOT EXISTS series_links (
  series_id    BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the series',
  kind         ENUM('venue','organizer','term') NOT NULL COMMENT 'which link table the link is copied to',
  target_id    BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of the venue or organizer, or terms.id',
  position     SMALLINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'organizer order as given by the client',
  PRIMARY KEY (series_id, kind, target_id),
  CONSTRAINT series_links_series_fk FOREIGN KEY (series_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci
  COMMENT 'the venue, organizers and terms of each series, copied to its occurrences';
-- An occurrence's identity is (series, the wall clock the rule named, its instant): a DST repeat
-- names one wall clock at two instants. Re-materialising a rule keeps the rows (and so the post
-- ids) of the identities it still produces.
CREATE TABLE IF NOT EXISTS event_occurrences (
  event_id     BIGINT UNSIGNED NOT NULL PRIMARY KEY COMMENT 'posts.id of the occurrence (an event)',
  series_id    BIGINT UNSIGNED NOT NULL COMMENT 'posts.id of its series',
  original_local DATETIME NOT NULL COMMENT 'the wall clock the rule or RDATE named (RECURRENCE-ID), series zone',
  original_utc DATETIME NOT NULL COMMENT 'the instant it resolved to, UTC',
  is_exception TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1 = edited on its own (scope=this): series edits leave it alone',
  UNIQUE KEY event_occurrences_identity (series_id, original_local, original_utc),
  KEY event_occurrences_series_utc (series_id, original_utc),
  CONSTRAINT event_occurrences_event_fk FOREIGN KEY (event_id) REFERENCES posts (id) ON DELETE CASCADE,
  CONSTRAINT event_occurrences_series_fk FOREIGN KEY (series_id) REFERENCES posts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci
  COMMENT 'occurrences of recurring series: which event post is which occurrence';
INSERT IGNORE INTO schema_migrations (version) VALUES (14);

-- Views for people reading the data with the `mysql` client (docs/mysql.md), after every table
-- they read (migration 14's too). Re-created on every start (CREATE OR REPLACE), so every database has the current ones. They show what the API shows for the same records (tests/integration/
-- sql_views_test.cpp compares them): `status` as the API reads it (a scheduled event whose date
-- has passed is 'publish'); lists as comma-separated names in the API's order (organizers as
-- linked, categories and tags by name); NULL where the API has no venue or an empty list; a
-- count is the published events (the same status rule) linked, like a term's `count`.
-- MERGE: a query on a view is run on the tables with their indexes (`WHERE start_utc >= ...` is
-- a range of event_details), nothing is materialized. SQL SECURITY INVOKER: a reader needs
-- SELECT on the tables, a view gives no access of its own. FORCE INDEX (PRIMARY) on the linked
-- posts and terms: each is looked up by id; after a bulk load the optimizer read all venues of a
-- `type = 'venue'` range per event instead, many times slower. They are for reading: INSERT and DELETE through them are
-- refused (they join tables), and so is an UPDATE of status, a list or a count; changes go
-- through the API, which checks them.
CREATE OR REPLACE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW calendar_events AS
  SELECT p.id, p.title, p.slug,
    IF(p.status = 'future' AND p.date_utc <= UTC_TIMESTAMP(), 'publish', p.status) AS status,
    d.start_local, d.end_local, d.timezone, d.start_utc, d.end_utc, d.all_day,
    v.title AS venue, IF(v.id IS NULL, NULL, IFNULL(vd.city, '')) AS city,
    IF(v.id IS NULL, NULL, IFNULL(vd.country, '')) AS country,
    (SELECT GROUP_CONCAT(o.title ORDER BY eo.position, eo.organizer_id SEPARATOR ', ') FROM event_organizers eo
      JOIN posts o FORCE INDEX (PRIMARY) ON o.id = eo.organizer_id AND o.type = 'organizer' WHERE eo.event_id = p.id) AS organizers,
    (SELECT GROUP_CONCAT(t.name ORDER BY t.name_lower, t.id SEPARATOR ', ') FROM term_relationships r
      JOIN terms t FORCE INDEX (PRIMARY) ON t.id = r.term_id AND t.taxonomy = 'cal_events_cat' WHERE r.event_id = p.id) AS categories,
    (SELECT GROUP_CONCAT(t.name ORDER BY t.name_lower, t.id SEPARATOR ', ') FROM term_relationships r
      JOIN terms t FORCE INDEX (PRIMARY) ON t.id = r.term_id AND t.taxonomy = 'post_tag' WHERE r.event_id = p.id) AS tags,
    d.cost, d.featured, p.modified_utc, oc.series_id
  FROM posts p JOIN event_details d ON d.event_id = p.id
    LEFT JOIN event_occurrences oc ON oc.event_id = p.id
    LEFT JOIN event_venues ev ON ev.event_id = p.id
    LEFT JOIN posts v FORCE INDEX (PRIMARY) ON v.id = ev.venue_id AND v.type = 'venue'
    LEFT JOIN venue_details vd ON vd.venue_id = v.id
  WHERE p.type = 'event';
-- Published events that have not ended (end after now, UTC), hidden ones included, in the API's
-- list order.
CREATE OR REPLACE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW calendar_upcoming AS
  SELECT * FROM calendar_events e
  WHERE e.status = 'publish' AND e.end_utc > UTC_TIMESTAMP()
  ORDER BY e.start_utc, e.id;
CREATE OR REPLACE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW calendar_venues AS
  SELECT p.id, p.title AS venue, p.slug,
    IF(p.status = 'future' AND p.date_utc <= UTC_TIMESTAMP(), 'publish', p.status) AS status,
    IFNULL(d.address, '') AS address, IFNULL(d.city, '') AS city, IFNULL(d.country, '') AS country,
    IFNULL(d.province, '') AS province, IFNULL(d.state, '') AS state, IFNULL(d.zip, '') AS zip,
    IFNULL(d.phone, '') AS phone, IFNULL(d.website, '') AS website, d.geo_lat, d.geo_lng,
    (SELECT COUNT(*) FROM event_venues ev STRAIGHT_JOIN posts e FORCE INDEX (PRIMARY) ON e.id = ev.event_id AND e.type = 'event'
      WHERE ev.venue_id = p.id
        AND (e.status = 'publish' OR (e.status = 'future' AND e.date_utc <= UTC_TIMESTAMP()))) AS events,
    p.modified_utc
  FROM posts p LEFT JOIN venue_details d ON d.venue_id = p.id
  WHERE p.type = 'venue';
CREATE OR REPLACE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW calendar_organizers AS
  SELECT p.id, p.title AS organizer, p.slug,
    IF(p.status = 'future' AND p.date_utc <= UTC_TIMESTAMP(), 'publish', p.status) AS status,
    IFNULL(d.phone, '') AS phone, IFNULL(d.website, '') AS website, IFNULL(d.email, '') AS email,
    (SELECT COUNT(*) FROM event_organizers eo STRAIGHT_JOIN posts e FORCE INDEX (PRIMARY) ON e.id = eo.event_id AND e.type = 'event'
      WHERE eo.organizer_id = p.id
        AND (e.status = 'publish' OR (e.status = 'future' AND e.date_utc <= UTC_TIMESTAMP()))) AS events,
    p.modified_utc
  FROM posts p LEFT JOIN organizer_details d ON d.organizer_id = p.id
  WHERE p.type = 'organizer';
-- Counts are computed from the links, not read from term_counts: the views show the tables as
-- they are (the test compares them with the API's count, which term_counts keeps). STRAIGHT_JOIN:
-- a count reads the record's own links and looks each event up by id, never all events per
-- record (which the optimizer chose for terms after a bulk load, before statistics caught up).
CREATE OR REPLACE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW calendar_terms AS
  SELECT t.id, t.taxonomy, t.name, t.slug, pt.name AS parent, t.description,
    (SELECT COUNT(*) FROM term_relationships r STRAIGHT_JOIN posts e FORCE INDEX (PRIMARY) ON e.id = r.event_id AND e.type = 'event'
      WHERE r.term_id = t.id
        AND (e.status = 'publish' OR (e.status = 'future' AND e.date_utc <= UTC_TIMESTAMP()))) AS count
  FROM terms t LEFT JOIN terms pt ON pt.id = t.parent AND t.parent <> 0;
-- Recurring events (migration 15, docs/recurring-events.md). A view's columns cannot carry a
-- COMMENT; docs/mysql.md describes each. calendar_occurrences: one row per occurrence of a series
-- (an occurrence is also a row of calendar_events, with its series_id): series_id and id (the
-- occurrence's event id), its title, slug and status (the API's rule), original_start_local and
-- original_start_utc (the start the rule named, RFC 5545's RECURRENCE-ID, in the series zone and
-- in UTC), its times as they are now (moved when edited alone), is_exception (1: edited alone,
-- series edits leave it alone), its venue and modified_utc. A cancelled occurrence has no row (its
-- date is an EXDATE of the series' recurrence).
CREATE OR REPLACE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW calendar_occurrences AS
  SELECT o.series_id, p.id, p.title, p.slug,
    IF(p.status = 'future' AND p.date_utc <= UTC_TIMESTAMP(), 'publish', p.status) AS status,
    o.original_local AS original_start_local, o.original_utc AS original_start_utc,
    d.start_local, d.end_local, d.timezone, d.start_utc, d.end_utc, d.all_day, o.is_exception,
    v.title AS venue, p.modified_utc
  FROM event_occurrences o JOIN posts p FORCE INDEX (PRIMARY) ON p.id = o.event_id AND p.type = 'event'
    JOIN event_details d ON d.event_id = o.event_id
    LEFT JOIN event_venues ev ON ev.event_id = o.event_id
    LEFT JOIN posts v FORCE INDEX (PRIMARY) ON v.id = ev.venue_id AND v.type = 'venue';
-- calendar_series: one row per series, as GET /events/{series id} shows it: its title, slug and
-- status, the first occurrence's times (DTSTART and DTEND) and zone, its recurrence lines in normal
-- form (one per line), is_infinite (1: no COUNT or UNTIL, materialised up to horizon_utc), how many
-- occurrences and exceptions it has now, its venue, cost and modified_utc.
CREATE OR REPLACE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW calendar_series AS
  SELECT p.id, p.title, p.slug,
    IF(p.status = 'future' AND p.date_utc <= UTC_TIMESTAMP(), 'publish', p.status) AS status,
    s.start_local, s.end_local, s.timezone, s.start_utc, s.end_utc, s.all_day, s.recurrence,
    s.is_infinite, s.horizon_utc,
    (SELECT COUNT(*) FROM event_occurrences o WHERE o.series_id = p.id) AS occurrences,
    (SELECT COUNT(*) FROM event_occurrences o WHERE o.series_id = p.id AND o.is_exception = 1) AS exceptions,
    (SELECT v.title FROM series_links l JOIN posts v FORCE INDEX (PRIMARY) ON v.id = l.target_id AND v.type = 'venue'
      WHERE l.series_id = p.id AND l.kind = 'venue' LIMIT 1) AS venue,
    s.cost, p.modified_utc
  FROM posts p JOIN event_series s ON s.series_id = p.id
  WHERE p.type = 'series';

-- Migration 15: series in the change log (data_changes.kind 'series', above) and the views
-- calendar_occurrences and calendar_series (docs/mysql.md).
INSERT IGNORE INTO schema_migrations (version) VALUES (15);

-- Migration 16: a list or occurrences query whose window passes the horizon of infinite series
-- extends them first (docs/recurring-events.md); this index finds them, usually none, by range.
ALTER TABLE event_series ADD INDEX IF NOT EXISTS event_series_horizon (is_infinite, horizon_utc) COMMENT 'infinite series by how far they are materialised';
INSERT IGNORE INTO schema_migrations (version) VALUES (16);

-- Migration 17: events per (status, hidden, UTC month of start, featured), the day counts above
-- summed by month, so that a window's count reads a row per whole month and a row per day only
-- for the part-months at its ends (store/event_count_plan.h): the default two-year window of
-- GET /events summed about 3,000 day rows, a third of a request's time without the cache. Kept
-- by triggers on event_day_counts itself, so every writer of the day counts (the triggers above,
-- a series' occurrences, `calendarctl demo`, the WordPress import, a write by hand) keeps the
-- months too; never skipped during a bulk load, whose writers write the day counts themselves,
-- but by a writer that adds the months set-wise as well (@cal_months_set_wise, migration 21).
-- Sharded as the day rows are (a month row takes its day row's shard).
CREATE TABLE IF NOT EXISTS event_month_counts (
  status       ENUM('publish','future','draft','pending','private','trash') NOT NULL COMMENT 'event_details.status',
  hide_from_listings TINYINT(1) NOT NULL COMMENT 'event_details.hide_from_listings',
  month        DATE NOT NULL COMMENT 'first day of the UTC month of start_utc',
  featured     TINYINT(1) NOT NULL COMMENT 'event_details.featured',
  shard        TINYINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'the shard of the event_day_counts rows summed',
  events       BIGINT NOT NULL DEFAULT 0 COMMENT 'events counted (this shard''s part)',
  PRIMARY KEY (status, hide_from_listings, month, featured, shard)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci
  COMMENT 'event_day_counts summed per UTC month (kept by its triggers); for list counts over whole months';
CREATE OR REPLACE TRIGGER event_day_counts_months_ai AFTER INSERT ON event_day_counts FOR EACH ROW BEGIN
  IF @cal_months_set_wise IS NULL THEN
    INSERT INTO event_month_counts (status, hide_from_listings, month, featured, shard, events)
      VALUES (NEW.status, NEW.hide_from_listings, NEW.day - INTERVAL DAYOFMONTH(NEW.day) - 1 DAY, NEW.featured, NEW.shard, NEW.events)
    ON DUPLICATE KEY UPDATE events = events + NEW.events
  ; END IF
; END;
CREATE OR REPLACE TRIGGER event_day_counts_months_au AFTER UPDATE ON event_day_counts FOR EACH ROW BEGIN
  IF @cal_months_set_wise IS NULL AND OLD.status = NEW.status AND OLD.hide_from_listings = NEW.hide_from_listings AND OLD.featured = NEW.featured
     AND OLD.shard = NEW.shard AND OLD.day - INTERVAL DAYOFMONTH(OLD.day) - 1 DAY = NEW.day - INTERVAL DAYOFMONTH(NEW.day) - 1 DAY THEN
    UPDATE event_month_counts SET events = events + NEW.events - OLD.events
    WHERE status = NEW.status AND hide_from_listings = NEW.hide_from_listings AND month = NEW.day - INTERVAL DAYOFMONTH(NEW.day) - 1 DAY
      AND featured = NEW.featured AND shard = NEW.shard AND NEW.events <> OLD.events
  ; ELSEIF @cal_months_set_wise IS NULL THEN
    INSERT INTO event_month_counts (status, hide_from_listings, month, featured, shard, events)
      VALUES (OLD.status, OLD.hide_from_listings, OLD.day - INTERVAL DAYOFMONTH(OLD.day) - 1 DAY, OLD.featured, OLD.shard, -OLD.events)
    ON DUPLICATE KEY UPDATE events = events - OLD.events
  ; INSERT INTO event_month_counts (status, hide_from_listings, month, featured, shard, events)
      VALUES (NEW.status, NEW.hide_from_listings, NEW.day - INTERVAL DAYOFMONTH(NEW.day) - 1 DAY, NEW.featured, NEW.shard, NEW.events)
    ON DUPLICATE KEY UPDATE events = events + NEW.events
  ; END IF
; END;
CREATE OR REPLACE TRIGGER event_day_counts_months_ad AFTER DELETE ON event_day_counts FOR EACH ROW
  INSERT INTO event_month_counts (status, hide_from_listings, month, featured, shard, events)
    VALUES (OLD.status, OLD.hide_from_listings, OLD.day - INTERVAL DAYOFMONTH(OLD.day) - 1 DAY, OLD.featured, OLD.shard, -OLD.events)
  ON DUPLICATE KEY UPDATE events = events - OLD.events;
-- Once: the months of the day counts already there (a database from before this migration; the
-- triggers above keep them from here on). Emptied first, so an interrupted run starts over.
DELETE FROM event_month_counts WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 17);
INSERT INTO event_month_counts (status, hide_from_listings, month, featured, shard, events)
  SELECT status, hide_from_listings, day - INTERVAL DAYOFMONTH(day) - 1 DAY, featured, shard, SUM(events) FROM event_day_counts
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 17)
  GROUP BY status, hide_from_listings, day - INTERVAL DAYOFMONTH(day) - 1 DAY, featured, shard;
INSERT IGNORE INTO schema_migrations (version) VALUES (17);

-- Migration 18: events per (status, hidden, UTC day of end_utc, featured) and per month of it, the
-- end-side twins of event_day_counts and event_month_counts. A window bounded by a least start
-- and a latest end (the default list, start_date with end_date) is then counted as two one-sided
-- counts from rollups (store/event_count_plan.h): the events starting in it or later, less those
-- ending after it. Counted from the start rollups alone, the events ending after the window had to
-- be read from the index for as far back as the longest event ever stored lasts: one exhibition of
-- a year, and every such count read a year of events. Kept like the start side: triggers on
-- event_details (and posts' BEFORE DELETE for the cascade), the writers that write the start
-- rollups set-wise (store/day_counts.cpp) write these too, and triggers on the day rows keep the
-- months. Sharded as the start rows are.
CREATE TABLE IF NOT EXISTS event_end_day_counts (
  status       ENUM('publish','future','draft','pending','private','trash') NOT NULL COMMENT 'event_details.status',
  hide_from_listings TINYINT(1) NOT NULL COMMENT 'event_details.hide_from_listings',
  day          DATE NOT NULL COMMENT 'UTC day of end_utc',
  featured     TINYINT(1) NOT NULL COMMENT 'event_details.featured',
  shard        TINYINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'CONNECTION_ID() % 8 of the writer',
  events       BIGINT NOT NULL DEFAULT 0 COMMENT 'events counted (this shard''s part; may be negative)',
  PRIMARY KEY (status, hide_from_listings, day, featured, shard)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci
  COMMENT 'events per status, hidden flag, UTC end day and featured flag, split over shards (kept by triggers)';
CREATE TABLE IF NOT EXISTS event_end_month_counts (
  status       ENUM('publish','future','draft','pending','private','trash') NOT NULL COMMENT 'event_details.status',
  hide_from_listings TINYINT(1) NOT NULL COMMENT 'event_details.hide_from_listings',
  month        DATE NOT NULL COMMENT 'first day of the UTC month of end_utc',
  featured     TINYINT(1) NOT NULL COMMENT 'event_details.featured',
  shard        TINYINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'the shard of the event_end_day_counts rows summed',
  events       BIGINT NOT NULL DEFAULT 0 COMMENT 'events counted (this shard''s part)',
  PRIMARY KEY (status, hide_from_listings, month, featured, shard)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci
  COMMENT 'event_end_day_counts summed per UTC month (kept by its triggers); for list counts over whole months';
-- The part-day after a window's latest end, counted from the index like the start side's.
ALTER TABLE event_details ADD INDEX IF NOT EXISTS event_details_status_end (status, hide_from_listings, end_utc, featured)
  COMMENT 'one status by end: the part-days of end-side counts';
CREATE OR REPLACE TRIGGER event_details_end_days_ai AFTER INSERT ON event_details FOR EACH ROW
  INSERT INTO event_end_day_counts (status, hide_from_listings, day, featured, shard, events)
    SELECT NEW.status, NEW.hide_from_listings, DATE(NEW.end_utc), NEW.featured, CONNECTION_ID() % 8, 1 FROM DUAL
    WHERE @cal_bulk_load IS NULL
  ON DUPLICATE KEY UPDATE events = events + 1;
CREATE OR REPLACE TRIGGER event_details_end_days_au_old AFTER UPDATE ON event_details FOR EACH ROW
  INSERT INTO event_end_day_counts (status, hide_from_listings, day, featured, shard, events)
    SELECT OLD.status, OLD.hide_from_listings, DATE(OLD.end_utc), OLD.featured, CONNECTION_ID() % 8, -1 FROM DUAL
    WHERE OLD.status <> NEW.status OR OLD.hide_from_listings <> NEW.hide_from_listings OR DATE(OLD.end_utc) <> DATE(NEW.end_utc) OR OLD.featured <> NEW.featured
  ON DUPLICATE KEY UPDATE events = events - 1;
CREATE OR REPLACE TRIGGER event_details_end_days_au_new AFTER UPDATE ON event_details FOR EACH ROW
  INSERT INTO event_end_day_counts (status, hide_from_listings, day, featured, shard, events)
    SELECT NEW.status, NEW.hide_from_listings, DATE(NEW.end_utc), NEW.featured, CONNECTION_ID() % 8, 1 FROM DUAL
    WHERE OLD.status <> NEW.status OR OLD.hide_from_listings <> NEW.hide_from_listings OR DATE(OLD.end_utc) <> DATE(NEW.end_utc) OR OLD.featured <> NEW.featured
  ON DUPLICATE KEY UPDATE events = events + 1;
CREATE OR REPLACE TRIGGER event_details_end_days_ad AFTER DELETE ON event_details FOR EACH ROW
  INSERT INTO event_end_day_counts (status, hide_from_listings, day, featured, shard, events)
    VALUES (OLD.status, OLD.hide_from_listings, DATE(OLD.end_utc), OLD.featured, CONNECTION_ID() % 8, -1)
  ON DUPLICATE KEY UPDATE events = events - 1;
CREATE OR REPLACE TRIGGER posts_end_days_bd BEFORE DELETE ON posts FOR EACH ROW
  INSERT INTO event_end_day_counts (status, hide_from_listings, day, featured, shard, events)
    SELECT d.status, d.hide_from_listings, DATE(d.end_utc), d.featured, CONNECTION_ID() % 8, -1 FROM event_details d
    WHERE d.event_id = OLD.id
  ON DUPLICATE KEY UPDATE events = events - 1;
CREATE OR REPLACE TRIGGER event_end_day_counts_months_ai AFTER INSERT ON event_end_day_counts FOR EACH ROW BEGIN
  IF @cal_months_set_wise IS NULL THEN
    INSERT INTO event_end_month_counts (status, hide_from_listings, month, featured, shard, events)
      VALUES (NEW.status, NEW.hide_from_listings, NEW.day - INTERVAL DAYOFMONTH(NEW.day) - 1 DAY, NEW.featured, NEW.shard, NEW.events)
    ON DUPLICATE KEY UPDATE events = events + NEW.events
  ; END IF
; END;
CREATE OR REPLACE TRIGGER event_end_day_counts_months_au AFTER UPDATE ON event_end_day_counts FOR EACH ROW BEGIN
  IF @cal_months_set_wise IS NULL AND OLD.status = NEW.status AND OLD.hide_from_listings = NEW.hide_from_listings AND OLD.featured = NEW.featured
     AND OLD.shard = NEW.shard AND OLD.day - INTERVAL DAYOFMONTH(OLD.day) - 1 DAY = NEW.day - INTERVAL DAYOFMONTH(NEW.day) - 1 DAY THEN
    UPDATE event_end_month_counts SET events = events + NEW.events - OLD.events
    WHERE status = NEW.status AND hide_from_listings = NEW.hide_from_listings AND month = NEW.day - INTERVAL DAYOFMONTH(NEW.day) - 1 DAY
      AND featured = NEW.featured AND shard = NEW.shard AND NEW.events <> OLD.events
  ; ELSEIF @cal_months_set_wise IS NULL THEN
    INSERT INTO event_end_month_counts (status, hide_from_listings, month, featured, shard, events)
      VALUES (OLD.status, OLD.hide_from_listings, OLD.day - INTERVAL DAYOFMONTH(OLD.day) - 1 DAY, OLD.featured, OLD.shard, -OLD.events)
    ON DUPLICATE KEY UPDATE events = events - OLD.events
  ; INSERT INTO event_end_month_counts (status, hide_from_listings, month, featured, shard, events)
      VALUES (NEW.status, NEW.hide_from_listings, NEW.day - INTERVAL DAYOFMONTH(NEW.day) - 1 DAY, NEW.featured, NEW.shard, NEW.events)
    ON DUPLICATE KEY UPDATE events = events + NEW.events
  ; END IF
; END;
CREATE OR REPLACE TRIGGER event_end_day_counts_months_ad AFTER DELETE ON event_end_day_counts FOR EACH ROW
  INSERT INTO event_end_month_counts (status, hide_from_listings, month, featured, shard, events)
    VALUES (OLD.status, OLD.hide_from_listings, OLD.day - INTERVAL DAYOFMONTH(OLD.day) - 1 DAY, OLD.featured, OLD.shard, -OLD.events)
  ON DUPLICATE KEY UPDATE events = events - OLD.events;
-- Once: the end days and months of the events already there (emptied first, so an interrupted
-- run starts over); the triggers above keep them from here on.
DELETE FROM event_end_day_counts WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 18);
DELETE FROM event_end_month_counts WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 18);
INSERT INTO event_end_day_counts (status, hide_from_listings, day, featured, shard, events)
  SELECT status, hide_from_listings, DATE(end_utc), featured, 0, COUNT(*) FROM event_details
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 18)
  GROUP BY status, hide_from_listings, DATE(end_utc), featured;
INSERT IGNORE INTO schema_migrations (version) VALUES (18);

-- Migration 19: a term's events per (status, hidden, UTC day of start_utc), as search_word_days
-- counts a word's postings. A list of one category or tag with no other filter (a site's most
-- common query after the plain list) then counts its window as the plain list does, from whole
-- days plus the partial days at its ends from term_relationships_list, not one index row per
-- event: at a million events the most used category's count read about 100,000 of them. Kept by
-- triggers on the links (whose copies of status, hidden flag and start they count) and posts'
-- BEFORE DELETE for the cascade; the writers that write links while @cal_bulk_load is set count
-- their rows in set-wise (store/day_counts.cpp). Sharded as the other rollups are.
CREATE TABLE IF NOT EXISTS term_day_counts (
  term_id  BIGINT UNSIGNED NOT NULL COMMENT 'terms.id',
  status   ENUM('publish','future','draft','pending','private','trash') NOT NULL COMMENT 'the links'' status copy',
  hide_from_listings TINYINT(1) NOT NULL COMMENT 'the links'' hide_from_listings copy',
  day      DATE NOT NULL COMMENT 'UTC day of the links'' start_utc',
  shard    TINYINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'CONNECTION_ID() % 8 of the writer',
  events   BIGINT NOT NULL DEFAULT 0 COMMENT 'this shard''s part; one shard alone may be negative',
  PRIMARY KEY (term_id, status, hide_from_listings, day, shard)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT='term_relationships counted per term and start day';
CREATE OR REPLACE TRIGGER term_relationships_ai AFTER INSERT ON term_relationships FOR EACH ROW BEGIN IF @cal_bulk_load IS NULL THEN
  INSERT INTO term_counts (term_id, shard, published)
    SELECT NEW.term_id, CONNECTION_ID() % 8, 1 FROM posts p
    WHERE p.id = NEW.event_id AND p.type = 'event' AND p.status = 'publish'
  ON DUPLICATE KEY UPDATE published = published + 1
  ; INSERT INTO term_day_counts (term_id, status, hide_from_listings, day, shard, events)
    VALUES (NEW.term_id, NEW.status, NEW.hide_from_listings, DATE(NEW.start_utc), CONNECTION_ID() % 8, 1)
  ON DUPLICATE KEY UPDATE events = events + 1
  ; CALL cal_note_change('event', NEW.event_id)
  ; END IF
; END;
CREATE OR REPLACE TRIGGER term_relationships_days_ad AFTER DELETE ON term_relationships FOR EACH ROW
  INSERT INTO term_day_counts (term_id, status, hide_from_listings, day, shard, events)
    VALUES (OLD.term_id, OLD.status, OLD.hide_from_listings, DATE(OLD.start_utc), CONNECTION_ID() % 8, -1)
  ON DUPLICATE KEY UPDATE events = events - 1;
CREATE OR REPLACE TRIGGER term_relationships_days_au AFTER UPDATE ON term_relationships FOR EACH ROW BEGIN
  IF NOT (OLD.term_id = NEW.term_id AND OLD.status = NEW.status AND OLD.hide_from_listings = NEW.hide_from_listings AND DATE(OLD.start_utc) = DATE(NEW.start_utc)) THEN
    INSERT INTO term_day_counts (term_id, status, hide_from_listings, day, shard, events)
      VALUES (OLD.term_id, OLD.status, OLD.hide_from_listings, DATE(OLD.start_utc), CONNECTION_ID() % 8, -1)
    ON DUPLICATE KEY UPDATE events = events - 1
    ; INSERT INTO term_day_counts (term_id, status, hide_from_listings, day, shard, events)
      VALUES (NEW.term_id, NEW.status, NEW.hide_from_listings, DATE(NEW.start_utc), CONNECTION_ID() % 8, 1)
    ON DUPLICATE KEY UPDATE events = events + 1
  ; END IF
; END;
CREATE OR REPLACE TRIGGER posts_term_days_bd BEFORE DELETE ON posts FOR EACH ROW
  INSERT INTO term_day_counts (term_id, status, hide_from_listings, day, shard, events)
    SELECT r.term_id, r.status, r.hide_from_listings, DATE(r.start_utc), CONNECTION_ID() % 8, -1
    FROM term_relationships r WHERE r.event_id = OLD.id
  ON DUPLICATE KEY UPDATE events = events - 1;
-- Once: the counts of the links already there (emptied first, so an interrupted run starts over).
DELETE FROM term_day_counts WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 19);
INSERT INTO term_day_counts (term_id, status, hide_from_listings, day, shard, events)
  SELECT term_id, status, hide_from_listings, DATE(start_utc), 0, COUNT(*) FROM term_relationships
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 19)
  GROUP BY term_id, status, hide_from_listings, DATE(start_utc);
INSERT IGNORE INTO schema_migrations (version) VALUES (19);

-- Migration 20: the vocabulary's writes counted, so that a process may remember which index words
-- hold a search's piece and look only at the words added since (store/piece_words.h): finding
-- them is a LIKE over every word, about 0.35 µs a word, tens of milliseconds at a large site's
-- vocabulary. A remembered answer stands while the writes counted since are exactly the words with
-- larger ids; anything else (a word that took its id earlier and committed later, one changed or
-- deleted by hand) sends the piece back to the scan. Sharded as the rollups are, so concurrent
-- indexers do not queue on one row.
CREATE TABLE IF NOT EXISTS search_word_writes (
  shard  TINYINT UNSIGNED NOT NULL PRIMARY KEY COMMENT 'CONNECTION_ID() % 8 of the writer',
  writes BIGINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'rows of search_words inserted, changed or deleted on this shard'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT='search_words written, counted';
CREATE OR REPLACE TRIGGER search_words_writes_ai AFTER INSERT ON search_words FOR EACH ROW
  INSERT INTO search_word_writes (shard, writes) VALUES (CONNECTION_ID() % 8, 1) ON DUPLICATE KEY UPDATE writes = writes + 1;
CREATE OR REPLACE TRIGGER search_words_writes_au AFTER UPDATE ON search_words FOR EACH ROW
  INSERT INTO search_word_writes (shard, writes) VALUES (CONNECTION_ID() % 8, 1) ON DUPLICATE KEY UPDATE writes = writes + 1;
CREATE OR REPLACE TRIGGER search_words_writes_ad AFTER DELETE ON search_words FOR EACH ROW
  INSERT INTO search_word_writes (shard, writes) VALUES (CONNECTION_ID() % 8, 1) ON DUPLICATE KEY UPDATE writes = writes + 1;
INSERT IGNORE INTO schema_migrations (version) VALUES (20);

-- Migration 21: the month rollups of the day counts written set-wise (store/day_counts.cpp) are
-- written set-wise too. Every day row a set-wise writer inserts or adds to fired a month trigger,
-- one statement per day: a weekly series of ten years is 520 days, and its month rows were a
-- tenth of the write's time (docs/recurring-events.md, "Speed"). While @cal_months_set_wise is set
-- the insert and update triggers of the day tables (migrations 17 and 18, above) leave the months
-- to the writer, which adds its day counts summed per month in one statement; every other writer
-- is counted as before.
INSERT IGNORE INTO schema_migrations (version) VALUES (21);

-- Migration 22: the vocabulary's trigrams, so that a search finds the index words holding a piece
-- of three or more characters without a LIKE over every word (0.2–0.35 µs a word: 45 ms at a
-- vocabulary of 200,000 words, for every piece not searched lately). The collation's LIKE compares
-- a word with the piece character by character, each pair by its weights, so a word holding the
-- piece holds, at the same places, three-character runs whose characters weigh as the piece's
-- runs do. A run is keyed by its characters' weights (CRC32: a collision only adds a candidate,
-- which the LIKE that confirms every candidate removes); a piece's candidates are the words of
-- whichever of its keys the fewest words hold (store/search_index.cpp). Kept by triggers whoever
-- writes the vocabulary; calendarctl search-index rebuild writes them again.
CREATE FUNCTION IF NOT EXISTS cal_trigram(word VARCHAR(190) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci, first INT)
  RETURNS INT UNSIGNED DETERMINISTIC NO SQL COMMENT 'the key of the three characters of word from first (1-based): their weights under the search collation, hashed'
  RETURN CRC32(CONCAT(WEIGHT_STRING(SUBSTRING(word, first, 1)), WEIGHT_STRING(SUBSTRING(word, first + 1, 1)), WEIGHT_STRING(SUBSTRING(word, first + 2, 1))));
CREATE TABLE IF NOT EXISTS search_word_trigrams (
  trigram INT UNSIGNED NOT NULL COMMENT 'cal_trigram() of three characters of the word',
  word_id INT UNSIGNED NOT NULL COMMENT 'search_words.id',
  PRIMARY KEY (trigram, word_id),
  KEY search_word_trigrams_word (word_id) COMMENT 'a word''s keys, for its update or delete'
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT='the vocabulary''s three-character runs: which words hold each';
CREATE OR REPLACE TRIGGER search_words_trigrams_ai AFTER INSERT ON search_words FOR EACH ROW
  INSERT IGNORE INTO search_word_trigrams (trigram, word_id)
    SELECT cal_trigram(NEW.word, s.seq), NEW.id FROM seq_1_to_188 s WHERE s.seq <= CHAR_LENGTH(NEW.word) - 2;
CREATE OR REPLACE TRIGGER search_words_trigrams_au AFTER UPDATE ON search_words FOR EACH ROW BEGIN
  IF NOT (OLD.id = NEW.id AND OLD.word = NEW.word) THEN
    DELETE FROM search_word_trigrams WHERE word_id = OLD.id
    ; INSERT IGNORE INTO search_word_trigrams (trigram, word_id)
      SELECT cal_trigram(NEW.word, s.seq), NEW.id FROM seq_1_to_188 s WHERE s.seq <= CHAR_LENGTH(NEW.word) - 2
  ; END IF
; END;
CREATE OR REPLACE TRIGGER search_words_trigrams_ad AFTER DELETE ON search_words FOR EACH ROW
  DELETE FROM search_word_trigrams WHERE word_id = OLD.id;
-- Once: the keys of the words already there.
INSERT IGNORE INTO search_word_trigrams (trigram, word_id)
  SELECT cal_trigram(w.word, s.seq), w.id FROM search_words w JOIN seq_1_to_188 s ON s.seq <= CHAR_LENGTH(w.word) - 2
  WHERE NOT EXISTS (SELECT 1 FROM schema_migrations WHERE version = 22);
INSERT IGNORE INTO schema_migrations (version) VALUES (22);

-- Migration 23: a series' occurrences edited alone, and its plain occurrence, found by key. A
-- feed's page reads, for each series it shows, its occurrences edited alone and one occurrence that
-- is not (store/event_series.cpp); without the flag in a key that read every occurrence of the
-- page's series: at a million demo events 10,000 rows and 15 ms of a 1,000-event feed.
ALTER TABLE event_occurrences ADD INDEX IF NOT EXISTS event_occurrences_exceptions (series_id, is_exception)
  COMMENT 'a series'' occurrences edited alone, and the others, each in post id order';
INSERT IGNORE INTO schema_migrations (version) VALUES (23);
