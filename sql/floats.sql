-- floats.sql — non-finite and signed-zero floats through SQLite.
.bail off
.headers on
CREATE VIRTUAL TABLE temp.fl USING jj_open('data/floats.jj');
.print '-- Infinity comes back as a REAL infinity; SQLite has no NaN: it turns NaN into NULL'
SELECT label, v, typeof(v) FROM fl;
.print '-- the record form keeps NaN as the string the format uses'
SELECT row, record->>'v' AS v FROM jj_open('data/floats.jj') WHERE row <= 3;
.print '-- -0.0 keeps its sign through SQLite values (jj_group writes what it got)'
SELECT jj_group('v', v) AS doc FROM fl WHERE label IN ('-0', 'tiny', 'max', 'inf');
.print '-- but a REAL column of an ordinary table stores -0.0 as 0'
CREATE TABLE real_col(v REAL);
CREATE TABLE any_col(v);
INSERT INTO real_col SELECT v FROM fl WHERE label = '-0';
INSERT INTO any_col SELECT v FROM fl WHERE label = '-0';
SELECT (SELECT jj_group('v', v) FROM real_col) AS real_col,
       (SELECT jj_group('v', v) FROM any_col) AS any_col;
