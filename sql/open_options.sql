-- The converter's options on jj_open and jj_schema over a CSV file, run
-- by the sqlite3 shell from sql/ (tests/run.sh compares the output with
-- open_options.expected): both forms, quoting, the cache's canonical key,
-- jj_rejects, jj_schema's decisions, options that do not apply.
.headers on
.mode list
CREATE VIRTUAL TABLE temp.o USING jj_open('data/orders.csv', delimiter=';',
  null=NA, null='.', schema='qty:i', on_error=skip);
SELECT * FROM temp.o;
SELECT name, type FROM pragma_table_info('o');
SELECT row, byte, "column", code FROM jj_rejects WHERE source = 'data/orders.csv';
-- the same options in another order and spelling: the same cache entry
SELECT count(*) AS n FROM jj_open('data/orders.csv',
  'on_error = skip, schema="qty:i", null=".", null=NA, delimiter='';'', booleans=no');
SELECT options, hits FROM jj_cache WHERE path = 'data/orders.csv';
-- other options: another entry, nothing set aside
SELECT row, record FROM jj_open('data/orders.csv', 'delimiter=";", null_padding=1');
SELECT count(*) AS entries FROM jj_cache WHERE path = 'data/orders.csv';
SELECT count(*) AS rejected FROM jj_rejects WHERE source = 'data/orders.csv';
SELECT name, note FROM jj_schema('data/orders.csv', 'delimiter=";", null_padding=1');
-- errors
SELECT * FROM jj_open('data/orders.csv', 'delimiter=";", on_error=maybe');
SELECT * FROM jj_open('data/people.json', 'null=NA');
SELECT * FROM jj_open('data/rows.jj', 'on_error=skip');
SELECT * FROM jj_open('data/orders.csv', 'schema="qty:i');
CREATE VIRTUAL TABLE temp.x USING jj_open('data/orders.csv', delimiter=';', delimiter=',');
SELECT * FROM jj_schema('data/people.json', 'bad_to_null=1, schema="score:i"') WHERE name = 'score';
