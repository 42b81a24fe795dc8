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
import { OTHERS, cMessage } from '../testlib/corpus.mjs';
import { JJDUMP, ROOT } from '../testlib/helpers.mjs';

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
  assert.throws(() => jj.encode([], { columns: ['a'], types: 'i' }), TypeError);
  // columns without types: the types are inferred (a column without values is text)
  assert.equal(jj.encodeText([], { columns: ['a'] }), '{"jalapenojson":1,"columns":["a"],"types":["s"],"rows":[\n]}');
  assert.throws(() => jj.encode(5, { columns: ['a'], types: ['i'] }), TypeError);
});

test('encode: a Date outside years 0000-9999, or an Invalid Date, in a date or timestamp column says so, with its year', () => {
  const ts = (v) => [{ at: '2024-01-01T00:00:00Z' }, { at: '2024-01-02T00:00:00Z' }, { at: v }];
  const day = (v) => [{ on: '2024-01-01' }, { on: '2024-01-02' }, { on: v }];
  const T = { columns: ['at'], types: ['t'] };
  const D = { columns: ['x', 'on'], types: ['i', 'd'] };
  const cases = [
    [ts(new Date(Date.UTC(10000, 0, 1))), T, 'row 3, column "at": the date +010000-01-01T00:00:00Z is outside years 0000-9999 that a timestamp can hold', 'timestamp', 0],
    [ts(new Date('-000001-12-31T23:59:59.999Z')), T, 'row 3, column "at": the date -000001-12-31T23:59:59.999Z is outside years 0000-9999 that a timestamp can hold', 'timestamp', 0],
    [ts(new Date(NaN)), T, 'row 3, column "at": an Invalid Date (its time is NaN) is not a timestamp', 'timestamp', 0],
    // the years of the time in its zone, as it would be written
    [ts({ date: new Date('9999-12-31T23:30:00Z'), nanos: 0, zone: 60, digits: 0 }), T, 'row 3, column "at": the date +010000-01-01T00:30:00+01:00 is outside years 0000-9999 that a timestamp can hold', 'timestamp', 0],
    [ts({ date: new Date('0000-01-01T00:10:00Z'), nanos: 0, zone: -90, digits: 0 }), T, 'row 3, column "at": the date -000001-12-31T22:40:00-01:30 is outside years 0000-9999 that a timestamp can hold', 'timestamp', 0],
    [ts({ date: new Date(8.64e15), nanos: 0, zone: 60, digits: 0 }), T, 'row 3, column "at": the date +275760-09-13T00:00:00Z is outside years 0000-9999 that a timestamp can hold', 'timestamp', 0],
    [day(new Date(Date.UTC(10000, 0, 1))), D, 'row 3, column "on": the date +010000-01-01 is outside years 0000-9999 that a date can hold', 'date', 1],
    [day(new Date('-000001-01-01T00:00:00Z')), D, 'row 3, column "on": the date -000001-01-01 is outside years 0000-9999 that a date can hold', 'date', 1],
    [day(new Date('-000001-01-01T12:00:00Z')), D, 'row 3, column "on": the date -000001-01-01T12:00:00Z is outside years 0000-9999 that a date can hold', 'date', 1],
    [day(new Date(NaN)), D, 'row 3, column "on": an Invalid Date (its time is NaN) is not a date', 'date', 1],
  ];
  for (const [rows, schema, message, code, column] of cases) {
    assert.throws(() => jj.encode(rows, schema), (e) => {
      assert.ok(e instanceof jj.JJError, String(e));
      assert.equal(e.message, message);
      assert.equal(e.code, code, message);
      assert.equal(e.row, 3, message);
      assert.equal(e.column, column, message);
      return true;
    });
  }
  // the first and last instants of the range are written
  const edges = [new Date('0000-01-01T00:00:00Z'), new Date('9999-12-31T23:59:59.999Z')];
  assert.deepEqual(jj.decode(jj.encode(edges.map((at) => ({ at })), T)).map((r) => r.at), ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z']);
  assert.deepEqual(jj.decode(jj.encode([{ x: 1, on: new Date('0000-01-01T00:00:00Z') }, { x: 2, on: new Date('9999-12-31T00:00:00Z') }], D)).map((r) => r.on), ['0000-01-01', '9999-12-31']);
  assert.deepEqual(
    jj.decode(jj.encode([{ at: { date: new Date('9999-12-31T22:59:00Z'), nanos: 0, zone: 60, digits: 0 } }], T)).map((r) => r.at),
    ['9999-12-31T23:59:00+01:00'],
  );
});
