-- convert.sql — jj_from_json(data [, schema [, option ...]]) and
-- jj_from_csv(data [, 'key=value' ...]): JSON or CSV -> a document.
.bail off
.print '-- JSON: an array of objects or NDJSON; types inferred from every value'
SELECT jj_from_json('[{"id":1,"name":"Ada","joined":"2024-02-29","score":9.5},
                      {"id":2,"name":null,"joined":"2023-11-17","score":7}]');
SELECT jj_from_json('{"a":1}' || char(10) || '{"a":2,"b":true}');
.print '-- a schema overrides the inference of the columns it names'
SELECT jj_from_json('[{"id":1,"joined":"2024-02-29"}]', 'id:f,joined:s');
SELECT jj_from_json('[{"id":1,"qty":"x"}]', 'qty:i', 'bad_to_null=1');
.print '-- CSV: RFC 4180 with a header row, quotes and newlines in fields'
SELECT jj_from_csv(readfile('../tests/data/people.csv'));
SELECT jj_from_csv('a,b' || char(10) || '"x, ""y"""' || ',"two' || char(10) || 'lines"' || char(10));
.print '-- options: each its own argument, the value everything after the first ='
SELECT jj_from_csv('id;qty;ok' || char(10) || '1;NA;true' || char(10) || '2;3;false',
                   'delimiter=;', 'null=NA', 'booleans=1', 'schema=id:i,qty:f');
SELECT jj_from_csv('a	b' || char(10) || '1	' || char(10), 'delimiter=tab', 'empty_is_text=yes', NULL);
.print '-- straight into jj_open and jj_write'
SELECT row, record FROM jj_open(jj_from_csv(readfile('../tests/data/people.csv'), 'schema=zip:s'))
 WHERE row <= 2;
SELECT jj_write('convert.tmp.jj.gz', jj_from_json('[{"n":1},{"n":2}]'));
SELECT count(*), sum(record->>'n') FROM jj_open('convert.tmp.jj.gz');
.shell rm -f convert.tmp.jj.gz
.print '-- compressed BLOBs: gzip by its magic bytes, brotli by trying'
SELECT jj_from_json(readfile('data/people.json.gz'));
SELECT jj_from_json(readfile('data/people.json.br')) = jj_from_json(readfile('data/people.json'));
.print '-- NULL in, NULL out'
SELECT jj_from_json(NULL) IS NULL, jj_from_csv(NULL, 'delimiter=;') IS NULL;
.print '-- errors: located, after the function name'
SELECT jj_from_csv('id,qty' || char(10) || '1,2' || char(10) || '2,12abc', 'schema=qty:i');
SELECT jj_from_json('[{"a":1},');
SELECT jj_from_json('[{"a":1},{"a":"x"}]', 'a:i');
SELECT jj_from_json('[1, 2]');
SELECT jj_from_csv('a,b' || char(10) || '1,2,3');
SELECT jj_from_json('[{"a":1}]', 'b:q');
SELECT jj_from_csv('a', 'color=red');
SELECT jj_from_csv('a', 'delimiter=,', 'delimiter=;');
SELECT jj_from_csv('a', 'delimiter=;;');
SELECT jj_from_csv('a', 'booleans=maybe');
SELECT jj_from_csv('a', 'booleans');
SELECT jj_from_csv('a', 7);
SELECT jj_from_json('[]', 'a:i', 'delimiter=;');
SELECT jj_from_json('[]', 5);
SELECT jj_from_json(5);
SELECT jj_from_csv();
SELECT jj_from_json(x'1f8b0800');
.print '-- innocuous: a view of a database file may use them with trusted_schema off'
.shell rm -f convert.tmp
ATTACH 'convert.tmp' AS other;
PRAGMA trusted_schema = OFF;
CREATE VIEW other.conv AS SELECT jj_from_csv('a;b' || char(10) || '1;x', 'delimiter=;') AS doc,
                                 jj_from_json('[{"n":1.5}]') AS doc2;
DETACH other;
ATTACH 'convert.tmp' AS again;
SELECT doc, doc2 FROM again.conv;
DETACH again;
PRAGMA trusted_schema = ON;
.shell rm -f convert.tmp
.print '-- the connection limit applies to the input, decompressed'
SELECT jj_max_size(10);
SELECT jj_from_json('[{"a":1},{"a":2}]');
SELECT jj_max_size(100);
SELECT jj_from_json(readfile('data/people.json.gz'));
SELECT jj_from_json(readfile('data/people.json.br'));
SELECT jj_max_size(1073741824);
