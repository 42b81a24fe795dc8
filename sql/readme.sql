-- readme.sql — every example of README.md, in its order, with the output
-- the README shows (run from the repository root, as the README is).
-- Each "-- example N" line marks the start of one README code block.
.bail off
.cd ..
.print '-- example 1: the record form'
.headers on
SELECT * FROM jj_open('sql/data/rows.jj') LIMIT 2;
.print '-- example 2: the typed form'
.mode box
CREATE VIRTUAL TABLE temp.rows USING jj_open('sql/data/rows.jj');
SELECT id, user, city, plan, seats, price, joined FROM rows LIMIT 3;
SELECT city, count(*) AS n, round(avg(price), 2) AS avg_price
  FROM rows WHERE joined >= '2024-01-01' GROUP BY city;
.print '-- example 3: write back'
SELECT jj_write('paid.jj.gz', jj_group('id', id, 'user', user, 'joined:d', joined))
    AS bytes
  FROM rows WHERE plan <> 'free';
.mode list
SELECT row, record FROM jj_open('paid.jj.gz') LIMIT 2;
.print '-- example 4: jj_open record form with JSON functions'
.mode box
SELECT record->>'city' AS city, sum(record->>'seats') AS seats
  FROM jj_open('sql/data/rows.jj.gz')
 GROUP BY 1 ORDER BY 2 DESC LIMIT 3;
.print '-- example 5: NULL source'
SELECT count(*) FROM jj_open(NULL);
.print '-- example 6: CREATE with options, rowid'
CREATE VIRTUAL TABLE temp.checked USING jj_open('sql/data/rows.jj.gz',
                                               max_size=1000000, validate=1);
SELECT rowid, id, city FROM checked WHERE rowid IN (7, 30);
.print '-- example 7: table-valued form over other sources'
SELECT count(*) AS n, sum(seats) AS seats FROM rows('sql/data/rows.jj.br');
CREATE TABLE docs(name TEXT, body BLOB);
INSERT INTO docs VALUES ('all', readfile('sql/data/rows.jj')),
                        ('gzipped', readfile('sql/data/rows.jj.gz'));
SELECT d.name, count(*) AS n, max(r.joined) AS last
  FROM docs d, rows(d.body) r GROUP BY d.name;
SELECT * FROM rows('sql/data/bad_date.jj');
.print '-- example 8: nested column'
.mode list
SELECT items FROM rows WHERE rowid = 2;
.mode box
SELECT r.id, i.record->>'sku' AS sku, i.record->>'qty' AS qty
  FROM rows r, jj_open(r.items) i WHERE r.id <= 2;
.print '-- example 9: errors'
SELECT count(*) FROM jj_open('sql/data/bad_date.jj');
CREATE VIRTUAL TABLE temp.dates USING jj_open('sql/data/bad_date.jj');
SELECT id, joined FROM dates WHERE rowid <= 2;
SELECT max(joined) FROM dates;
.print '-- example 10: jj_schema'
SELECT * FROM jj_schema('sql/data/rows.jj');
.print '-- example 11: jj_group inference'
.mode list
.headers off
SELECT jj_group('n', n, 'x', x, 'label', label, 'raw', raw, 'nothing', NULL)
  FROM (SELECT 1 AS n, 1 AS x, 'one' AS label, x'01' AS raw
        UNION ALL SELECT 2, 2.5, 'two', x'0203');
.print '-- example 12: jj_group explicit types'
SELECT jj_group('day:d', '2024-02-29', 'at:t', '2024-02-29T12:00:00Z',
                'ok:b', 1, 'price:f', 20);
.print '-- example 13: jj_group nested'
SELECT jj_group('id', id, 'items:jj',
                (SELECT jj_group('sku', i.record->>'sku', 'qty', i.record->>'qty')
                   FROM jj_open(r.items) i))
  FROM rows r WHERE id <= 2;
.print '-- example 14: jj_group errors'
SELECT jj_group('day:d', value) FROM (SELECT '2024-02-29' AS value
                                      UNION ALL SELECT '2023-02-29');
SELECT jj_group('n', value) FROM (SELECT 1 AS value UNION ALL SELECT 'two');
.print '-- example 15: jj_write'
SELECT jj_write('paid.jj.gz', 'not a document');
SELECT jj_write('no/such/dir/paid.jj', jj_group('id', id)) FROM rows;
SELECT count(*) FROM jj_open('paid.jj.gz');
.print '-- example 16: safety'
ATTACH 'sql/readme.tmp' AS untrusted;
CREATE VIEW untrusted.v AS SELECT record FROM jj_open('/etc/hostname');
SELECT * FROM untrusted.v;
DETACH untrusted;
.print '-- end'
.shell rm -f paid.jj.gz sql/readme.tmp
