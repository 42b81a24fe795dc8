// types.test.mjs — read_jj's values, every type and its extremes, equal to
// what the C core reads: `jalapenojson cat` writes each document as NDJSON
// (every value checked and written by the core), DuckDB's own read_json
// reads that back with the types read_jj declares, and both are compared
// value by value through DuckDB's VARCHAR cast, which spells -0.0, NaN,
// every digit of a BIGINT and an instant exactly.  Also: the declared
// types, nested tables as LIST of STRUCT, and every subset of the columns
// (projection pushdown) against the same reference.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { ROOT, cat, open, rows, sqlQuote, tempDir, values } from '../lib/duckdb.mjs';

const EXTREMES = `{"jalapenojson":1,"columns":["n","f","s","d","t","b","x","items"],"types":["i","f","s","d","t","b","x",{"columns":["k","v","w","when","at","sub"],"types":["s","i","f","d","t",{"columns":["z"],"types":["b"]}]}],"count":9,"rows":[
[9223372036854775807,-0.0,"plain","0001-01-01","0001-01-01T00:00:00Z",true,"AA==",[["a",1,1.5,"2024-02-29","2024-02-29T23:59:59.999999+14:00",[[true],[null]]]]],
[-9223372036854775808,"NaN","Tromsø \\"quoted\\"\\n\\ttab","9999-12-31","9999-12-31T23:59:59.999999Z",false,"AAEC/w==",[]],
[0,"Infinity","\\u00e9\\ud83d\\ude00 and \\u0000 NUL","1970-01-01","1970-01-01T00:00:00.000001-12:00",null,"",[[null,null,null,null,null,null]]],
[-1,"-Infinity","","1969-12-31","1969-12-31T23:59:59.5+05:30",true,"//79/A==",null],
[1,4.9e-324,"日本語のテキスト","2000-02-29","2024-03-10T02:30:00.123456789+01:00",false,"SGVsbG8=",[["x",-9223372036854775808,-0.0,"0001-01-01","2001-09-09T01:46:40Z",[]],["y",9223372036854775807,"NaN","9999-12-31","2024-01-01T00:00:00-00:30",null]]],
[42,1.7976931348623157e308,"a\\/b\\\\c\\"d","1600-03-01","1600-02-29T12:00:00.1Z",true,"AAAA",[["",0,"Infinity",null,"1969-07-20T20:17:40.000000001Z",[[false]]]]],
[-42,-2.2250738585072014e-308,"twelve bytes","2024-12-31","2016-12-31T23:59:59Z",false,"/w==",[]],
[1234567890123,0.1,"thirteen byte","1899-12-31","2038-01-19T03:14:07.999999999Z",null,null,[["z",null,"-Infinity","2000-01-01",null,null]]],
[null,null,null,null,null,null,null,null]
]}`;

let db, tmp;
before(async () => {
  db = await open(1);
  tmp = tempDir();
  writeFileSync(join(tmp.dir, 'extremes.jj'), EXTREMES);
});
after(() => tmp.cleanup());

// The reference: the core's values (cat), read by DuckDB's JSON reader
// with the types read_jj declares; bytes come as base64.
const SQL_TYPES = { i: 'BIGINT', f: 'DOUBLE', s: 'VARCHAR', d: 'DATE', t: 'TIMESTAMPTZ', b: 'BOOLEAN', x: 'VARCHAR' };
function sqlType(t) {
  if (typeof t === 'string') return SQL_TYPES[t];
  const fields = t.columns.map((c, i) => `"${c}" ${sqlType(t.types[i])}`);
  return `STRUCT(${fields.join(', ')})[]`;
}
async function reference(file, header) {
  const out = cat(file);
  assert.ok(out.ok, out.err);
  const ndjson = join(tmp.dir, `ref-${Math.random().toString(36).slice(2)}.ndjson`);
  writeFileSync(ndjson, out.out);
  const cols = header.columns.map((c, i) => `'${c}': '${sqlType(header.types[i])}'`).join(', ');
  const bytes = header.columns.filter((c, i) => header.types[i] === 'x');
  const replace = bytes.length ? ` REPLACE (${bytes.map((c) => `from_base64("${c}") AS "${c}"`).join(', ')})` : '';
  return `SELECT *${replace} FROM read_json(${sqlQuote(ndjson)}, format = 'newline_delimited', columns = {${cols}})`;
}

function headerOf(text) {
  return JSON.parse(text.slice(0, text.indexOf('"rows":[')) + '"rows":[]}');
}

test('the declared types', async () => {
  const file = join(tmp.dir, 'extremes.jj');
  const got = await values(db.con, `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_jj(${sqlQuote(file)}))`);
  assert.deepEqual(got, [
    ['n', 'BIGINT'], ['f', 'DOUBLE'], ['s', 'VARCHAR'], ['d', 'DATE'],
    ['t', 'TIMESTAMP WITH TIME ZONE'], ['b', 'BOOLEAN'], ['x', 'BLOB'],
    ['items', 'STRUCT(k VARCHAR, v BIGINT, w DOUBLE, "when" DATE, "at" TIMESTAMP WITH TIME ZONE, sub STRUCT(z BOOLEAN)[])[]'],
  ]);
});

test('the extremes, value by value, equal the core\'s', async () => {
  const file = join(tmp.dir, 'extremes.jj');
  // Bytes inside the nested table are none here: the reference decodes
  // top-level bytes only.
  const ref = await reference(file, headerOf(EXTREMES));
  const want = await rows(db.con, ref);
  const got = await rows(db.con, `SELECT * FROM read_jj(${sqlQuote(file)})`);
  assert.equal(got.length, 9);
  assert.deepEqual(got, want);
});

test('the extremes as DuckDB values', async () => {
  const file = sqlQuote(join(tmp.dir, 'extremes.jj'));
  const got = await values(db.con, `SELECT n, f::VARCHAR, signbit(f), d::VARCHAR, epoch_us(t), x, octet_length(x), s FROM read_jj(${file}) WHERE n IN (9223372036854775807, -9223372036854775808, 0, 1)`);
  assert.deepEqual(got.map((r) => r.slice(0, 5)), [
    [9223372036854775807n, '-0.0', true, '0001-01-01', -62135596800000000n],
    [-9223372036854775808n, 'nan', false, '9999-12-31', 253402300799999999n],
    [0n, 'inf', false, '1970-01-01', 43200000001n],
    [1n, '5e-324', false, '2000-02-29', 1710034200123456n],
  ]);
  assert.equal(got[2][7], 'é😀 and \u0000 NUL');
  assert.equal(got[1][7], 'Tromsø "quoted"\n\ttab');
  assert.deepEqual([...got[1][5].bytes], [0, 1, 2, 255]);
  const nested = await values(db.con, `SELECT items[2].v, items[2].w::VARCHAR, items[1].sub, len(items) FROM read_jj(${file}) WHERE n = 1`);
  assert.equal(nested[0][0], 9223372036854775807n);
  assert.equal(nested[0][1], 'nan');
  assert.equal(nested[0][3], 2n);
  const deep = await rows(db.con, `SELECT items FROM read_jj(${file}) WHERE n = 9223372036854775807`);
  assert.deepEqual(deep, [["[{'k': a, 'v': 1, 'w': 1.5, 'when': 2024-02-29, 'at': '2024-02-29 09:59:59.999999+00', 'sub': [{'z': true}, {'z': NULL}]}]"]]);
});

test('nulls: a null row, and a null, an empty and a null-valued nested table', async () => {
  const file = sqlQuote(join(tmp.dir, 'extremes.jj'));
  const got = await values(db.con, `SELECT count(*) FILTER (n IS NULL), count(*) FILTER (items IS NULL), count(*) FILTER (len(items) = 0), count(*) FILTER (items[1].k IS NULL AND len(items) = 1) FROM read_jj(${file})`);
  assert.deepEqual(got, [[1n, 2n, 2n, 1n]]);
  const nullRow = await values(db.con, `SELECT * FROM read_jj(${file}) WHERE n IS NULL AND s IS NULL`);
  assert.deepEqual(nullRow, [[null, null, null, null, null, null, null, null]]);
});

test('the repository\'s samples equal the core\'s', async () => {
  for (const name of ['rows.jj', 'rows.jj.gz', 'rows.jj.br', 'types.jj', 'floats.jj']) {
    const file = join(ROOT, 'sql', 'data', name);
    const text = cat(file);
    assert.ok(text.ok, text.err);
    const { readFileSync } = await import('node:fs');
    const { gunzipSync, brotliDecompressSync } = await import('node:zlib');
    let raw = readFileSync(file);
    if (name.endsWith('.gz')) raw = gunzipSync(raw);
    if (name.endsWith('.br')) raw = brotliDecompressSync(raw);
    const header = headerOf(raw.toString('utf8'));
    const want = await rows(db.con, await reference(file, header));
    const got = await rows(db.con, `SELECT * FROM read_jj(${sqlQuote(file)})`);
    assert.deepEqual(got, want, name);
  }
});

test('every subset of the columns (projection pushdown) reads the same values', async () => {
  const file = join(tmp.dir, 'extremes.jj');
  const header = headerOf(EXTREMES);
  const ref = await reference(file, header);
  const names = header.columns;
  let subsets = 0;
  for (let mask = 1; mask < 1 << names.length; mask++) {
    const cols = names.filter((c, i) => mask & (1 << i));
    // in a rotated order too: the order asked is the order returned
    const order = cols.slice(mask % cols.length).concat(cols.slice(0, mask % cols.length));
    const list = order.map((c) => `"${c}"`).join(', ');
    const want = await rows(db.con, `SELECT ${list} FROM (${ref})`);
    const got = await rows(db.con, `SELECT ${list} FROM read_jj(${sqlQuote(file)})`);
    assert.deepEqual(got, want, list);
    subsets++;
  }
  assert.equal(subsets, 255);
  const counted = await values(db.con, `SELECT count(*) FROM read_jj(${sqlQuote(file)})`);
  assert.deepEqual(counted, [[9n]]);
});

test('local timestamps as TIMESTAMP and JSON values as JSON', async () => {
  const doc = `{"jalapenojson":1,"columns":["ts","v"],"types":["l","j"],"rows":[
["2024-03-01T10:30:00",{"high":62,"low":[1,2.50]}],
["0001-01-01T00:00:00.123456789","tromsø"],
[null,null]
]}`;
  const file = join(tmp.dir, 'lj.jj');
  writeFileSync(file, doc);
  const f = sqlQuote(file);
  const types = await values(db.con, `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_jj(${f}))`);
  assert.deepEqual(types, [["ts", "TIMESTAMP"], ["v", "JSON"]]);
  const got = await values(db.con, `SELECT ts::VARCHAR, v::VARCHAR, v->>'high', json_type(v) FROM read_jj(${f})`);
  assert.deepEqual(got, [
    ['2024-03-01 10:30:00', '{"high":62,"low":[1,2.50]}', '62', 'OBJECT'],
    ['0001-01-01 00:00:00.123456', '"tromsø"', null, 'VARCHAR'],
    [null, null, null, null],
  ]);
});
