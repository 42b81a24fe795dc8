-- schema.sql — jj_schema(SOURCE): a document's columns from its header,
-- what CREATE VIRTUAL TABLE ... USING jj_open(SOURCE) will declare.
.bail off
.headers on
SELECT * FROM jj_schema('data/rows.jj');
SELECT * FROM jj_schema('data/types.jj');
.print '-- the hidden column, as jj_open has'
SELECT name, hidden FROM pragma_table_xinfo('jj_schema');
.print '-- only the header is read: rows with bad values do not matter'
SELECT position, name, type FROM jj_schema('data/bad_date.jj');
SELECT count(*) FROM jj_schema('data/bad_count.jj');
.print '-- every kind of SOURCE'
SELECT group_concat(name) FROM jj_schema(readfile('data/rows.jj.br'));
SELECT group_concat(name) FROM jj_schema('data/rows.jj.gz');
SELECT group_concat(name) FROM jj_schema('{"jalapenojson":1,"columns":["a"],"types":["b"],"rows":[]}');
SELECT count(*) FROM jj_schema(NULL);
.print '-- a nested schema opens in turn'
SELECT n.* FROM jj_schema('data/rows.jj') s,
       jj_schema('{"jalapenojson":1,' || substr(s.nested, 2, length(s.nested) - 2)
                 || ',"rows":[]}') n
 WHERE s.type = 'jj';
.print '-- in a join, per document'
CREATE TABLE docs(name TEXT, body BLOB);
INSERT INTO docs VALUES ('rows', readfile('data/rows.jj')), ('dates', readfile('data/bad_date.jj'));
SELECT d.name, s.position, s.name FROM docs d, jj_schema(d.body) s WHERE s.position <= 2 ORDER BY 1, 2;
.print '-- errors'
SELECT * FROM jj_schema('data/bad_version.jj');
SELECT * FROM jj_schema('missing.jj');
SELECT * FROM jj_schema(x'00');
SELECT * FROM jj_schema(1);
SELECT * FROM jj_schema;
.print '-- OR terms are planned one by one without the SOURCE: still answered'
SELECT position, name FROM jj_schema('data/rows.jj') WHERE position = 1 OR position = 3;
SELECT position FROM jj_schema('data/rows.jj') WHERE rowid = 1 OR rowid > 7;
SELECT position FROM jj_schema('data/rows.jj') WHERE position = 2 OR name = 'city';
