-- sample.sql — tools/sample.sql (the demo's generator) is deterministic:
-- run with 40 rows it writes exactly the committed data/rows.jj.
.bail off
.parameter set @n 40
.parameter set @out 'sample.tmp'
.read ../tools/sample.sql
SELECT readfile('sample.tmp') = readfile('data/rows.jj') AS same;
.print '-- and the head of a bigger sample is the small one'
.parameter set @n 100
.read ../tools/sample.sql
SELECT count(*) FROM jj_open('sample.tmp') a JOIN jj_open('data/rows.jj') b USING (row, record);
.shell rm -f sample.tmp
