-- open_typed.sql — CREATE VIRTUAL TABLE ... USING jj_open(SOURCE): the
-- document's own columns with their declared SQL types, the rowid, the
-- table-valued form over other sources, options and their errors.
.bail off
.headers on

CREATE VIRTUAL TABLE temp.rows USING jj_open('data/rows.jj');
.print '-- the declared columns (the hidden one makes the table-valued form)'
SELECT cid, name, type, hidden FROM pragma_table_xinfo('rows');
SELECT sql FROM sqlite_temp_master WHERE name = 'rows';
SELECT rowid, id, user, city, plan, seats, price, joined FROM rows LIMIT 3;
.print '-- the storage classes are the declared ones'
SELECT typeof(id), typeof(user), typeof(city), typeof(seats), typeof(price),
       typeof(joined), typeof(items) FROM rows WHERE rowid = 1;
.print '-- a typed query'
SELECT city, count(*) AS n, round(avg(price), 2) AS avg_price
  FROM rows WHERE joined >= '2024-01-01' GROUP BY city ORDER BY city;
.print '-- a nested table column is a jalapenojson document of its own'
SELECT items FROM rows WHERE rowid = 3;
SELECT items IS NULL AS no_items FROM rows WHERE rowid = 4;
CREATE VIRTUAL TABLE temp.items3 USING jj_open('{"jalapenojson":1,"columns":["sku","qty","price"],"types":["s","i","f"],"rows":[
["sku-110",5,24.99],
["sku-127",1,27.99],
["sku-144",2,30.99]
]}');
.print '-- and opens in turn, with the table-valued form of a table of its shape'
SELECT r.id, i.* FROM rows r, items3(r.items) i WHERE r.id <= 3;
SELECT r.id, sum(i.qty) AS qty FROM rows r, items3(r.items) i GROUP BY r.id HAVING sum(i.qty) >= 10;

.print '-- every type'
CREATE VIRTUAL TABLE temp.types USING jj_open('data/types.jj');
SELECT name, type FROM pragma_table_info('types');
SELECT rowid, typeof(n), typeof(f), typeof(s), typeof(d), typeof(t), typeof(b),
       typeof(x), typeof(items) FROM types;
SELECT n, f, s, d, t, b, hex(x), items FROM types;
SELECT quote(x), length(x) FROM types;

.print '-- rowid = N is row N of the file; IN lists; out of range gives no row'
SELECT rowid, id FROM rows WHERE rowid = 40;
SELECT rowid, id FROM rows WHERE rowid IN (3, 1, 2.0, '5', 99, 0, -1, NULL, 2.5) ORDER BY rowid;
SELECT rowid, id FROM rows WHERE rowid = 41;
SELECT count(*) FROM rows WHERE rowid = 'x';
SELECT rowid, id FROM rows WHERE rowid = 7 OR rowid = 9;
.print '-- LIMIT and OFFSET'
SELECT id FROM rows LIMIT 2 OFFSET 10;
SELECT id FROM rows WHERE rowid IN (5, 6, 7, 8) LIMIT 2 OFFSET 1;
SELECT id FROM rows WHERE seats > 8 LIMIT 2 OFFSET 1;
SELECT id FROM rows ORDER BY rowid LIMIT 2 OFFSET 5;
SELECT id FROM rows ORDER BY rowid DESC LIMIT 2;
.print '-- cursors share the document: a self-join'
SELECT a.id, b.id FROM rows a JOIN rows b ON b.rowid = a.rowid + 1 WHERE a.rowid < 3;

.print '-- the table-valued form: other sources of the same shape'
SELECT count(*), sum(seats) FROM rows('data/rows.jj.gz');
SELECT count(*), sum(seats) FROM rows(readfile('data/rows.jj.br'));
SELECT count(*) FROM rows(NULL);
SELECT id, city FROM rows('data/rows.jj.gz') WHERE rowid = 2;
CREATE TABLE docs(name TEXT, body BLOB);
INSERT INTO docs VALUES ('all', readfile('data/rows.jj')),
                        ('gz', readfile('data/rows.jj.gz')),
                        ('none', NULL);
SELECT d.name, count(r.id) AS n, max(r.joined) AS last
  FROM docs d LEFT JOIN rows(d.body) r GROUP BY d.name ORDER BY d.name;
SELECT d.name, r.id FROM docs d, rows(d.body) r WHERE r.rowid = 40;
.print '-- a source of another shape is an error that says which column differs'
SELECT * FROM rows('data/bad_date.jj');
SELECT writefile('typed-city.tmp', replace(readfile('data/rows.jj'),
       '"types":["i","s","s"', '"types":["i","s","i"')) > 0 AS written;
SELECT * FROM rows('typed-city.tmp');
SELECT writefile('typed-name.tmp', replace(readfile('data/rows.jj'),
       '"user"', '"login"')) > 0 AS written;
SELECT * FROM rows('typed-name.tmp');
SELECT writefile('typed-nested.tmp', replace(readfile('data/rows.jj'),
       '"types":["s","i","f"]', '"types":["s","f","f"]')) > 0 AS written;
SELECT * FROM rows('typed-nested.tmp');
.print '-- errors while reading name the source'
CREATE VIRTUAL TABLE temp.dates USING jj_open('data/bad_date.jj');
SELECT id FROM dates;
SELECT id, joined FROM dates WHERE rowid = 2;
SELECT id, joined FROM dates WHERE rowid = 3;
SELECT max(joined) FROM dates;
SELECT * FROM dates('{"jalapenojson":1,"columns":["id","joined"],"types":["i","d"],"rows":[[1,"2023-02-30"]]}');
SELECT * FROM dates(x'7b');

.print '-- a document given in the CREATE itself, quoted as SQL quotes it'
CREATE VIRTUAL TABLE temp.lit USING jj_open('{"jalapenojson":1,"columns":["it''s"],"types":["s"],"rows":[["a''b"]]}');
SELECT * FROM lit;
.print '-- a document column named source moves the hidden column to source_2'
CREATE VIRTUAL TABLE temp.src USING jj_open('{"jalapenojson":1,"columns":["Source","n"],"types":["s","i"],"rows":[["x",1]]}');
SELECT name, hidden FROM pragma_table_xinfo('src');
SELECT * FROM src('{"jalapenojson":1,"columns":["Source","n"],"types":["s","i"],"rows":[["y",2]]}');
.print '-- names SQL cannot tell apart'
CREATE VIRTUAL TABLE temp.cases USING jj_open('{"jalapenojson":1,"columns":["a","A"],"types":["s","i"],"rows":[]}');
.print '-- without a SOURCE the CREATE makes the record form'
CREATE VIRTUAL TABLE temp.rec USING jj_open;
SELECT row, record->>'id' AS id FROM rec('data/rows.jj') LIMIT 1;
SELECT * FROM rec;

.print '-- options'
CREATE VIRTUAL TABLE temp.v1 USING jj_open('data/rows.jj', validate=1, max_size=100000);
SELECT count(*) FROM v1;
CREATE VIRTUAL TABLE temp.v2 USING jj_open('data/bad_date.jj', validate=1);
.print '-- (the CREATE reads the header only: the first scan opens and checks)'
SELECT count(*) FROM v2;
CREATE VIRTUAL TABLE temp.v3 USING jj_open('data/bad_date.jj', validate = off);
SELECT count(*) FROM v3;
CREATE VIRTUAL TABLE temp.v4 USING jj_open('data/rows.jj.gz', max_size=1000);
SELECT count(*) FROM v4;
CREATE VIRTUAL TABLE temp.v5 USING jj_open('data/rows.jj.gz', max_size='3557');
CREATE VIRTUAL TABLE temp.v6 USING jj_open('data/rows.jj.gz', max_size=0);
SELECT count(*) FROM v5;
SELECT count(*) FROM v5(readfile('data/rows.jj.br'));
CREATE VIRTUAL TABLE temp.v7 USING jj_open('data/types.jj', max_size=3556);
SELECT count(*) FROM v7(readfile('data/rows.jj.br'));
SELECT count(*) FROM v7(readfile('data/rows.jj.gz'));
SELECT count(*) FROM v7('data/rows.jj.gz');
CREATE VIRTUAL TABLE temp.e1 USING jj_open('data/rows.jj', color=red);
CREATE VIRTUAL TABLE temp.e2 USING jj_open('data/rows.jj', validate=1, validate=0);
CREATE VIRTUAL TABLE temp.e3 USING jj_open('data/rows.jj', max_size=-1);
CREATE VIRTUAL TABLE temp.e4 USING jj_open('data/rows.jj', validate=maybe);
CREATE VIRTUAL TABLE temp.e5 USING jj_open('data/rows.jj', validate);
CREATE VIRTUAL TABLE temp.e6 USING jj_open(validate=1);
CREATE VIRTUAL TABLE temp.e7 USING jj_open('missing.jj');
CREATE VIRTUAL TABLE temp.e8 USING jj_open('data/bad_version.jj');
.print '-- max_size only lowers the connection limit, jj_max_size()'
SELECT jj_max_size(2000) AS previous;
SELECT count(*) FROM v6;
CREATE VIRTUAL TABLE temp.v8 USING jj_open('data/rows.jj.gz', max_size=1000000);
SELECT count(*) FROM v8;
SELECT jj_max_size(1073741824) AS previous;
SELECT count(*) FROM v8;
.print '-- mmap=1 maps the declared plain file instead of reading it'
CREATE VIRTUAL TABLE temp.mapped USING jj_open('data/rows.jj', mmap=1);
SELECT count(*), sum(seats) FROM mapped;
CREATE VIRTUAL TABLE temp.e9 USING jj_open('data/rows.jj', mmap=maybe);
.print '-- a BLOB literal is a document, not a file name'
CREATE VIRTUAL TABLE temp.hex USING jj_open(x'7b226a616c6170656e6f6a736f6e223a312c22636f6c756d6e73223a5b2261225d2c227479706573223a5b2269225d2c22726f7773223a5b5b375d5d7d');
SELECT a, source FROM hex;
.print '-- a bare (unquoted) SOURCE is taken as written'
CREATE VIRTUAL TABLE temp.bare USING jj_open(data/rows.jj);
SELECT count(*) FROM bare;
.shell rm -f typed-city.tmp typed-name.tmp typed-nested.tmp
