// files.test.mjs — read_jj's files: globs in name order, gzip and brotli,
// the filename column, union_by_name (the SQLite extension's rules, its
// typed table as the reference), the replacement scan (FROM 'x.jj'), the
// options and the errors of each.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';

import { ROOT, error, open, rows, sqlQuote, tempDir, values } from '../lib/duckdb.mjs';

let db, tmp;
const data = (name) => join(ROOT, 'sql', 'data', name);
before(async () => {
  db = await open(2);
  tmp = tempDir();
});
after(() => tmp.cleanup());

test('a glob reads its files in name order, plain, gzip and brotli', async () => {
  const got = await values(db.con, `SELECT filename, count(*), sum(seats), min(id), max(id) FROM read_jj(${sqlQuote(data('rows.jj*'))}, filename = true) GROUP BY ALL ORDER BY filename`);
  assert.deepEqual(got.map((r) => r[0]), [data('rows.jj'), data('rows.jj.br'), data('rows.jj.gz')]);
  for (const r of got) assert.deepEqual(r.slice(1), [40n, got[0][2], 1n, 40n]);
  // one thread: the rows in file order, then in row order
  const one = await open(1);
  const order = await values(one.con, `SELECT filename, id FROM read_jj(${sqlQuote(data('rows.jj*'))}, filename = true)`);
  assert.equal(order.length, 120);
  order.forEach((r, i) => {
    assert.equal(r[1], BigInt((i % 40) + 1));
    assert.equal(r[0], [data('rows.jj'), data('rows.jj.br'), data('rows.jj.gz')][Math.floor(i / 40)]);
  });
});

test('the filename column: true, a name of its own, and a name the files have', async () => {
  const file = sqlQuote(data('rows.jj'));
  assert.deepEqual(await values(db.con, `SELECT DISTINCT filename FROM read_jj(${file}, filename = true)`), [[data('rows.jj')]]);
  assert.deepEqual(await values(db.con, `SELECT DISTINCT src FROM read_jj(${file}, filename = 'src')`), [[data('rows.jj')]]);
  const cols = await values(db.con, `SELECT column_name FROM (DESCRIBE SELECT * FROM read_jj(${file}, filename = 'src'))`);
  assert.equal(cols.at(-1)[0], 'src');
  assert.equal(cols.length, 9);
  assert.equal((await values(db.con, `SELECT count(*) FROM (DESCRIBE SELECT * FROM read_jj(${file}, filename = false))`))[0][0], 8n);
  assert.equal(await error(db.con, `SELECT * FROM read_jj(${file}, filename = 'City')`),
               'read_jj: the files have a column "City" already; name the filename column otherwise (filename := \'source_file\')');
  assert.equal(await error(db.con, `SELECT * FROM read_jj(${file}, filename = 42)`),
               'read_jj: filename is true, false or the name of the column');
});

test('union_by_name: the SQLite typed table\'s rows', async () => {
  const glob = data('log-*');
  const got = await rows(db.con, `SELECT filename, id, level, msg, ms, "user" FROM read_jj(${sqlQuote(glob)}, union_by_name = true, filename = true) ORDER BY filename, id`);
  const sqlite = spawnSync('sqlite3', ['-batch', '-json', '-cmd', `.load ${join(ROOT, 'jalapenojson')}`, ':memory:',
    `CREATE VIRTUAL TABLE temp.logs USING jj_open(${sqlQuote(glob)}, union_by_name=1); SELECT filename, id, level, msg, ms, user FROM logs ORDER BY filename, id;`], { encoding: 'utf8' });
  assert.equal(sqlite.status, 0, sqlite.stderr);
  const want = JSON.parse(sqlite.stdout).map((r) => Object.values(r).map((v) => v === null ? null : String(v)));
  // SQLite's REAL 3000.0 is DuckDB's DOUBLE 3000.0: both spelled by DuckDB
  const norm = (v) => v !== null && /^\d+\.0$/.test(v) ? v.slice(0, -2) : v;
  assert.deepEqual(got.map((r) => r.map(norm)), want.map((r) => r.map(norm)));
  const types = await values(db.con, `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_jj(${sqlQuote(glob)}, union_by_name = true))`);
  assert.deepEqual(types, [['id', 'BIGINT'], ['level', 'VARCHAR'], ['msg', 'VARCHAR'], ['ms', 'DOUBLE'], ['user', 'VARCHAR']]);
  assert.equal(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(glob)})`),
               `${data('log-2024-02.jj.gz')}: not the columns of ${data('log-2024-01.jj')}: 4 columns instead of 3 (read_jj(..., union_by_name := true) reads files of other columns)`);
});

test('union_by_name: names ignore case, one type per name, twins refused', async () => {
  const dir = join(tmp.dir, 'union');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.jj'), '{"jalapenojson":1,"columns":["id","tag"],"types":["i","s"],"rows":[\n[1,"x"]\n]}');
  writeFileSync(join(dir, 'b.jj'), '{"jalapenojson":1,"columns":["ID","extra"],"types":["i","b"],"rows":[\n[2,true]\n]}');
  const got = await values(db.con, `SELECT * FROM read_jj(${sqlQuote(join(dir, '*.jj'))}, union_by_name = true) ORDER BY id`);
  assert.deepEqual(got, [[1n, 'x', null], [2n, null, true]]);
  writeFileSync(join(dir, 'c.jj'), '{"jalapenojson":1,"columns":["tag"],"types":["i"],"rows":[\n[3]\n]}');
  assert.equal(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(join(dir, '*.jj'))}, union_by_name = true)`),
               `${join(dir, 'c.jj')}: column "tag" is i here, s in ${join(dir, 'a.jj')} (with union_by_name a column has one type in every file)`);
  writeFileSync(join(dir, 'c.jj'), '{"jalapenojson":1,"columns":["Tag","TAG"],"types":["s","s"],"rows":[\n["p","q"]\n]}');
  assert.equal(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(join(dir, 'c.jj'))})`),
               `${join(dir, 'c.jj')}: columns "Tag" and "TAG" are one name in DuckDB, which ignores case in column names`);
  writeFileSync(join(dir, 'c.jj'), '{"jalapenojson":1,"columns":["id","items"],"types":["i",{"columns":["x","X"],"types":["i","s"]}],"rows":[\n[1,[[1,"p"]]]\n]}');
  assert.equal(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(join(dir, 'c.jj'))})`),
               `${join(dir, 'c.jj')}: columns "x" and "X" of the nested table "items" are one name in DuckDB, which ignores case in column names`);
});

test('the replacement scan: FROM a .jj, .jj.gz or .jj.br name or glob', async () => {
  for (const name of ['rows.jj', 'rows.jj.gz', 'rows.jj.br']) {
    assert.deepEqual(await values(db.con, `SELECT count(*), sum(id) FROM ${sqlQuote(data(name))}`), [[40n, 820n]], name);
  }
  assert.deepEqual(await values(db.con, `SELECT count(*) FROM ${sqlQuote(data('rows*.jj.gz'))}`), [[40n]]);
  assert.deepEqual(await values(db.con, `SELECT count(*) FROM ${sqlQuote(data('log-*.jj'))}`), [[2n]]);
  // other names are left to DuckDB and its other readers
  assert.match(await error(db.con, `SELECT * FROM ${sqlQuote(data('rows.nothing'))}`), /does not exist|No files found|not found/i);
});

test('a glob that matches nothing, a missing file, a directory; escaped glob characters', async () => {
  assert.equal(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(join(tmp.dir, 'none-*.jj'))})`),
               `${join(tmp.dir, 'none-*.jj')}: no file matches (escape * ? [ with \\ to name a file that has them)`);
  assert.equal(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(join(tmp.dir, 'missing.jj'))})`),
               `cannot open "${join(tmp.dir, 'missing.jj')}": No such file or directory`);
  assert.equal(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(tmp.dir)})`), `"${tmp.dir}" is a directory`);
  const odd = join(tmp.dir, 'odd*name.jj');
  copyFileSync(data('rows.jj'), odd);
  assert.deepEqual(await values(db.con, `SELECT count(*) FROM read_jj(${sqlQuote(join(tmp.dir, 'odd\\*name.jj'))})`), [[40n]]);
  assert.equal(await error(db.con, 'SELECT * FROM read_jj(NULL)'), 'read_jj: the path is NULL');
});

test('max_size: the limit of document bytes per file, as in SQLite', async () => {
  const file = sqlQuote(data('rows.jj.gz'));
  assert.match(await error(db.con, `SELECT * FROM read_jj(${file}, max_size = 1000)`),
               /rows\.jj\.gz": decompressed size exceeds the limit of 1000 bytes \(read_jj's max_size option raises the limit; 0 is none\)$/);
  assert.deepEqual(await values(db.con, `SELECT count(*) FROM read_jj(${file}, max_size = 0)`), [[40n]]);
  assert.match(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(data('rows.jj'))}, max_size = 100)`), /is \d+ bytes, over the limit of 100 bytes/);
});
