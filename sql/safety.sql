-- safety.sql — what touches files is for direct use only: jj_open and
-- jj_schema (SQLITE_VTAB_DIRECTONLY) and jj_write (SQLITE_DIRECTONLY) fail
-- inside views and triggers, so a database file someone sends you cannot
-- read or write files through its schema.  jj_group is innocuous.
.bail off
.shell rm -f safety.tmp
ATTACH 'safety.tmp' AS other;
.print '-- direct use works'
SELECT count(*) FROM jj_open('data/rows.jj');
.print '-- a view reading a file through jj_open fails when used'
CREATE VIEW other.leak AS SELECT record FROM jj_open('data/rows.jj');
SELECT * FROM other.leak;
CREATE VIEW other.leak_schema AS SELECT name FROM jj_schema('data/rows.jj');
SELECT * FROM other.leak_schema;
.print '-- even over a blob: SQLite connects the table before it sees the argument'
CREATE VIEW other.blob_view AS SELECT record FROM jj_open(x'7b7d');
SELECT * FROM other.blob_view;
.print '-- so does a view over a typed table stored in the file'
CREATE VIRTUAL TABLE other.rows USING jj_open('data/rows.jj');
SELECT count(*) FROM other.rows;
CREATE VIEW other.typed AS SELECT id FROM rows;
SELECT count(*) FROM other.typed;
.print '-- a TEMP view is your own, not the file: it may'
CREATE TEMP VIEW mine AS SELECT id FROM other.rows;
SELECT count(*) FROM mine;
.print '-- a trigger writing a file through jj_write fails when it fires'
CREATE TABLE other.log(doc TEXT);
CREATE TRIGGER other.exfiltrate AFTER INSERT ON log
  BEGIN SELECT jj_write('safety-written.tmp', new.doc); END;
INSERT INTO other.log VALUES ('{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[[1]]}');
SELECT count(*) FROM other.log;
.print '-- and a view calling jj_write fails too'
CREATE VIEW other.writer AS SELECT jj_write('safety-written.tmp', doc) FROM log;
SELECT * FROM other.writer;
.shell ls safety-written.tmp 2>/dev/null || echo 'no file was written'
.print '-- nor can a view or trigger lift the size limit with jj_max_size'
CREATE VIEW other.lift AS SELECT jj_max_size(0);
SELECT * FROM other.lift;
CREATE TRIGGER other.lift_on_insert AFTER INSERT ON log
  BEGIN SELECT jj_max_size(0); END;
INSERT INTO other.log VALUES (NULL);
SELECT jj_max_size() AS still_the_default;
.print '-- jj_group is innocuous: a view may use it even with trusted_schema off'
PRAGMA trusted_schema = OFF;
CREATE VIEW other.grouped AS SELECT jj_group('n', value) AS doc FROM generate_series(1, 2);
SELECT doc FROM other.grouped;
.print '-- the same view in a reopened database file'
DETACH other;
ATTACH 'safety.tmp' AS again;
SELECT doc FROM again.grouped;
SELECT * FROM again.leak;
DETACH again;
.shell rm -f safety.tmp
