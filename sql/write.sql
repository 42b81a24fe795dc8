-- write.sql — jj_write(path, document): checked, compressed by name,
-- atomic.  Files go to write.tmp/ (ignored by git), removed at the end.
.bail off
.shell rm -rf write.tmp && mkdir write.tmp
CREATE TABLE t(id INTEGER, user TEXT, joined TEXT);
INSERT INTO t VALUES (1, 'u0042', '2024-03-01'), (2, 'Tromsø', '2023-11-17'), (3, NULL, NULL);
.print '-- returns the bytes written; plain, .gz and .br'
SELECT jj_write('write.tmp/t.jj', jj_group('id', id, 'user', user, 'joined:d', joined)) FROM t;
SELECT jj_write('write.tmp/t.jj.gz', jj_group('id', id, 'user', user, 'joined:d', joined)) FROM t;
SELECT jj_write('write.tmp/t.jj.br', jj_group('id', id, 'user', user, 'joined:d', joined)) FROM t;
SELECT length(readfile('write.tmp/t.jj')), length(readfile('write.tmp/t.jj.gz')),
       length(readfile('write.tmp/t.jj.br'));
SELECT hex(substr(readfile('write.tmp/t.jj.gz'), 1, 2)) AS gzip_magic;
SELECT readfile('write.tmp/t.jj');
.print '-- and reads back, whatever the compression'
SELECT * FROM jj_open('write.tmp/t.jj.gz');
SELECT count(*) FROM jj_open('write.tmp/t.jj.br') a JOIN jj_open('write.tmp/t.jj') b USING (record);
.print '-- a BLOB document is written as it is'
SELECT jj_write('write.tmp/blob.jj', CAST(readfile('write.tmp/t.jj') AS BLOB));
SELECT readfile('write.tmp/blob.jj') = readfile('write.tmp/t.jj');
.print '-- NULL in, NULL out: nothing is written'
SELECT jj_write('write.tmp/none.jj', NULL) IS NULL, jj_write(NULL, '{}') IS NULL;
SELECT jj_write('write.tmp/none.jj', jj_group('id', id)) IS NULL FROM t WHERE 0;
.shell ls write.tmp

.print '-- an invalid document is refused before the file is touched'
SELECT jj_write('write.tmp/t.jj', 'not a document');
SELECT jj_write('write.tmp/t.jj', '{"jalapenojson":1,"columns":["d"],"types":["d"],"rows":[
["2024-02-29"],
["2023-02-29"]
]}');
SELECT jj_write('write.tmp/t.jj', '{"jalapenojson":1,"columns":["d"],"types":["d"],"rows":[["2024-02-29"]]} trailing');
SELECT jj_write('write.tmp/new.jj', x'');
.print '-- a failed write leaves the old file as it was, and no partial file'
SELECT jj_write('write.tmp/missing/t.jj', readfile('write.tmp/t.jj'));
SELECT jj_write('write.tmp', readfile('write.tmp/t.jj'));
SELECT jj_write('', readfile('write.tmp/t.jj'));
SELECT readfile('write.tmp/t.jj') = readfile('write.tmp/blob.jj') AS unchanged;
SELECT count(*) FROM jj_open('write.tmp/t.jj');
.shell ls -a write.tmp
.print '-- a successful write replaces the file whole'
SELECT jj_write('write.tmp/t.jj', jj_group('id', value)) FROM generate_series(1, 5);
SELECT group_concat(record->>'id') FROM jj_open('write.tmp/t.jj');
.print '-- argument errors'
SELECT jj_write(1, '{}');
SELECT jj_write('write.tmp/x.jj', 1);
SELECT jj_write('write.tmp/x' || char(0) || '.jj', readfile('write.tmp/t.jj'));
SELECT jj_write('write.tmp/x.jj');
.shell ls -a write.tmp
.shell rm -rf write.tmp
