-- group.sql — jj_group(name, value, ...): rows -> one canonical document.
.bail off
CREATE TABLE t(id INTEGER, user TEXT, price REAL, joined TEXT, ok INTEGER, data BLOB, note);
INSERT INTO t VALUES
  (1, 'u0042', 19.99, '2024-03-01', 1, x'00ff', NULL),
  (2, 'Tromsø "north"', 5, '2024-02-29', 0, x'', NULL),
  (3, NULL, NULL, NULL, NULL, NULL, NULL);
.print '-- types follow every value, as the converter types JSON: INTEGER i, INTEGER and REAL f, TEXT s (d or t when every text is a date or timestamp), BLOB x, all NULL s'
SELECT jj_group('id', id, 'user', user, 'price', price, 'joined', joined,
                'ok', ok, 'data', data, 'note', note) FROM t;
.print '-- explicit types after a colon'
SELECT jj_group('id', id, 'joined:d', joined, 'ok:b', ok, 'price:f', id) FROM t;
SELECT jj_group('at:t', '2024-03-01T12:30:00.123+05:30', 'n:i', 7, 's:s', 'x', 'b:x', x'01');
.print '-- TEXT for i, f and b converts as a column affinity of SQLite would, when nothing is lost'
SELECT jj_group('n:i', n, 'f:f', f, 'ok:b', ok)
  FROM (SELECT column1 AS n, column2 AS f, column3 AS ok
          FROM (VALUES ('100', '19.99', '1'), (' 7 ', '1', 'false'),
                       ('1e2', '2.5e1', 'true'), ('-100.0', 3, 0)));
.print '-- types follow storage classes (typeof), so REAL whole numbers stay f and come back REAL'
SELECT jj_group('v', CAST(value AS REAL)) FROM generate_series(1, 2);
SELECT jj_group('v', value) FROM (SELECT 1 AS value UNION ALL SELECT 2.5);
.print '-- a name with a colon in it is written with its type'
SELECT jj_group('a:b:s', 'x');
.print '-- extremes and text that needs escapes'
SELECT jj_group('i', 9223372036854775807, 'j', -9223372036854775808,
                'f', 4.9406564584124654e-324, 'g', -1.7976931348623157e308,
                's', 'tab	nl' || char(10) || 'nul' || char(0) || 'end', 'e', '😀\/');
.print '-- infinities are written as the strings the format uses; SQLite has no NaN (it stores NULL)'
SELECT jj_group('f', 9e999, 'g', -9e999, 'nan', 0.0 * 9e999);
.print '-- no rows: NULL'
SELECT jj_group('id', id) IS NULL FROM t WHERE 0;
.print '-- nested tables: a jj_group per row, named with :jj'
CREATE TABLE orders(id INTEGER, customer TEXT);
CREATE TABLE lines(order_id INTEGER, sku TEXT, qty INTEGER);
INSERT INTO orders VALUES (1, 'ann'), (2, 'bob'), (3, 'cy');
INSERT INTO lines VALUES (1, 'a-1', 2), (1, 'b-2', 1), (2, 'c-3', 5);
SELECT jj_group('id', o.id, 'customer', o.customer,
                'items:jj', (SELECT jj_group('sku', sku, 'qty', qty) FROM lines
                             WHERE order_id = o.id))
  FROM orders o;
.print '-- which reads back as a typed table, nested column and all'
CREATE VIRTUAL TABLE temp.back USING jj_open('{"jalapenojson":1,"columns":["id","customer","items"],"types":["i","s",{"columns":["sku","qty"],"types":["s","i"]}],"rows":[
[1,"ann",[["a-1",2],["b-2",1]]],
[2,"bob",[["c-3",5]]],
[3,"cy",null]
]}');
SELECT b.id, b.customer, i.record->>'sku' AS sku, i.record->>'qty' AS qty
  FROM back b, jj_open(b.items) i;
.print '-- jj values may be a typed table column or a file read as a BLOB'
SELECT jj_group('items:jj', items) FROM back;
SELECT jj_group('doc:jj', readfile('data/floats.jj'));
SELECT jj_group('doc:jj', readfile('data/bad_date.jj'));
.print '-- a nested column reads back as exactly the document jj_group wrote'
SELECT count(*) FROM back
 WHERE items IS (SELECT jj_group('sku', sku, 'qty', qty) FROM lines WHERE order_id = back.id);

.print '-- errors name the column and the row (counted from 1 as the rows arrive)'
SELECT jj_group('id', id, 'joined:d', joined) FROM (SELECT 1 AS id, '2023-02-28' AS joined
  UNION ALL SELECT 2, '2024-02-29' UNION ALL SELECT 3, '2023-02-30');
SELECT jj_group('at:t', '2024-03-01T25:00:00Z');
.print '-- TEXT mixed with numbers makes a text column, the numbers as their text'
SELECT jj_group('n', value) FROM (SELECT 1 AS value UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 'four');
SELECT jj_group('n', value) FROM (SELECT 'one' AS value UNION ALL SELECT 2);
.print '-- BLOB mixed with anything else is an error: no text reads back as the same bytes'
SELECT jj_group('b', value) FROM (SELECT x'00' AS value UNION ALL SELECT 'text');
SELECT jj_group('b', value) FROM (SELECT NULL AS value UNION ALL SELECT 1.5 UNION ALL SELECT x'00');
.print '-- an explicit type takes what fits it (i: TEXT as affinity converts it; s: any value as text; x: base64 TEXT)'
SELECT jj_group('n:i', 'abc');
SELECT jj_group('qty:i', value) FROM (SELECT '1' AS value UNION ALL SELECT '2' UNION ALL SELECT '12abc');
SELECT jj_group('n:i', '1.5');
SELECT jj_group('n:i', '0x10');
SELECT jj_group('n:i', '9007199254740993.0');
SELECT jj_group('n:i', '9223372036854775808');
SELECT jj_group('n:i', x'31');
SELECT jj_group('n:i', 2.5);
SELECT jj_group('f:f', 'x');
SELECT jj_group('f:f', '9007199254740993');
SELECT jj_group('s:s', 12);
SELECT jj_group('d:d', 20240301);
SELECT jj_group('ok:b', 2);
SELECT jj_group('ok:b', 'yes');
SELECT jj_group('ok:b', '2');
SELECT jj_group('x:x', 'AAEC');
SELECT jj_group('items:jj', 5);
SELECT jj_group('items:jj', '{"not":"a document"}');
.print '-- nested documents with different columns: their columns by name, null where a document lacks one'
SELECT jj_group('items:jj', value) FROM (SELECT jj_group('a', 1) AS value UNION ALL SELECT jj_group('b', 1));
SELECT jj_group('items:jj', NULL);
.print '-- an INTEGER no double holds with a REAL: a text column, so that no digit is lost'
SELECT jj_group('v', value) FROM (SELECT 9007199254740993 AS value UNION ALL SELECT 0.5);
SELECT jj_group('v', CAST(x'ff' AS TEXT));
SELECT jj_group('n:q', 1);
SELECT jj_group('', 1);
SELECT jj_group(':i', 1);
SELECT jj_group('a', 1, 'a:i', 2);
SELECT jj_group(1, 1);
SELECT jj_group(NULL, 1);
SELECT jj_group('a');
SELECT jj_group('a', 1, 'b');
SELECT jj_group();
SELECT jj_group(name, 1) FROM (SELECT 'a' AS name UNION ALL SELECT 'b');
SELECT jj_group('a', 1) OVER ();
.print '-- names are compared in full every row, whatever their length (a byte changed in the middle)'
SELECT jj_group(name, 1) FROM (SELECT 'ab' AS name UNION ALL SELECT 'aX');
SELECT jj_group(name, 1) FROM (SELECT 'price' AS name UNION ALL SELECT 'prXce');
SELECT jj_group(name, '2024-01-01') FROM (SELECT 'joined:d' AS name UNION ALL SELECT 'joXned:d');
SELECT jj_group(name, 1) FROM (SELECT 'customer_tag' AS name UNION ALL SELECT 'cuXtomer_tag');
SELECT jj_group(name, 1) FROM (SELECT 'a_rather_long_column_name' AS name UNION ALL SELECT 'a_rather_lonX_column_name');
SELECT jj_group(name, 1) FROM (SELECT 'same' AS name UNION ALL SELECT 'same' UNION ALL SELECT 'same ');
SELECT jj_group(name, 1) FROM (SELECT 'same' AS name UNION ALL SELECT CAST('same' AS BLOB));
.print '-- dates: days 01-28 need no calendar; the rest are checked by it'
SELECT jj_group('d:d', column1) FROM (VALUES ('0000-01-01'), ('9999-12-31'), ('2024-02-29'),
  ('2000-02-29'), ('2023-01-31'), ('2023-04-30'), ('2023-12-28'));
SELECT jj_group('d:d', column1) FROM (VALUES ('2023-01-28'), ('1900-02-29'));
SELECT jj_group('d:d', column1) FROM (VALUES ('2023-01-28'), ('2023-04-31'));
SELECT jj_group('d:d', column1) FROM (VALUES ('2023-04-31'), (5));
SELECT jj_group('d:d', column1) FROM (VALUES ('2023-02-29'), (5));
SELECT jj_group('d:d', '2023-13-01');
SELECT jj_group('d:d', '2023-00-10');
SELECT jj_group('d:d', '2023-01-00');
SELECT jj_group('d:d', '2023/01/01');
SELECT jj_group('d:d', '2023-01-0:');
SELECT jj_group('d:d', '2023-1-01');
SELECT jj_group('d:d', '');
.print '-- text of every length from 0 to 20, with and without bytes to escape'
SELECT jj_group('n', length(t), 't', t) FROM (
  SELECT substr('abcdefghijklmnopqrst', 1, value) AS t FROM generate_series(0, 20)
  UNION ALL SELECT substr('ab"cd\ef' || char(9) || 'ghijklmnopqrst', 1, value) FROM generate_series(0, 20)
  UNION ALL SELECT substr('Tromsø Tromsø Tromsø', 1, value) FROM generate_series(1, 21, 4));
.print '-- decisions: jj_notes() returns those of the last call, and each group sends its own to sqlite3_log (the shell shows them with .log)'
CREATE TABLE mixed(g INTEGER, v);
INSERT INTO mixed VALUES (1, 1), (1, 'one'), (2, 3), (3, 2), (3, 2.5);
.log stdout
SELECT g, jj_group('v', v) FROM mixed GROUP BY g;
.log off
SELECT jj_notes();
