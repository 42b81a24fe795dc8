// build.test.mjs — encode() with the types inferred (the core's row
// builder), fromJSON and fromCSV (the core's converter): the same rows
// give the document and the decisions the command-line converter gives for
// their JSON, byte for byte; JS values map to the builder's kinds; errors
// are located.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as jj from '../jalapenojson.js';
import { ROOT } from '../testlib/helpers.mjs';

const CLI = path.join(ROOT, 'build/jalapenojson');
const utf8 = new TextDecoder();

// The CLI converter on `text` (a file named `name`): the document and its
// decisions (the summary's lines under "decisions:").
function cli(text, name = 'rows.ndjson', args = []) {
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: run make all`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jj-build-'));
  try {
    const input = path.join(dir, name);
    const output = path.join(dir, 'out.jj');
    fs.writeFileSync(input, text);
    const r = spawnSync(CLI, ['convert', ...args, input, output], { encoding: 'utf8' });
    if (r.status !== 0) return { error: r.stderr.trim() };
    const lines = r.stderr.split('\n');
    const at = lines.indexOf('decisions:');
    const notes = at < 0 ? [] : lines.slice(at + 1).filter((l) => l.startsWith('  ')).map((l) => l.slice(2));
    return { doc: fs.readFileSync(output, 'utf8'), notes };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// encode() of rows with the notes it told.
function built(rows, schema, options = {}) {
  const notes = [];
  const doc = jj.encodeText(rows, schema, { ...options, onNote: (m) => notes.push(m) });
  return { doc, notes };
}

// The same document and notes from encode(rows), from fromJSON on their
// JSON (as NDJSON and as one array) and from the CLI on their NDJSON.
function sameAsCli(rows, what) {
  const ndjson = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const want = cli(ndjson);
  assert.ok(want.doc !== undefined, `${what}: the CLI failed: ${want.error}`);
  const got = built(rows);
  assert.equal(got.doc, want.doc, `${what}: encode`);
  assert.deepEqual(got.notes, want.notes, `${what}: encode's notes`);
  // the converter in the module, on the same text, as NDJSON and as one array
  for (const text of [ndjson, `[${rows.map((r) => JSON.stringify(r)).join(',\n')}]`]) {
    const notes = [];
    const doc = jj.fromJSONText(text, { onNote: (m) => notes.push(m) });
    assert.deepEqual({ doc, notes }, want, `${what}: fromJSON`);
  }
}

// Data as JSON.parse gives it, in the shapes real data has.
const FIXTURES = {
  'sparse keys': [{ id: 1, name: 'a' }, { id: 2 }, { id: 3, commonwealth: true }, { name: 'd', id: 4 }],
  'nested arrays of objects': [
    { order: 1, items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 2.5 }] },
    { order: 2, items: [] },
    { order: 3, items: [{ sku: 'c', note: 'late', when: '2024-01-02' }] },
    { order: 4 },
  ],
  'objects and other arrays as values': [
    { id: 1, geo: { lat: 59.9, lon: 10.75, tags: ['a', 'b'] }, list: [1, 2, 3] },
    { id: 2, geo: { name: 'Zürich "ZH"\n', esc: 'tab\tcontrol\u0001' }, list: [{ a: 1 }, 2] },
    { id: 3, geo: null, list: [] },
  ],
  'mixed columns': [
    { v: 1, w: 'x', x: true },
    { v: 'two', w: 2, x: 1.5 },
    { v: null, w: false, x: '2024-01-01' },
  ],
  'ints then floats': [{ n: 1 }, { n: -2 }, { n: 0.5 }, { n: 1e300 }, { n: 0 }],
  'dates and timestamps as text': [
    { Year: '2007-01-01', at: '2024-03-01T10:30:00Z', t: '2024-03-01T10:30:00.25+05:30' },
    { Year: '1970-01-01', at: '2024-03-01T10:30:00.123Z', t: null },
  ],
  'dates mixed with text': [{ d: '2024-01-01' }, { d: 'soon' }],
  'nulls first, unicode names': [{ 'ñame': null, '名前': null }, { 'ñame': 'x', '名前': 1 }],
  'one column, one row': [{ only: 42 }],
  'booleans': [{ b: true }, { b: false }, { b: null }],
  'deep nesting': [{ a: [{ b: [{ c: [{ d: 1 }] }] }] }, { a: [{ b: [] }] }],
  'big integers': [{ n: 9007199254740991 }, { n: -9007199254740991 }],
};

for (const [name, rows] of Object.entries(FIXTURES)) {
  test(`encode infers as the CLI converter does: ${name}`, () => sameAsCli(rows, name));
}

// Random tables: every kind, nulls first, sparse keys, ints then floats,
// dates and timestamps as text, nested tables (some empty), objects.
function random(seed) {
  let s = seed >>> 0 || 1;
  const rnd = (n) => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % n;
  };
  const text = () => ['a', 'é', '"q"', 'back\\slash', 'line\nbreak', '名', '', ' sp '][rnd(8)] + rnd(100);
  const kinds = [
    () => rnd(2000) - 1000,
    () => (rnd(2000) - 1000) / 8,
    () => rnd(2) === 1,
    text,
    () => `20${10 + rnd(15)}-0${1 + rnd(9)}-1${rnd(10)}`,
    () => `2024-01-0${1 + rnd(9)}T0${rnd(10)}:30:00${['Z', '.5Z', '+01:00'][rnd(3)]}`,
    () => ({ k: text(), n: rnd(10), a: [rnd(3), null, 'x'] }),
    () => [rnd(5), text()],
  ];
  const table = (depth) => {
    const ncols = 1 + rnd(5);
    const cols = Array.from({ length: ncols }, (_, i) => ({
      name: ['id', 'név', 'x y', 'Ω', 'a,b', 'k'][rnd(6)] + i,
      kinds: [rnd(kinds.length), rnd(kinds.length)],
      nested: depth < 2 && rnd(5) === 0,
    }));
    const nrows = rnd(8);
    const rows = [];
    for (let r = 0; r < nrows; r++) {
      const row = {};
      for (const c of cols) {
        if (rnd(4) === 0) continue; // sparse
        if (rnd(5) === 0) row[c.name] = null;
        else if (c.nested) row[c.name] = table(depth + 1);
        else row[c.name] = kinds[c.kinds[rnd(3) === 0 ? 1 : 0]]();
      }
      rows.push(row);
    }
    return rows;
  };
  const rows = table(0);
  rows.push({ last: 1 }); // never a table without columns
  return rows;
}

test('the notes show an escaped text example as the converter does: the text itself', () => {
  const rows = [{ a: 1.5 }, { a: 'b\\s' }];
  const want = cli(rows.map((r) => JSON.stringify(r)).join('\n'));
  assert.deepEqual(built(rows).notes, want.notes);
});

test('encode infers as the CLI converter does: 60 random tables', () => {
  for (let seed = 1; seed <= 60; seed++) sameAsCli(random(seed), `seed ${seed}`);
});

test('encode: BigInt within int64 is an integer, beyond it a number as text', () => {
  const rows = [{ n: 2n ** 63n - 1n, m: 1n, k: 1n }, { n: -(2n ** 63n), m: 2n ** 64n, k: 2n ** 64n + 1n }];
  const want = cli(['{"n":9223372036854775807,"m":1,"k":1}', '{"n":-9223372036854775808,"m":18446744073709551616,"k":18446744073709551617}'].join('\n'));
  assert.deepEqual(built(rows), want);
  // beyond int64: a float when exact as a double, else text (with a note)
  assert.match(want.doc, /"types":\["i","f","s"\]/);
  assert.equal(want.notes.length, 2);
});

test('encode: JS values map to the builder kinds', () => {
  const at = new Date(Date.UTC(2024, 2, 1, 10, 30, 0, 250));
  const doc = jj.encodeText([
    { d: at, z: new Date(0), x: new Uint8Array([1, 2, 255]), f: -0, g: NaN, h: Infinity, u: undefined },
    { d: null, z: null, x: new Uint16Array([1]).buffer, f: 1, g: 2, h: -Infinity },
  ]);
  assert.equal(
    doc,
    '{"jalapenojson":1,"columns":["d","z","x","f","g","h"],"types":["t","t","x","f","f","f"],"rows":[\n' +
      '["2024-03-01T10:30:00.250Z","1970-01-01T00:00:00Z","AQL/",-0.0,"NaN","Infinity"],\n' +
      '[null,null,"AQA=",1.0,2.0,"-Infinity"]\n]}',
  );
  // a key whose value is undefined is absent, as in JSON.stringify
  assert.equal(jj.encodeText([{ a: 1, b: undefined }]), jj.encodeText([{ a: 1 }]));
  // decode's nested tables and a view's rows go back in
  const nested = jj.encode([{ id: 1, items: [{ q: 1.5 }] }, { id: 2, items: [] }]);
  assert.deepEqual(jj.encode(jj.decode(nested)), nested);
  const v = jj.view(nested);
  assert.deepEqual(jj.encode(v), nested);
  v.close();
});

test('encode: a partial schema types some columns, names the order, takes array rows', () => {
  const rows = [{ b: '2024-01-01', a: 1 }, { a: 2, b: new Date(Date.UTC(2024, 0, 2)) }];
  assert.equal(jj.encodeText(rows, { types: { b: 'd' } }), '{"jalapenojson":1,"columns":["b","a"],"types":["d","i"],"rows":[\n["2024-01-01",1],\n["2024-01-02",2]\n]}');
  assert.equal(jj.encodeText(rows, { columns: ['a', 'b'], types: { b: 'd', a: 'f' } }), '{"jalapenojson":1,"columns":["a","b"],"types":["f","d"],"rows":[\n[1.0,"2024-01-01"],\n[2.0,"2024-01-02"]\n]}');
  assert.equal(jj.encodeText([[1, 'x'], [2]], { columns: ['n', 's'] }), '{"jalapenojson":1,"columns":["n","s"],"types":["i","s"],"rows":[\n[1,"x"],\n[2,null]\n]}');
  // nested types, and a timestamp object in a column typed t
  const ts = { date: new Date(Date.UTC(2024, 0, 1)), nanos: 5, zone: 60, digits: 9 };
  assert.equal(
    jj.encodeText([{ items: [{ at: ts, q: 1 }] }], { types: { items: { at: 't', q: 'f' } } }),
    '{"jalapenojson":1,"columns":["items"],"types":[{"columns":["at","q"],"types":["t","f"]}],"rows":[\n[[["2024-01-01T01:00:00.000000005+01:00",1.0]]]\n]}',
  );
  // as the CLI's --schema
  const nd = '{"b":"2024-01-01","a":1}\n{"a":2,"b":"2024-01-02"}\n';
  assert.equal(jj.encodeText([{ b: '2024-01-01', a: 1 }, { a: 2, b: '2024-01-02' }], { types: { a: 's' } }), '{"jalapenojson":1,"columns":["b","a"],"types":["d","s"],"rows":[\n["2024-01-01","1"],\n["2024-01-02","2"]\n]}');
  assert.equal(cli(nd, 'r.ndjson', ['--schema', 'a:s']).doc, jj.encodeText([{ b: '2024-01-01', a: 1 }, { a: 2, b: '2024-01-02' }], { types: { a: 's' } }));
  // badToNull: a null and a note
  assert.deepEqual(built([{ a: 'x' }, { a: 1 }], { types: { a: 'i' } }, { badToNull: true }), {
    doc: '{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[\n[null],\n[1]\n]}',
    notes: ['column "a": 1 value that did not fit the schema\'s i became null (the first: row 1, "x")'],
  });
  // a full schema still goes straight to the writer, exactly as typed
  assert.equal(jj.encodeText([{ a: 1 }], { columns: ['a'], types: ['f'] }), '{"jalapenojson":1,"columns":["a"],"types":["f"],"rows":[\n[1.0]\n]}');
});

test('encode: errors are located; JS values that are no value are TypeErrors', () => {
  const fails = (rows, schema, check) => assert.throws(() => jj.encode(rows, schema), check);
  fails([{ a: 1 }, { a: 'x' }], { types: { a: 'i' } }, { name: 'JJError', code: 'type', row: 2, column: 0, message: 'row 2, column "a": "x" is not an integer (the schema says a:i)' });
  fails([{ a: 1 }, { a: new Uint8Array(2) }], undefined, { name: 'JJError', code: 'type', message: "column \"a\" mixes bytes with other values: integers (row 1, 1), bytes (row 2, x'0000') (give it a type, or make every value bytes)" });
  fails([{ a: 1 }, { a: () => 1 }], undefined, { name: 'TypeError', message: 'row 2, column "a": cannot write a function' });
  fails([{ a: [{ b: new Map() }] }], undefined, { name: 'TypeError', message: 'row 1, column "a", row 1, column "b": cannot write a Map (give a plain object, an array, a Date, bytes or a primitive)' });
  fails([{ a: { big: 1n } }], undefined, { name: 'TypeError', message: 'row 1, column "a": cannot write an object as JSON text (Do not know how to serialize a BigInt)' });
  fails([{ a: 1 }, 5], undefined, { name: 'JJError', code: 'row', row: 2, message: 'row 2: a row must be an object (an array row needs schema.columns), found 5' });
  fails([{ a: '\ud800' }], undefined, { name: 'JJError', code: 'utf8', row: 1 });
  fails([{ '': 1 }], undefined, { name: 'JJError', code: 'schema', message: 'row 1: an empty key cannot be a column name' });
  fails([], undefined, { name: 'JJError', code: 'schema', message: 'the input has no columns (it has no rows)' });
  fails([{ a: 1 }], { types: { b: 'i' } }, { name: 'JJError', code: 'schema', message: 'the schema names column "b", which the input does not have' });
  // a Date keeps the writer's rules and words
  fails([{ at: new Date(Date.UTC(10000, 0, 1)) }], undefined, { name: 'JJError', code: 'timestamp', message: 'row 1, column "at": the date +010000-01-01T00:00:00Z is outside years 0000-9999 that a timestamp can hold' });
  fails([{ at: new Date(NaN) }], undefined, { code: 'timestamp', message: 'row 1, column "at": an Invalid Date (its time is NaN) is not a timestamp' });
  fails([{ on: new Date(Date.UTC(2024, 0, 1, 12)) }], { types: { on: 'd' } }, { code: 'date', message: 'row 1, column "on": 2024-01-01T12:00:00.000Z is not a date (a date column takes a Date at midnight UTC)' });
  // wrong arguments
  fails([{ a: 1 }], { types: { a: 'q' } }, TypeError);
  fails([{ a: 1 }], { types: ['i'] }, TypeError); // an array of types needs columns: the full schema
  fails([{ a: 1 }], { types: { a: 'i' }, meta: {} }, { name: 'TypeError', message: 'encode(rows, schema): meta needs the full schema ({columns, types} as arrays)' });
  assert.throws(() => jj.encode([{ a: 1 }], undefined, { onnote: () => {} }), { name: 'TypeError', message: 'encode: unknown option "onnote" (known: onNote, badToNull)' });
  // after an error the module works on
  assert.equal(jj.encodeText([{ a: 1 }]), '{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[\n[1]\n]}');
});

test('encode: notes go to onNote only (nothing printed without it); onNote may call in', () => {
  const rows = [{ a: 1 }, { a: 'x' }];
  const seen = [];
  const doc = jj.encodeText(rows, undefined, { onNote: (m) => seen.push([m, jj.encodeText([{ inner: 1 }])]) });
  assert.match(doc, /"types":\["s"\]/);
  assert.deepEqual(seen, [['column "a": integers (row 1, 1), text (row 2, "x") -> s', '{"jalapenojson":1,"columns":["inner"],"types":["i"],"rows":[\n[1]\n]}']]);
  assert.throws(() => jj.encode(rows, undefined, { onNote: () => { throw new RangeError('stop'); } }), RangeError);
  assert.equal(jj.encodeText(rows), doc);
});

test('fromJSON and fromCSV: the CLI converter on text or bytes', () => {
  const csv = 'id,joined,score,city\n1,2024-01-02,1.5,Oslo\n2,,2,"Bergen, NO"\n3,2024-02-29,x,\n';
  for (const input of [csv, new TextEncoder().encode(csv)]) {
    const notes = [];
    const doc = jj.fromCSVText(input, { onNote: (m) => notes.push(m) });
    assert.deepEqual({ doc, notes }, cli(csv, 'in.csv'));
    assert.deepEqual(jj.fromCSV(input), new TextEncoder().encode(doc));
  }
  const tsv = 'a\tb\n1\tNA\ntrue\tx\n';
  assert.equal(jj.fromCSVText(tsv, { delimiter: '\t', null: 'NA', booleans: true, schema: { a: 's' } }), cli(tsv, 'in.csv', ['-d', 'tab', '--null', 'NA', '--csv-booleans', '--schema', 'a:s']).doc);
  assert.equal(jj.fromCSVText('a\n\n""\n', { emptyIsText: true }), cli('a\n\n""\n', 'in.csv', ['--empty-is-text']).doc);
  assert.equal(jj.fromJSONText('{"a":1}\n{"a":"2024-01-01"}', { schema: 'a:s' }), '{"jalapenojson":1,"columns":["a"],"types":["s"],"rows":[\n["1"],\n["2024-01-01"]\n]}');
  assert.deepEqual(jj.fromJSON(new TextEncoder().encode('[{"a":1}]').buffer), jj.encode([{ a: 1 }]));
  // errors, located as the C converter locates them
  assert.throws(() => jj.fromJSON('[{"a":1},{"a":tru}]', { name: 'in.json' }), { name: 'JJError', code: 'syntax', row: 2, column: 0, message: 'in.json: row 2, column "a", byte 14: expected a value, found "tru}]"' });
  assert.throws(() => jj.fromJSON('[{"a":1},{"a":"x"}]', { schema: { a: 'i' } }), { code: 'type', message: 'row 2, column "a", byte 14: "x" is not an integer (the schema says a:i)' });
  assert.throws(() => jj.fromCSV('a,b\n1\n'), { name: 'JJError', code: 'row', row: 1 });
  assert.throws(() => jj.fromJSON(''), { code: 'syntax', message: 'the input is empty' });
  assert.throws(() => jj.fromCSV('a\n1\n', { delimiter: '"' }), { name: 'JJError', code: 'usage' });
  assert.throws(() => jj.fromCSV('a\n1\n', { delimiter: ',,' }), TypeError);
  assert.throws(() => jj.fromJSON('[]', { delimiter: ',' }), TypeError);
  assert.throws(() => jj.fromJSON(5), TypeError);
});

test('encode keeps every row in memory, past the builder\'s 16 MiB default, without a temporary file', () => {
  const pad = 'x'.repeat(100);
  const rows = Array.from({ length: 200000 }, (_, i) => ({ i, s: pad + i }));
  const doc = jj.encode(rows);
  assert.ok(doc.length > 20 << 20);
  const v = jj.view(doc);
  assert.equal(v.length, 200000);
  assert.deepEqual(v.row(199999), { i: 199999, s: pad + 199999 });
  v.close();
});
