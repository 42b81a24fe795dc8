// parallel.test.mjs — a large file cut into byte ranges at line ends and
// read by several threads: the same rows in the same order as one thread
// reading it whole (preserve_insertion_order), the same rows and
// aggregates in any order without it; a gzip file the same; an error in a
// late range, and a wrong "count", located in the whole file as the SQLite
// extension locates them; a file whose rows span lines never read wrong.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';

import { error, lines, open, sqliteError, sqlQuote, tempDir, values } from '../lib/duckdb.mjs';

const ROWS = 150000; // about 11 MB: three ranges
let tmp, big;

function row(i) {
  const day = String(1 + (i % 28)).padStart(2, '0');
  const nested = i % 7 === 0 ? 'null' : i % 5 === 0 ? '[]' : `[["s${i % 13}",${i % 100}],["t",${-i}]]`;
  const price = i % 11 === 0 ? 'null' : `${(i % 1000) / 8}`;
  return `[${i},"user ${i % 997}",${price},"2024-02-${day}","2024-02-${day}T10:${String(i % 60).padStart(2, '0')}:00.${String(i % 1000).padStart(3, '0')}+01:00",${i % 3 === 0},"AAEC",${nested}]`;
}
const HEAD = (count) => `{"jalapenojson":1,"columns":["id","user","price","day","at","ok","raw","items"],"types":["i","s","f","d","t","b","x",{"columns":["k","n"],"types":["s","i"]}]${count === undefined ? '' : `,"count":${count}`},"rows":[\n`;
function doc(n, change = (i, r) => r, count) {
  const lines = [];
  for (let i = 1; i <= n; i++) lines.push(change(i, row(i)));
  return HEAD(count) + lines.join(',\n') + '\n]}';
}

before(() => {
  tmp = tempDir();
  big = join(tmp.dir, 'big.jj');
  const text = doc(ROWS);
  writeFileSync(big, text);
  writeFileSync(big + '.gz', gzipSync(text));
});
after(() => tmp.cleanup());

test('one thread, the file whole or cut into ranges: the same rows in the same order', async () => {
  const one = await open(1);
  const whole = await lines(one.con, `SELECT * FROM read_jj(${sqlQuote(big)}, parallel = false)`);
  const cut = await lines(one.con, `SELECT * FROM read_jj(${sqlQuote(big)})`);
  assert.equal(whole.length, ROWS);
  assert.deepEqual(cut, whole);
  const four = await open(4);
  await four.con.run('SET preserve_insertion_order = true');
  assert.deepEqual(await lines(four.con, `SELECT * FROM read_jj(${sqlQuote(big)})`), whole);
  assert.deepEqual(await lines(four.con, `SELECT * FROM read_jj(${sqlQuote(big + '.gz')})`), whole);
});

test('several threads: the same rows and aggregates in any order', async () => {
  const one = await open(1);
  const four = await open(4);
  await four.con.run('SET preserve_insertion_order = false');
  const agg = `SELECT count(*), sum(id), count(price), sum(price * 8)::BIGINT, count(DISTINCT "user"), min("at"), max("at"),
                      sum(len(items)), sum(list_sum(list_transform(items, x -> x.n))), count(*) FILTER (ok), max(day)`;
  for (const file of [big, big + '.gz']) {
    const want = await values(one.con, `${agg} FROM read_jj(${sqlQuote(file)}, parallel = false)`);
    assert.deepEqual(await values(four.con, `${agg} FROM read_jj(${sqlQuote(file)})`), want);
    const sorted = await lines(four.con, `SELECT * FROM read_jj(${sqlQuote(file)}) ORDER BY id`);
    assert.deepEqual(sorted, await lines(one.con, `SELECT * FROM read_jj(${sqlQuote(file)}, parallel = false)`));
    assert.equal(want[0][0], BigInt(ROWS));
  }
  // one column of many, and no column at all
  assert.deepEqual(await values(four.con, `SELECT sum(id) FROM read_jj(${sqlQuote(big)})`), [[BigInt(ROWS * (ROWS + 1) / 2)]]);
  assert.deepEqual(await values(four.con, `SELECT count(*) FROM read_jj(${sqlQuote(big)})`), [[BigInt(ROWS)]]);
});

test('a glob of large files read in parallel', async () => {
  const four = await open(4);
  await four.con.run('SET preserve_insertion_order = false');
  const got = await values(four.con, `SELECT filename, count(*), sum(id) FROM read_jj(${sqlQuote(big + '*')}, filename = true) GROUP BY ALL ORDER BY 1`);
  assert.deepEqual(got, [[big, BigInt(ROWS), BigInt(ROWS * (ROWS + 1) / 2)], [big + '.gz', BigInt(ROWS), BigInt(ROWS * (ROWS + 1) / 2)]]);
});

test('an error in a late range is located in the whole file, as SQLite does', async () => {
  const file = join(tmp.dir, 'late-error.jj');
  writeFileSync(file, doc(ROWS, (i, r) => i === ROWS - 1000 ? r.replace(/"2024-02-\d\d",/, '"2023-02-29",') : r));
  const want = sqliteError(file);
  assert.match(want, new RegExp(`: row ${ROWS - 1000}, column "day", byte \\d+: "2023-02-29" is not a date \\(2023 is not a leap year\\)$`));
  for (const threads of [1, 4]) {
    const db = await open(threads);
    assert.equal(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(file)})`), want, `threads ${threads}`);
    assert.equal(await error(db.con, `SELECT day FROM read_jj(${sqlQuote(file)}, parallel = false)`), want);
    // a column not read is not checked (as in SQLite): the rows count
    assert.deepEqual(await values(db.con, `SELECT count(id) FROM read_jj(${sqlQuote(file)})`), [[BigInt(ROWS)]]);
  }
  const broken = join(tmp.dir, 'late-row.jj');
  writeFileSync(broken, doc(ROWS, (i, r) => i === ROWS - 5 ? r.replace(',"AAEC",', ',"AAEC" ') : r));
  const rowError = sqliteError(broken);
  assert.match(rowError, new RegExp(`row ${ROWS - 5}`));
  const four = await open(4);
  assert.equal(await error(four.con, `SELECT id FROM read_jj(${sqlQuote(broken)})`), rowError);
});

test('a "count" the rows do not match, in a file read in ranges', async () => {
  const file = join(tmp.dir, 'count.jj');
  writeFileSync(file, doc(ROWS, undefined, ROWS + 1));
  const want = sqliteError(file);
  assert.ok(want.endsWith(`the header says "count":${ROWS + 1} but there are ${ROWS} rows`), want);
  const four = await open(4);
  assert.equal(await error(four.con, `SELECT * FROM read_jj(${sqlQuote(file)})`), want);
  assert.equal(await error(four.con, `SELECT count(*) FROM read_jj(${sqlQuote(file)})`), want);
  writeFileSync(file, doc(ROWS, undefined, ROWS));
  assert.deepEqual(await values(four.con, `SELECT count(*) FROM read_jj(${sqlQuote(file)})`), [[BigInt(ROWS)]]);
});

test('rows that span lines: never other rows, an error that says what to do', async () => {
  // A valid document whose nested tables are written one nested row per
  // line: every line ends as a row would, so a cut may fall inside a row.
  const file = join(tmp.dir, 'spread.jj');
  const lines = [];
  for (let i = 1; i <= ROWS; i++) lines.push(`[${i},"u",1.5,"2024-01-01","2024-01-01T00:00:00Z",true,"",[\n["a",${i}],\n["b",${i}],\n["c",${i}]]]`);
  writeFileSync(file, HEAD() + lines.join(',\n') + '\n]}');
  assert.equal(sqliteError(file), null);
  const four = await open(4);
  const whole = await values(four.con, `SELECT count(*), sum(list_sum(list_transform(items, x -> x.n))) FROM read_jj(${sqlQuote(file)}, parallel = false)`);
  assert.deepEqual(whole, [[BigInt(ROWS), 3n * BigInt(ROWS * (ROWS + 1) / 2)]]);
  const msg = await error(four.con, `SELECT count(*), sum(list_sum(list_transform(items, x -> x.n))) FROM read_jj(${sqlQuote(file)})`);
  assert.equal(msg, `${file}: its rows span lines where it was cut for parallel reading; read it with read_jj(..., parallel := false)`);
});

test('files of other columns: the first one in the glob\'s order is named, every run', async () => {
  const dir = join(tmp.dir, 'misfits');
  mkdirSync(dir);
  const head = (cols) => `{"jalapenojson":1,"columns":[${cols.map((c) => JSON.stringify(c)).join(',')}],"types":[${cols.map(() => '"i"').join(',')}],"rows":[\n`;
  const body = (n, k) => Array.from({ length: n }, (_, i) => `[${Array.from({ length: k }, () => i).join(',')}]`).join(',\n') + '\n]}';
  // the first file of other columns is compressed and large (a thread
  // spends a while on it), the later ones small: threads meet those first
  writeFileSync(join(dir, 'a1.jj'), head(['id', 'v']) + body(200000, 2));
  writeFileSync(join(dir, 'a2.jj'), head(['id', 'v']) + body(10, 2));
  writeFileSync(join(dir, 'a3.jj.gz'), gzipSync(head(['id', 'w']) + body(400000, 2), { level: 1 }));
  for (let i = 4; i <= 9; i++) writeFileSync(join(dir, `a${i}.jj`), head(['id', 'v', 'x']) + body(3, 3));
  const want = `${join(dir, 'a3.jj.gz')}: not the columns of ${join(dir, 'a1.jj')}: column 2 differs: declared "v" i, found "w" i (read_jj(..., union_by_name := true) reads files of other columns)`;
  const four = await open(4);
  for (let run = 0; run < 8; run++)
    assert.equal(await error(four.con, `SELECT count(*) FROM read_jj(${sqlQuote(join(dir, 'a*'))})`), want, `run ${run}`);
});
