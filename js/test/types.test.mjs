// types.test.mjs — every type, both ways, with its edge values; the
// options; the shapes of what decode(), view() and encode() take and give.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib from 'node:zlib';
import * as jj from '../jalapenojson.js';
import { checkText } from '../testlib/text.mjs';

// SPEC.md section 9, "Every type".
const EVERY = `{"jalapenojson":1,"columns":["id","name","price","day","at","ok","blob","items"],"types":["i","s","f","d","t","b","x",{"columns":["sku","qty"],"types":["s","i"]}],"rows":[
[1,"café",19.99,"2024-03-01","2024-03-01T10:30:00.25+05:30",true,"AAEC/w==",[["a-1",2],["b\\"2",1]]],
[2,null,"NaN",null,null,false,"",[]],
[-3,"tab\\there",-0.0,"0000-01-01","1970-01-01T00:00:00Z",null,null,null]
]}`;
const SCHEMA = {
  columns: ['id', 'name', 'price', 'day', 'at', 'ok', 'blob', 'items'],
  types: ['i', 's', 'f', 'd', 't', 'b', 'x', { columns: ['sku', 'qty'], types: ['s', 'i'] }],
};
const doc = (t, rows) => `{"jalapenojson":1,"columns":["v"],"types":[${JSON.stringify(t)}],"rows":[\n${rows.map((r) => `[${r}]`).join(',\n')}\n]}`;
const values = (t, rows, options) => jj.decode(doc(t, rows), options).map((r) => r.v);

test('every type: SPEC.md\'s example, decoded', () => {
  const rows = jj.decode(EVERY);
  assert.deepEqual(rows[0], {
    id: 1,
    name: 'café',
    price: 19.99,
    day: '2024-03-01',
    at: '2024-03-01T10:30:00.25+05:30',
    ok: true,
    blob: new Uint8Array([0, 1, 2, 255]),
    items: [{ sku: 'a-1', qty: 2 }, { sku: 'b"2', qty: 1 }],
  });
  assert.ok(Number.isNaN(rows[1].price));
  assert.deepEqual(rows[1].blob, new Uint8Array(0));
  assert.deepEqual(rows[1].items, []);
  assert.equal(rows[1].name, null);
  assert.ok(Object.is(rows[2].price, -0));
  assert.equal(rows[2].name, 'tab\there');
  assert.equal(rows[2].items, null);
  // and written back, byte for byte
  assert.equal(jj.encodeText(rows, SCHEMA), EVERY);
  // pretty-printed, with CRLF and tabs, it reads the same
  const pretty = EVERY.replace(/,\n/g, ',\r\n\t ').replace(/":/g, '" :\t').replace('"rows":[', '"rows" : [ ');
  assert.deepEqual(jj.decode(pretty), rows);
});

test('integers: numbers while safe, BigInt beyond (or always)', () => {
  const texts = ['0', '-0', '1', '9007199254740991', '-9007199254740991', '9007199254740992', '-9007199254740992', '9223372036854775807', '-9223372036854775808'];
  const got = values('i', texts);
  assert.deepEqual(got, [0, 0, 1, 2 ** 53 - 1, -(2 ** 53 - 1), 2n ** 53n, -(2n ** 53n), 2n ** 63n - 1n, -(2n ** 63n)]);
  assert.ok(Object.is(got[1], 0));
  assert.deepEqual(values('i', texts, { bigint: 'always' }), texts.map((t) => BigInt(t)));
  assert.deepEqual(values('i', ['null', '5'], { bigint: 'always' }), [null, 5n]);
  const back = jj.encodeText(got.map((v) => ({ v })), { columns: ['v'], types: ['i'] });
  assert.equal(back, doc('i', texts.map((t) => (t === '-0' ? '0' : t))));
  // any integral number or BigInt in range is written exactly
  assert.equal(jj.encodeText([[2 ** 60], [-(2 ** 63)], [2 ** 63 - 1024]], { columns: ['v'], types: ['i'] }), doc('i', ['1152921504606846976', '-9223372036854775808', '9223372036854774784']));
});

test('floats: correctly rounded, NaN, infinities and -0.0 exact', () => {
  const texts = ['0', '-0.0', '0.1', '19.99', '5e-324', '2.2250738585072011e-308', '1.7976931348623157e308', '9007199254740993', '0.30000000000000004', '1e23', '8.98846567431158e307', '123456789012345678901234567890', '1.00000000000000011102230246251565404236316680908203125', '"NaN"', '"Infinity"', '"-Infinity"', '1E+2', '-1e-400'];
  const got = values('f', texts);
  texts.forEach((t, i) => {
    const want = t.startsWith('"') ? Number(t.slice(1, -1)) : Number(t);
    assert.ok(Object.is(got[i], want), `${t}: ${got[i]} !== ${want}`);
  });
  const back = jj.decodeText(jj.encodeText(got.map((v) => [v]), { columns: ['v'], types: ['f'] }));
  back.forEach((r, i) => assert.ok(Object.is(r.v, got[i])));
  assert.equal(jj.encodeText([[1e16], [1.5e-5], [-0], [NaN], [-Infinity], [29]], { columns: ['v'], types: ['f'] }), doc('f', ['1e+16', '1.5e-05', '-0.0', '"NaN"', '"-Infinity"', '29.0']));
});

test('text: UTF-8 both ways, escapes, U+0000, astral characters', () => {
  const strings = ['', 'café', 'tab\there', '"quoted" \\ /', '\u0000\u0001\u001f\u007f', '😀 \uffff \u2028', 'Tromsø'];
  const bytes = jj.encode(strings.map((v) => [v]), { columns: ['v'], types: ['s'] });
  assert.deepEqual(jj.decode(bytes).map((r) => r.v), strings);
  assert.ok(new TextDecoder().decode(bytes).includes('"\\u0000\\u0001\\u001f\u007f"'));
  // a lone surrogate is no text: refused, never replaced
  assert.throws(() => jj.encode([['a\udc00']], { columns: ['v'], types: ['s'] }), { name: 'JJError', code: 'utf8' });
  // a document given as a string with a lone surrogate in a value
  assert.throws(() => jj.decodeText(doc('s', ['"a\ud800"'])), { name: 'JJError', code: 'utf8' });
});

test('dates: checked text by default, Date at midnight UTC by option', () => {
  const texts = ['"2024-02-29"', '"0000-01-01"', '"9999-12-31"', '"1970-01-01"', 'null'];
  assert.deepEqual(values('d', texts), ['2024-02-29', '0000-01-01', '9999-12-31', '1970-01-01', null]);
  const dates = values('d', texts, { dates: 'date' });
  assert.deepEqual(dates.slice(0, 4).map((d) => d.toISOString().slice(0, 10)), ['2024-02-29', '0000-01-01', '9999-12-31', '1970-01-01']);
  assert.ok(dates.slice(0, 4).every((d) => d.getTime() % 86400000 === 0));
  // Dates are written back as the same dates
  assert.equal(jj.encodeText(dates.map((v) => ({ v })), { columns: ['v'], types: ['d'] }), doc('d', texts));
  assert.throws(() => jj.encode([[new Date(Date.UTC(2024, 0, 1, 12))]], { columns: ['v'], types: ['d'] }), { code: 'date' });
  assert.throws(() => jj.encode([[new Date(NaN)]], { columns: ['v'], types: ['d'] }), { code: 'date' });
  assert.throws(() => values('d', ['"2023-02-29"']), { code: 'date' });
});

test('timestamps: their text with the zone by default; Date or {date, nanos, zone, digits} by option', () => {
  const texts = ['"2024-03-01T10:30:00.25+05:30"', '"1970-01-01T00:00:00Z"', '"0001-01-01T00:00:00.123456789-23:59"', '"9999-12-31T23:59:59.5Z"'];
  assert.deepEqual(values('t', texts), texts.map((t) => t.slice(1, -1)));
  const dates = values('t', texts, { timestamps: 'date' });
  assert.equal(dates[0].toISOString(), '2024-03-01T05:00:00.250Z');
  assert.equal(dates[2].toISOString(), '0001-01-01T23:59:00.123Z');
  const objects = values('t', texts, { timestamps: 'object' });
  assert.deepEqual(objects[0], { date: new Date('2024-03-01T05:00:00.250Z'), nanos: 250000000, zone: 330, digits: 2 });
  assert.deepEqual(objects[2], { date: new Date('0001-01-01T23:59:00.123Z'), nanos: 123456789, zone: -1439, digits: 9 });
  // the objects write back exactly; a Date writes in UTC with milliseconds
  assert.equal(jj.encodeText(objects.map((v) => [v]), { columns: ['v'], types: ['t'] }), doc('t', texts));
  assert.equal(jj.encodeText([[new Date('2024-03-01T05:00:00.250Z')], [new Date(0)]], { columns: ['v'], types: ['t'] }), doc('t', ['"2024-03-01T05:00:00.250Z"', '"1970-01-01T00:00:00Z"']));
  assert.throws(() => jj.encode([[{ date: new Date(0), nanos: 5e8 }]], { columns: ['v'], types: ['t'] }), { code: 'timestamp' });
  assert.throws(() => jj.encode([['2024-03-01T24:00:00Z']], { columns: ['v'], types: ['t'] }), { code: 'timestamp', message: 'row 1, column "v": "2024-03-01T24:00:00Z" is not a timestamp (hour 24 does not exist)' });
});

test('local timestamps: their text, whatever the timestamps option (a Date would invent a zone)', () => {
  const texts = ['"2024-03-01T10:30:00.25"', '"1970-01-01T00:00:00"', '"0000-01-01T00:00:00.123456789"', '"9999-12-31T23:59:59.5"'];
  for (const timestamps of ['string', 'date', 'object'])
    assert.deepEqual(values('l', texts, { timestamps }), texts.map((t) => t.slice(1, -1)));
  // the strings write back; SQLite's space form is written with the T
  assert.equal(jj.encodeText(texts.map((t) => [t.slice(1, -1)]), { columns: ['v'], types: ['l'] }), doc('l', texts));
  assert.equal(jj.encodeText([['2024-03-01 10:30:00']], { columns: ['v'], types: ['l'] }), doc('l', ['"2024-03-01T10:30:00"']));
  assert.throws(() => jj.encode([['2024-03-01T10:30:00Z']], { columns: ['v'], types: ['l'] }), {
    code: 'timestamp',
    message: 'row 1, column "v": "2024-03-01T10:30:00Z" is not a local timestamp (a local timestamp has no zone)',
  });
  assert.throws(() => jj.encode([[new Date(0)]], { columns: ['v'], types: ['l'] }), { code: 'type' });
  // inferred: zone-less text is l, the space form written with a T and told
  const notes = [];
  const inferred = new TextDecoder().decode(jj.encode([{ at: '2024-03-01 10:30:00' }, { at: '2024-03-01T23:59:59.5' }], undefined, { onNote: (n) => notes.push(n) }));
  assert.equal(inferred, '{"jalapenojson":1,"columns":["at"],"types":["l"],"rows":[\n["2024-03-01T10:30:00"],\n["2024-03-01T23:59:59.5"]\n]}');
  assert.match(notes.join('\n'), /written with T for the space/);
  // with a timestamp that has a zone: text, told
  notes.length = 0;
  jj.encode([{ at: '2024-03-01T10:30:00' }, { at: new Date(0) }], undefined, { onNote: (n) => notes.push(n) });
  assert.match(notes.join('\n'), /-> s \(timestamps with and without a zone/);
});

test('booleans and bytes', () => {
  assert.deepEqual(values('b', ['true', 'false', 'null']), [true, false, null]);
  assert.deepEqual(values('x', ['"AAEC/w=="', '""', '"QQ=="', 'null']), [new Uint8Array([0, 1, 2, 255]), new Uint8Array(0), new Uint8Array([65]), null]);
  const b = new Uint8Array([1, 2, 3, 4]);
  const schema = { columns: ['v'], types: ['x'] };
  const want = doc('x', ['"AQIDBA=="']);
  for (const v of [b, b.buffer, new DataView(b.buffer), Buffer.from(b), new Uint16Array(b.buffer)]) assert.equal(jj.encodeText([[v]], schema), want);
  assert.throws(() => jj.encode([['AQIDBA==']], schema), { code: 'type' });
  assert.throws(() => jj.encode([[1]], { columns: ['v'], types: ['b'] }), { code: 'type' });
});

test('nested tables: arrays of objects from decode(), views from view(), any of these into encode()', () => {
  const v = jj.view(EVERY);
  const items = v.row(0).items;
  assert.ok(items instanceof Object && typeof items.column === 'function');
  assert.deepEqual(items.columns, ['sku', 'qty']);
  assert.deepEqual(items.types, ['s', 'i']);
  assert.equal(items.length, 2);
  assert.deepEqual(items.column('sku'), ['a-1', 'b"2']);
  assert.deepEqual(items.row(1), { sku: 'b"2', qty: 1 });
  assert.deepEqual([...items], [{ sku: 'a-1', qty: 2 }, { sku: 'b"2', qty: 1 }]);
  const col = v.column('items');
  assert.equal(col[2], null);
  assert.equal(col[1].length, 0);
  assert.deepEqual(items.row(0), { sku: 'a-1', qty: 2 });
  const it = v[Symbol.iterator]();
  it.next();
  v.close();
  // closing a view closes the views and iterations made from it
  assert.throws(() => items.row(0), { name: 'JJError', message: 'the view is closed' });
  assert.throws(() => it.next(), { name: 'JJError', message: 'the view is closed' });
  items.close();
  // written from arrays of arrays, objects, or views
  const rows = jj.decode(EVERY);
  const asArrays = rows.map((r) => SCHEMA.columns.map((c) => (c === 'items' && r.items ? r.items.map((i) => [i.sku, i.qty]) : r[c])));
  assert.equal(jj.encodeText(asArrays, SCHEMA), EVERY);
  const w = jj.view(EVERY);
  assert.equal(jj.encodeText([...w], SCHEMA), EVERY);
  assert.equal(jj.encodeText(w, SCHEMA), EVERY);
  w.close();
});

test('view: columns, types, length, row(), column(), iteration, close()', () => {
  const d = doc('f', ['1.5', '2.5', '-0.0']);
  const v = jj.view(d);
  assert.ok(Object.isFrozen(v.columns) && Object.isFrozen(v.types));
  assert.equal(v.length, 3);
  assert.equal(v.row(-1), undefined);
  assert.equal(v.row(3), undefined);
  assert.throws(() => v.row(1.5), TypeError);
  const f = v.column('v');
  assert.ok(f instanceof Float64Array);
  assert.deepEqual([...f], [1.5, 2.5, -0]);
  assert.deepEqual(v.column(0), f);
  assert.throws(() => v.column('w'), { name: 'JJError', code: 'usage', message: 'no column "w"' });
  assert.throws(() => v.column(1), { name: 'JJError', code: 'usage' });
  assert.deepEqual([...v].map((r) => r.v), [1.5, 2.5, -0]);
  // iteration keeps its place while row() and column() are called
  const it = v[Symbol.iterator]();
  assert.equal(it.next().value.v, 1.5);
  v.row(2);
  v.column('v');
  assert.equal(it.next().value.v, 2.5);
  it.return();
  v.close();
  assert.throws(() => v.row(0), { name: 'JJError', code: 'usage', message: 'the view is closed' });
  v.close(); // twice is fine
  // a float column with a null is an array with null
  const n = jj.view(doc('f', ['1', 'null']));
  assert.deepEqual(n.column('v'), [1, null]);
  n[Symbol.dispose]();
  // integers: an array, BigInt where not safe
  const i = jj.view(doc('i', ['1', '9223372036854775807', 'null']));
  assert.deepEqual(i.column('v'), [1, 2n ** 63n - 1n, null]);
  i.close();
  // a long column, over several batches
  const many = Array.from({ length: 10000 }, (_, k) => [k * 0.5, `s${k % 7}`, k]);
  const m = jj.view(jj.encode(many, { columns: ['f', 's', 'i'], types: ['f', 's', 'i'] }));
  assert.deepEqual([...m.column('f')], many.map((r) => r[0]));
  assert.deepEqual(m.column('s'), many.map((r) => r[1]));
  assert.deepEqual(m.row(9999), { f: 4999.5, s: 's3', i: 9999 });
  assert.equal([...m].length, 10000);
  m.close();
});

test('inputs: strings, Uint8Array, ArrayBuffer, other views, Buffer, gzip; TypeError for others', () => {
  const bytes = new TextEncoder().encode(EVERY);
  const want = jj.decode(EVERY);
  for (const input of [bytes, bytes.buffer, new DataView(bytes.buffer), Buffer.from(bytes), zlib.gzipSync(bytes)]) assert.deepEqual(jj.decode(input), want);
  assert.deepEqual(jj.view(zlib.gzipSync(bytes)).column('name'), jj.view(EVERY).column('name'));
  assert.deepEqual(jj.decodeText(EVERY), want);
  assert.throws(() => jj.decodeText(bytes), TypeError);
  assert.throws(() => jj.decode(5), TypeError);
  assert.throws(() => jj.decode(EVERY, { dates: 'yes' }), TypeError);
  assert.throws(() => jj.decode(EVERY, { bigint: true }), TypeError);
  assert.throws(() => jj.decode(EVERY, { maxDepth: -1 }), TypeError);
  assert.throws(() => jj.decode(zlib.gzipSync(bytes), { maxSize: 100 }), { code: 'limit', message: 'decompressed size exceeds the limit of 100 bytes' });
  assert.throws(() => jj.decode(zlib.gzipSync(bytes).subarray(0, 30)), { code: 'compression', message: 'gzip stream is truncated' });
});

test('encode: rows as objects or arrays, meta, "__proto__" columns, strings out', async () => {
  const schema = { columns: ['__proto__', 'n'], types: ['s', 'i'], meta: { source: 'test', n: [1, 2] } };
  const row = JSON.parse('{"__proto__":"p","n":1}');
  const text = jj.encodeText([row, ['q', 2], { n: 3 }], schema);
  assert.equal(text, '{"jalapenojson":1,"columns":["__proto__","n"],"types":["s","i"],"meta":{"source":"test","n":[1,2]},"rows":[\n["p",1],\n["q",2],\n[null,3]\n]}');
  const back = jj.decodeText(text);
  assert.equal(Object.getPrototypeOf(back[0]), Object.prototype);
  assert.ok(Object.hasOwn(back[0], '__proto__'));
  assert.equal(back[0].__proto__, 'p'); // an own property, as JSON.parse makes it
  assert.deepEqual(back[0], JSON.parse('{"__proto__":"p","n":1}'));
  assert.equal(jj.encodeText([], { columns: ['a'], types: ['i'] }), '{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[\n]}');
  // any iterable of rows
  function* gen() {
    yield [1];
    yield [2];
  }
  assert.equal(jj.encodeText(gen(), { columns: ['a'], types: ['i'] }), '{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[\n[1],\n[2]\n]}');
  assert.ok(jj.encode([], { columns: ['a'], types: ['i'] }) instanceof Uint8Array);
  await jj.init(); // a no-op once loaded
});

test('text of every length from 0 to 90 bytes, 1- to 4-byte characters mixed, comes back exactly', () => {
  assert.ok(checkText(jj) > 500);
});

test('j: JSON values decode as JSON.parse gives them, any spelling; encode takes any JSON value', () => {
  const got = values('j', ['{"a":[1,2.50,null],"b":{"c":"é\\n"}}', '[ 1 , { "k" : "\\u00e9\\/" } ]', '"text"', '5',
    'true', '[]', '{"k":1,"k":2}', 'null']);
  assert.deepEqual(got, [{ a: [1, 2.5, null], b: { c: 'é\n' } }, [1, { k: 'é/' }], 'text', 5, true, [], { k: 2 }, null]);
  assert.deepEqual(jj.view(doc('j', ['{}'])).types, ['j']);
  // written canonically by the C writer, whatever JSON.stringify gave
  const text = jj.encodeText([{ v: { a: 'é\u0001' } }, { v: [1, 'x'] }, { v: 'str' }, { v: null }],
    { columns: ['v'], types: ['j'] });
  assert.equal(text, doc('j', ['{"a":"é\\u0001"}', '[1,"x"]', '"str"', 'null']));
  assert.throws(() => jj.encode([{ v: () => 1 }], { columns: ['v'], types: ['j'] }), /has no JSON text/);
  // inferred: objects and arrays that are not rows make j, as the converter does
  const rows = [{ g: { type: 'Point', coordinates: [1.5, -2] } }, { g: [1, 'a'] }, { g: 5 }];
  const inferred = jj.encode(rows);
  assert.deepEqual(jj.view(inferred).types, ['j']);
  assert.deepEqual(jj.decode(inferred), rows);
  assert.deepEqual(jj.decode(jj.fromJSON(JSON.stringify(rows))), rows);
  // a bad value is the C reader's located error
  assert.throws(() => values('j', ['01']), /row 1, column "v", byte \d+: not valid JSON: invalid number/);
});
