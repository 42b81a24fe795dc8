// errors.test.mjs — every error of SPEC.md's error table (section 8) that
// JS can meet, with its exact message, and the other messages SPEC.md
// lists, each compared with the C reader's message for the same document
// (build/js/jjdump): same words, same row, column and byte.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import zlib from 'node:zlib';
import * as jj from '../jalapenojson.js';
import { JJDUMP, ROOT, cDump } from '../testlib/helpers.mjs';

const spec = fs.readFileSync(path.join(ROOT, 'SPEC.md'), 'utf8');

// The rows of the error table: code, name, trigger (markdown), message.
function specTable() {
  const rows = [];
  for (const line of spec.split('\n')) {
    const m = /^\| `(JJ_ERR_[A-Z0-9_]+)` \| ([a-z0-9 ]+) \| (.*) \| `(.*)` \|$/.exec(line);
    if (m) rows.push({ code: m[1], name: m[2], trigger: m[3], message: m[4] });
  }
  return rows;
}

// The error decode() throws (it must throw a JJError).
function errorOf(doc, options) {
  try {
    jj.decode(doc, options);
  } catch (e) {
    assert.ok(e instanceof jj.JJError, `not a JJError: ${e}`);
    assert.ok(e instanceof Error);
    return e;
  }
  assert.fail(`no error for ${String(doc).slice(0, 80)}`);
}

// The error's fields agree with its message's place.
function checkPlace(e) {
  const m = /^row (\d+), column "([^"]*)"(?:.*?)(?:, byte (\d+))?:/.exec(e.message);
  const byte = /^(?:row \d+, )?(?:column "[^"]*", )?(?:row \d+, column "[^"]*", )?byte (\d+):/.exec(e.message);
  if (m) assert.equal(e.row, Number(m[1]), e.message);
  if (byte) assert.equal(e.offset, Number(byte[1]), e.message);
  if (!/^row \d+/.test(e.message)) assert.equal(e.row, 0, e.message);
}

// Codes JS cannot meet, and why.
const NOT_IN_JS = {
  JJ_ERR_NOMEM: 'no input triggers it (the module reports it when the instance cannot grow its memory)',
  JJ_ERR_USAGE: 'the JS API has no typed accessors to misuse (its misuse is a TypeError or a JJError of code "usage" with its own words)',
  JJ_ERR_IO: 'the module reads no files',
  JJ_ERR_INTERRUPTED: 'the module takes no interrupt callback',
};

test("SPEC.md's error table: every row JS can meet, with the exact message", async () => {
  const rows = specTable();
  assert.equal(rows.length, 19, 'the table has the rows this test knows');
  for (const row of rows) {
    if (NOT_IN_JS[row.code]) continue;
    let e;
    if (row.code === 'JJ_ERR_COMPRESSION') {
      // `jj_decompress(JJ_GZIP, ...)` of the two bytes 1f 8b
      await assert.rejects(jj.gunzip(new Uint8Array([0x1f, 0x8b])), (err) => (e = err) instanceof jj.JJError);
      assert.equal(errorOf(new Uint8Array([0x1f, 0x8b])).message, row.message);
    } else if (row.code === 'JJ_ERR_LIMIT') {
      // a limit of 3 bytes on "abcd" (the C row's plain stream is gzip here)
      await assert.rejects(jj.gunzip(zlib.gzipSync('abcd'), { maxSize: 3 }), (err) => (e = err) instanceof jj.JJError);
    } else if (row.trigger === 'the empty document') {
      e = errorOf('');
    } else {
      const doc = /^`(\{.*?\})`/.exec(row.trigger);
      assert.ok(doc, `no document in ${row.trigger}`);
      const depth = /with max_depth (\d+)/.exec(row.trigger);
      e = errorOf(doc[1], depth ? { maxDepth: Number(depth[1]) } : undefined);
    }
    assert.equal(e.message, row.message, row.code);
    assert.equal(e.code, row.name === 'out of memory' ? 'out of memory' : row.name, row.code);
    checkPlace(e);
  }
  const skipped = rows.filter((r) => NOT_IN_JS[r.code]).map((r) => r.code);
  assert.deepEqual(skipped.sort(), Object.keys(NOT_IN_JS).sort());
});

const H = '{"jalapenojson":1,"columns":["a"],"types":["i"]';
const ROWS = (t, rows) => `{"jalapenojson":1,"columns":["a"],"types":["${t}"],"rows":[${rows}]}`;
const bytes = (...parts) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

// [document, a phrase of SPEC.md's list that its message holds, options]
const OTHERS = [
  ['', 'the document is empty'],
  [bytes([0xef, 0xbb, 0xbf], `${H},"rows":[]}`), 'a byte order mark is not allowed'],
  ['[1]', 'expected \'{\' to start a jalapenojson document, found "["'],
  ['{"columns":[]}', 'the first key must be "jalapenojson", found "columns"'],
  ['{"jalapenojson":1,"types":[]}', 'expected "columns" after "jalapenojson", found "types"'],
  ['{"jalapenojson":1,"columns":["a"],"rows":[]}', 'expected "types" after "columns", found "rows"'],
  [`${H}}`, 'the header has no "rows"'],
  [`${H},"rows":{}}`, '"rows" must be an array, found an object'],
  [`${H},"count":-1,"rows":[]}`, '"count" must be a non-negative integer, found -1'],
  [`${H},"count":0,"count":0,"rows":[]}`, 'repeated key "count"'],
  ['{"jalapenojson":1,"columns":"a","types":["i"],"rows":[]}', '"columns" must be an array of names, found "a"'],
  ['{"jalapenojson":1,"columns":[1],"types":["i"],"rows":[]}', 'column names must be strings, found 1'],
  ['{"jalapenojson":1,"columns":["a",""],"types":["i","i"],"rows":[]}', 'column 2 has an empty name'],
  ['{"jalapenojson":1,"columns":["a","a"],"types":["i","i"],"rows":[]}', 'duplicate column name "a"'],
  [bytes('{"jalapenojson":1,"columns":["', [0xff], '"],"types":["i"],"rows":[]}'), 'column name "\\xff" is not valid UTF-8'],
  ['{"jalapenojson":1,"columns":["a\\u0000"],"types":["i"],"rows":[]}', 'column name "a\\x00" contains U+0000'],
  [`{"jalapenojson":1,"columns":[${Array.from({ length: 65536 }, (_, i) => `"c${i}"`)}],"types":[${Array(65536).fill('"i"')}],"rows":[]}`, 'too many columns (at most 65535)'],
  ['{"jalapenojson":1,"columns":["a","b"],"types":["i"],"rows":[]}', '"columns" has 2 names but "types" has 1'],
  ['{"jalapenojson":1,"columns":["a"],"types":["q"],"rows":[]}', 'unknown type "q" for column "a"'],
  ['{"jalapenojson":1,"columns":["a"],"types":[{}],"rows":[]}', 'a nested table type must be {"columns":[...],"types":[...]}'],
  ['{"jalapenojson":1,"columns":["a"],"types":[{"columns":["x"],"types":["i"],"z":1}],"rows":[]}', 'a nested table type has only "columns" and "types"'],
  ['{"jalapenojson":1,"columns":["a"],"types":[{"columns":["b"],"types":[{"columns":["c"],"types":[{"columns":["d"],"types":[{"columns":["e"],"types":["i"]}]}]}]}],"rows":[]}', 'nested tables deeper than the depth limit of 3', { maxDepth: 3 }],
  ['{"jalapenojson":1,"columns":["a","b"],"types":["i","i"],"rows":[[1]]}', 'expected 2 values, found 1'],
  [ROWS('i', '5'), 'a row must be an array, found 5'],
  [ROWS('i', '[1],'), 'expected a row, found "]"'],
  [ROWS('i', '[1][2]'), 'expected \',\' or \']\' after row 1, found "["'],
  [ROWS('i', '[1 2]'), 'expected \',\' or \']\' after a value, found "2"'],
  [ROWS('i', '[nul]'), 'expected a value, found "nul"'],
  [ROWS('s', '["abc'), 'unterminated string'],
  [ROWS('s', '["a\tb"]'), 'raw control character in string'],
  [`${H},"rows":[[1]]]`, 'expected \'}\' after the rows, found "]"'],
  [`${H},"rows":[[1]]} x`, 'unexpected data after the document'],
  [`${H},"rows":[[1]`, 'unexpected end of input (expected'],
  [ROWS('i', '[9223372036854775808]'), '9223372036854775808 does not fit a 64-bit integer'],
  [ROWS('f', '[01]'), '01 is not a valid number'],
  [ROWS('f', '[1e400]'), '1e400 is out of range for a double'],
  [ROWS('f', '["abc"]'), 'expected a number, found "abc"'],
  [ROWS('s', '[5]'), 'expected a string, found 5'],
  [ROWS('d', '[20230101]'), 'expected a date string, found 20230101'],
  [ROWS('t', '[1]'), 'expected a timestamp string, found 1'],
  [ROWS('b', '[1]'), 'expected true or false, found 1'],
  [ROWS('x', '[5]'), 'expected a base64 string, found 5'],
  ['{"jalapenojson":1,"columns":["a"],"types":[{"columns":["x"],"types":["i"]}],"rows":[[{}]]}', 'expected an array of rows, found an object'],
  [ROWS('s', '["\\q"]'), '"\\\\q" is not a valid JSON string (invalid escape)'],
  // SPEC.md section 3's example: an error inside a nested table
  ['{"jalapenojson":1,"columns":["order","placed","lines"],"types":["i","t",{"columns":["sku","qty","price"],"types":["s","i","f"]}],"rows":[\n[1001,"2024-03-01T09:15:00Z",[["A-17",2,9.5],["B-02","1",120.0]]]\n]}', 'row 1, column "lines", row 2, column "qty", byte 191: expected an integer, found "1"'],
];

// The C reader's message for a document (jjdump reads every value in the
// order decode() does).
function cMessage(doc) {
  try {
    cDump(typeof doc === 'string' ? Buffer.from(doc) : doc);
  } catch (e) {
    const m = /^jjdump: (.*)$/m.exec(String(e.stderr));
    return m ? m[1] : null;
  }
  return null;
}

test("SPEC.md's other messages, each as the C reader words it", () => {
  assert.ok(fs.existsSync(JJDUMP), 'run make js first');
  for (const [doc, phrase, options] of OTHERS) {
    const e = errorOf(doc, options);
    assert.ok(e.message.includes(phrase), `${e.message} does not say ${phrase}`);
    assert.ok(spec.replace(/\s+/g, ' ').includes(phrase.replace(/^row .*byte \d+: /, '').slice(0, 30)), `SPEC.md does not list ${phrase}`);
    if (!options) assert.equal(e.message, cMessage(doc), `C words it otherwise: ${phrase}`);
    checkPlace(e);
  }
});

test('the nested example: row and column are the top-level place', () => {
  const e = errorOf(OTHERS.at(-1)[0]);
  assert.equal(e.row, 1);
  assert.equal(e.column, 2);
  assert.equal(e.offset, 191);
  assert.equal(e.code, 'type');
});

test('views fail on the value they read, with the same message; other values read fine', () => {
  const doc = '{"jalapenojson":1,"columns":["id","joined"],"types":["i","d"],"rows":[\n[1,"2023-02-28"],\n[2,"2024-02-29"],\n[3,"2023-02-29"]\n]}';
  const v = jj.view(doc);
  assert.deepEqual(v.column('id'), [1, 2, 3]);
  assert.deepEqual(v.row(1), { id: 2, joined: '2024-02-29' });
  const want = 'row 3, column "joined", byte 110: "2023-02-29" is not a date (2023 is not a leap year)';
  assert.throws(() => v.column('joined'), { name: 'JJError', message: want, row: 3, column: 1, offset: 110, code: 'date' });
  assert.throws(() => v.row(2), { message: want });
  assert.throws(() => [...v], { message: want });
  assert.deepEqual(v.row(0), { id: 1, joined: '2023-02-28' }); // still usable
  assert.equal(cMessage(doc), want);
  v.close();
});

test('encode: values of the wrong JS type fail at their place, in the reader\'s words', () => {
  const schema = { columns: ['id', 'day', 'items'], types: ['i', 'd', { columns: ['sku', 'qty'], types: ['s', 'i'] }] };
  const cases = [
    [[{ id: '1' }], 'row 1, column "id": expected an integer, found "1"', 'type', 1, 0],
    [[{ id: 1.5 }], 'row 1, column "id": 1.5 is not an integer', 'range', 1, 0],
    [[{ id: 2 ** 64 }], 'row 1, column "id": 18446744073709552000 does not fit a 64-bit integer', 'range', 1, 0],
    [[{ id: 2n ** 63n }], 'row 1, column "id": 9223372036854775808 does not fit a 64-bit integer', 'range', 1, 0],
    [[{ id: 1 }, { id: 2, day: '2023-02-29' }], 'row 2, column "day": "2023-02-29" is not a date (2023 is not a leap year)', 'date', 2, 1],
    [[{ day: 20230101 }], 'row 1, column "day": expected a date string, found 20230101', 'type', 1, 1],
    [[{ items: [{ sku: 'a', qty: 1 }, { sku: 5 }] }], 'row 1, column "items", row 2, column "sku": expected a string, found 5', 'type', 1, 2],
    [[{ items: {} }], 'row 1, column "items": expected an array of rows, found an object', 'type', 1, 2],
    [[5], 'row 1: a row must be an object or an array, found 5', 'row', 1, -1],
    [[[1, null, null, 4]], 'row 1: 4 values for 3 columns', 'usage', 1, -1],
    [[[1]], 'row 1: 1 values for 3 columns', 'usage', 1, -1],
    [[{ id: 1, items: [{ sku: 'a\ud800' }] }], 'row 1, column "items", row 1, column "sku": "a\\xed\\xa0\\x80" is not valid UTF-8', 'utf8', 1, 2],
  ];
  for (const [rows, message, code, row, column] of cases) {
    assert.throws(() => jj.encode(rows, schema), (e) => {
      assert.ok(e instanceof jj.JJError, String(e));
      assert.equal(e.message, message);
      assert.equal(e.code, code, message);
      assert.equal(e.row, row, message);
      assert.equal(e.column, column, message);
      return true;
    });
  }
  // the writer's own schema checks
  assert.throws(() => jj.encode([], { columns: ['a', 'a'], types: ['i', 'i'] }), { name: 'JJError', code: 'schema' });
  assert.throws(() => jj.encode([], { columns: [''], types: ['i'] }), { name: 'JJError' });
  assert.throws(() => jj.encode([], { columns: ['a'], types: ['q'] }), TypeError);
  assert.throws(() => jj.encode([], { columns: ['a'] }), TypeError);
  assert.throws(() => jj.encode(5, { columns: ['a'], types: ['i'] }), TypeError);
});
