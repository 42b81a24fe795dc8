-- planner.sql — what xBestIndex tells SQLite, seen in EXPLAIN QUERY PLAN.
-- The index string spells the plan: source (a table-valued argument),
-- row= (rowid = ?), row in (rowid IN (...), all values at once), limit and
-- offset (pushed down), and the WHERE comparisons the table decides itself
-- (ext/pushdown.c), as c<column index><operator>: c4> is seats > ?, and
-- p<column index><operator> for a pre-filter SQLite checks again.
.bail off
CREATE VIRTUAL TABLE temp.rows USING jj_open('data/rows.jj');
.print '-- a full scan'
EXPLAIN QUERY PLAN SELECT * FROM rows;
.print '-- rowid = ? and rowid IN (...) go straight to the rows'
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE rowid = 1042;
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE rowid IN (1, 5, 9);
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE rowid IN (SELECT 2);
.print '-- LIMIT and OFFSET are pushed down when nothing else filters'
EXPLAIN QUERY PLAN SELECT * FROM rows LIMIT 5;
EXPLAIN QUERY PLAN SELECT * FROM rows LIMIT 5 OFFSET 10;
EXPLAIN QUERY PLAN SELECT * FROM rows ORDER BY rowid LIMIT 5;
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE rowid IN (1, 2, 3) LIMIT 1;
.print '-- but not when SQLite must still filter or sort the rows'
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE city LIKE 'T%' LIMIT 5;
EXPLAIN QUERY PLAN SELECT * FROM rows ORDER BY city LIMIT 5;
.print '-- comparisons on typed columns are decided by the table: LIMIT stays'
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE seats > 3 LIMIT 5;
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE joined >= ? AND price < 20;
.print '-- a TEXT column is decided only against a literal text (the affinity of its'
.print '-- comparison depends on the other side, which xBestIndex cannot see); = ? is'
.print '-- a pre-filter (p2=) that SQLite checks again; no collation but BINARY'
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE city = 'Oslo';
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE city = ?;
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE city < ?;
EXPLAIN QUERY PLAN SELECT * FROM rows WHERE joined = '2024-01-01' COLLATE NOCASE;
.print '-- ORDER BY rowid needs no sort: rows come in order'
EXPLAIN QUERY PLAN SELECT * FROM rows ORDER BY rowid;
EXPLAIN QUERY PLAN SELECT * FROM rows ORDER BY rowid DESC;
.print '-- the table-valued forms take their SOURCE as an argument'
EXPLAIN QUERY PLAN SELECT * FROM jj_open('data/rows.jj');
EXPLAIN QUERY PLAN SELECT * FROM jj_open('data/rows.jj') WHERE row = 3;
EXPLAIN QUERY PLAN SELECT * FROM rows('data/rows.jj.gz') WHERE rowid IN (1, 2) LIMIT 1;
.print '-- a join passes the outer row to the table-valued function'
CREATE TABLE docs(name TEXT, body BLOB);
EXPLAIN QUERY PLAN SELECT * FROM docs d, rows(d.body) r;
EXPLAIN QUERY PLAN SELECT * FROM rows(d.body) r, docs d;
.print '-- honest estimates steer joins: 40 rows are cheaper to scan than a big table'
CREATE TABLE big(k INTEGER PRIMARY KEY);
EXPLAIN QUERY PLAN SELECT * FROM big b, rows r WHERE r.rowid = b.k;
.print '-- while a few keys look up their rows one by one'
EXPLAIN QUERY PLAN SELECT * FROM (VALUES (5), (7)) v, rows r WHERE r.rowid = v.column1;
SELECT v.column1, r.id FROM (VALUES (5), (7)) v, rows r WHERE r.rowid = v.column1;
.print '-- the results agree with the plans'
SELECT id FROM rows WHERE rowid IN (SELECT 2 UNION SELECT 4);
SELECT id FROM rows ORDER BY rowid DESC LIMIT 2;
SELECT id FROM rows WHERE seats > 8 LIMIT 2;
