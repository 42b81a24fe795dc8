-- open_record.sql — the eponymous form, SELECT * FROM jj_open(SOURCE):
-- columns row and record, every kind of SOURCE, compression, errors.
.bail off
.headers on

.print '-- a file: one row per record, row counts from 1'
SELECT * FROM jj_open('data/rows.jj') LIMIT 2;
.print '-- the columns: row, record, and the hidden source'
SELECT name, type, hidden FROM pragma_table_xinfo('jj_open');
.print '-- the hidden source reads back as the file name for a file, NULL for a document'
SELECT source FROM jj_open('data/rows.jj') LIMIT 1;
SELECT source IS NULL AS is_null FROM jj_open(readfile('data/rows.jj')) LIMIT 1;
.print '-- every type in a record: floats shortest, bytes as base64, nested tables as arrays of objects'
SELECT row, record FROM jj_open('data/types.jj');
.print '-- record composes with the JSON functions; it carries the JSON subtype'
SELECT record->>'city' AS city, record->>'price' AS price,
       json_array_length(record->'items') AS items
  FROM jj_open('data/rows.jj') WHERE row <= 3;
SELECT json_object('r', record) AS embedded FROM jj_open('data/types.jj') WHERE row = 3;
SELECT sum(j.value->>'qty') AS qty_in_row_3
  FROM jj_open('data/rows.jj') AS r, json_each(r.record->'items') AS j
 WHERE r.row = 3;

.print '-- TEXT starting with { (after whitespace) is a document, labelled blob'
SELECT * FROM jj_open('  {"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[[7],[8]]}');
.print '-- a BLOB holds the bytes of a document: plain, gzip (magic), brotli (tried when not JSON)'
SELECT count(*), sum(record->>'seats') FROM jj_open(readfile('data/rows.jj'));
SELECT count(*), sum(record->>'seats') FROM jj_open(readfile('data/rows.jj.gz'));
SELECT count(*), sum(record->>'seats') FROM jj_open(readfile('data/rows.jj.br'));
.print '-- files: gzip by magic, brotli by the .br name'
SELECT count(*), sum(record->>'seats') FROM jj_open('data/rows.jj.gz');
SELECT count(*), sum(record->>'seats') FROM jj_open('data/rows.jj.br');
.print '-- a gzip file with a name that does not say so is still found by its magic'
SELECT writefile('record-gz.tmp', readfile('data/rows.jj.gz')) > 0 AS copied;
SELECT count(*) FROM jj_open('record-gz.tmp');
.print '-- NULL gives no rows, as json_each(NULL) does'
SELECT count(*) FROM jj_open(NULL);
.print '-- the row is also the rowid'
SELECT rowid, row FROM jj_open('data/rows.jj') WHERE row IN (40, 2, 99, 2) ORDER BY row;
SELECT row FROM jj_open('data/rows.jj') WHERE rowid = 39;
.print '-- LIMIT and OFFSET'
SELECT row FROM jj_open('data/rows.jj') LIMIT 3 OFFSET 36;
SELECT row FROM jj_open('data/rows.jj') LIMIT 3 OFFSET 39;
SELECT row FROM jj_open('data/rows.jj') LIMIT 0;
.print '-- several sources in one query (a join of two scans)'
SELECT a.row, b.row FROM jj_open('data/rows.jj') a, jj_open('data/bad_date.jj') b
 WHERE a.row = b.row AND b.row <= 2;
SELECT d.name, count(r.row) AS n
  FROM (SELECT 'data/rows.jj' AS name UNION ALL SELECT 'data/rows.jj.gz') d,
       jj_open(d.name) r
 GROUP BY d.name;

.print '-- errors name the source, the row, the column and what is wrong'
.print '-- (a failing statement prints nothing, so its rows and its error cannot interleave)'
SELECT count(record) FROM jj_open('data/bad_date.jj');
SELECT * FROM jj_open('data/bad_version.jj');
SELECT count(*) FROM jj_open('data/bad_row.jj');
SELECT count(*) FROM jj_open('data/bad_count.jj');
SELECT * FROM jj_open('missing.jj');
SELECT * FROM jj_open('data');
SELECT * FROM jj_open('{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[[1.5]]}');
SELECT * FROM jj_open('{"jalapenojson":1,"columns":["a"],"types":["q"],"rows":[]}');
SELECT count(*) FROM jj_open('{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[[1],');
SELECT * FROM jj_open(x'');
SELECT * FROM jj_open(x'00112233');
SELECT * FROM jj_open(x'1f8b0800000000000003');
SELECT * FROM jj_open('');
SELECT * FROM jj_open(42);
SELECT * FROM jj_open(4.5);
SELECT * FROM jj_open('a' || char(0) || 'b');
SELECT * FROM jj_open;
SELECT * FROM jj_open();
.print '-- values of a row that is not read are not checked'
SELECT row FROM jj_open('data/bad_date.jj');
.print '-- a bad value fails the statement, never a NULL or a wrong value'
SELECT row, record->>'joined' FROM jj_open('data/bad_date.jj') WHERE row >= 3;
.shell rm -f record-gz.tmp
