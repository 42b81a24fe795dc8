// reader.test.mjs — the reader-only module (dist/jalapenojson-reader.wasm)
// reads what the C reader reads, with its messages.  It is built unlike
// the default module (for size: -Oz, link-time optimization, no 8-byte
// number paths, its own memchr and strlen, and a number parser that
// leaves what its fast path does not take to lib/number.js), so the
// checks the other files make on the default module run here on it:
// numbers bit for bit against C, C-written documents, SPEC.md's messages,
// hostile bytes, JSONTestSuite, deep nesting.  This file loads the reader
// module for its whole process (node --test runs each file in its own).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import zlib from 'node:zlib';
import * as jj from '../jalapenojson.js';
import { nearest, parseNumber } from '../lib/number.js';
import { runSuite } from '../testlib/conformance.mjs';
import { OTHERS, SEED_DOCS, cMessage, mutate, readAll } from '../testlib/corpus.mjs';
import { cDump, cGen, jsDump, rng } from '../testlib/helpers.mjs';
import { checkText } from '../testlib/text.mjs';

await jj.init({ wasm: new URL('../dist/jalapenojson-reader.wasm', import.meta.url) });
const { wasm, generation } = jj._internals();

test('the reader module is loaded: no writer, no table of powers of five', () => {
  const x = wasm().exports;
  assert.equal(typeof x.jjw_read, 'function');
  assert.equal(x.jjw_writer_new, undefined);
  assert.equal(x.jjw_pow5, undefined);
  assert.throws(() => jj.encode([], { columns: ['a'], types: ['i'] }), { code: 'usage', message: 'this build of the module has no writer' });
});

test("the reader module's size: within 34 KB and 13 KB gzipped (gzip -9 by Node's zlib, as bench/js_run.mjs measures it; KB here 1,024 bytes, bench/JS_RESULTS.md checks 13,000 too)", () => {
  const bytes = fs.readFileSync(new URL('../dist/jalapenojson-reader.wasm', import.meta.url));
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  assert.ok(bytes.length <= 34000, `${bytes.length} bytes`);
  assert.ok(gz <= 13 * 1024, `${gz} bytes gzipped`);
});

// ---- Numbers ---------------------------------------------------------------

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const bitsOf = (x) => ((f64[0] = x), u64[0]);
const fromBits = (b) => ((u64[0] = b), f64[0]);

// Decimal texts of the halfway point between the double of bits b and the
// next one, and of numbers a hair below and above it (the hardest inputs:
// more than 20 digits, so lib/number.js's BigInt comparisons decide).
function halfways(b) {
  const e = b >> 52n;
  const m = e === 0n ? b & 0xfffffffffffffn : (b & 0xfffffffffffffn) | (1n << 52n);
  const k = (e === 0n ? 1n : e) - 1075n; // the double is m * 2^k
  const num = 2n * m + 1n; // the halfway point is num * 2^(k-1)
  const ex = k - 1n;
  const digits = ex < 0n ? num * 5n ** -ex : num << ex;
  const dexp = ex < 0n ? ex : 0n;
  return [0n, -1n, 1n].map((d) => `${digits * 1000n + d}e${dexp - 3n}`);
}

// Float texts: the edges of the double range, long and short, random.
function floatTexts(rand) {
  const out = ['0', '-0', '0.0', '-0.0e999', '0e-99999999999999999999', '1', '-1.5', '0.1', '19.99', '1e22', '1e23', '9007199254740993',
    '0.30000000000000004', '2.2250738585072011e-308', '2.2250738585072014e-308', '4.9406564584124654e-324', '2.4703282292062328e-324',
    '2.4703282292062327e-324', '1.7976931348623157e308', '1.7976931348623158e308', '1e-400', '-1e-400', '123456789012345678901234567890',
    '0.' + '0'.repeat(300) + '1' + '9'.repeat(40), '1' + '0'.repeat(308), '9'.repeat(800) + 'e-500', '1' + '0'.repeat(1000) + '1e-1000',
    '1.00000000000000011102230246251565404236316680908203125', '1.00000000000000011102230246251565404236316680908203124999'];
  for (const b of [0n, 1n, 0xfffffffffffffn, 0x10000000000000n, 0x3ff0000000000000n, 0x7fefffffffffffffn - 1n]) out.push(...halfways(b));
  for (let i = 0; i < 1500; i++) {
    const digits = Array.from({ length: 1 + Math.floor(rand() * 40) }, () => Math.floor(rand() * 10)).join('').replace(/^0+(?=\d)/, '');
    const frac = rand() < 0.5 ? '' : '.' + Math.floor(rand() * 1e9);
    const exp = rand() < 0.3 ? '' : `e${Math.floor(rand() * 700) - 350}`;
    out.push((rand() < 0.3 ? '-' : '') + digits + frac + exp);
    if (i % 5 === 0) out.push(...halfways(bitsOf(rand() * 10 ** (Math.floor(rand() * 600) - 300))));
  }
  return out;
}

test('numbers: every float reads as the C reader reads it, bit for bit (its parser is correctly rounded)', () => {
  const texts = floatTexts(rng(7));
  const ok = [];
  const tooBig = [];
  for (const s of texts) (Math.abs(Number(s)) === Infinity ? tooBig : ok).push(s);
  assert.ok(ok.length > 1500 && tooBig.length > 10);
  const doc = (rows) => `{"jalapenojson":1,"columns":["f"],"types":["f"],"rows":[\n${rows.map((s) => `[${s}]`).join(',\n')}\n]}`;
  const bytes = Buffer.from(doc(ok));
  assert.equal(jsDump(jj, bytes), cDump(bytes));
  // and as Number() reads them (V8's is correctly rounded too)
  const col = jj.view(bytes).column('f');
  ok.forEach((s, i) => assert.ok(Object.is(col[i], Number(s)), `${s} read as ${col[i]}`));
  // beyond the largest double: the C reader's message
  for (const s of tooBig.slice(0, 20)) {
    let msg = null;
    try {
      jj.decode(doc(['1', s]));
    } catch (err) {
      assert.equal(err.code, 'range', s);
      msg = err.message;
    }
    assert.equal(msg, cMessage(doc(['1', s])), s);
  }
});

test('numbers: every integer reads as the C reader reads it (its parser shares the float grammar), every bad one with its message', () => {
  const rand = rng(11);
  const good = ['0', '-0', '7', '-1', '9007199254740991', '9007199254740993', '-9007199254740993', '9223372036854775807',
    '-9223372036854775808', '1000000000000000000', '-999999999999999999'];
  for (let i = 0; i < 300; i++) {
    const digits = String(1 + Math.floor(rand() * 9)) + Array.from({ length: Math.floor(rand() * 18) }, () => Math.floor(rand() * 10)).join('');
    good.push((rand() < 0.5 ? '-' : '') + digits);
  }
  const doc = (rows) => `{"jalapenojson":1,"columns":["i"],"types":["i"],"rows":[\n${rows.map((s) => `[${s}]`).join(',\n')}\n]}`;
  const bytes = Buffer.from(doc(good));
  assert.equal(jsDump(jj, bytes), cDump(bytes));
  // grammar (syntax), a fraction or exponent (range: not an integer), too large (range), in that order
  const bad = ['9223372036854775808', '-9223372036854775809', '18446744073709551616', '12345678901234567890123', '00', '-01', '-',
    '1.0', '1e3', '1E+3', '-0.0', '1.', '1.e3', '1e', '1e+', '.5', '12345678901234567890123.5', '01.5', '1.5.5', '--1', '1-', '+1', '0e0'];
  for (const s of bad) {
    let msg = null;
    try {
      jj.decode(doc(['1', s]));
    } catch (err) {
      msg = err.message;
    }
    assert.notEqual(msg, null, s);
    assert.equal(msg, cMessage(doc(['1', s])), s);
  }
});

test('lib/number.js corrects a neighbour of the right double to it (Node never needs it)', () => {
  const rand = rng(11);
  let checked = 0;
  for (const s of floatTexts(rand)) {
    const want = Number(s);
    const sig = s.replace(/^-/, '').replace(/[eE].*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length;
    assert.ok(Object.is(parseNumber(s), want), s);
    if (sig <= 20) continue; // Number() is exact there, and trusted
    for (const step of [1n, -1n]) {
      const b = bitsOf(Math.abs(want)) + step;
      if (b < 0n || b > 0x7ff0000000000000n) continue;
      const near = fromBits(b) * (s[0] === '-' ? -1 : 1);
      assert.ok(Object.is(nearest(s, near), want), `${s}: from ${near} to ${nearest(s, near)}, not ${want}`);
      checked++;
    }
  }
  assert.ok(checked > 1000, `${checked} corrections checked`);
});

// ---- Bytes -------------------------------------------------------------------

test('bytes: every base64 text reads as the C reader reads it, every bad one with its first error (this module decodes a character per step)', () => {
  const rand = rng(13);
  const pick = (set) => set[Math.floor(rand() * set.length)];
  const texts = new Set(['', 'QQ==', 'QR==', 'QQ', 'Q===', 'QQ=A', '====', '=AAA', 'QUJD', 'QUI=', 'QUJ=', 'AA=A', 'A', 'AB', 'ABC', 'AB=', 'A==', 'QQ==QQ==', 'QUJDRA==']);
  while (texts.size < 3000) {
    let t = '';
    if (texts.size % 2) {
      // the encoding of random bytes, now and then with one character changed
      t = Buffer.from(Array.from({ length: Math.floor(rand() * 11) }, () => Math.floor(rand() * 256))).toString('base64');
      if (t && rand() < 0.3) {
        const i = Math.floor(rand() * t.length);
        t = t.slice(0, i) + pick('=A/*Q-') + t.slice(i + 1);
      }
    } else {
      // mostly the alphabet, '=' often near the end, now and then a byte outside it
      const n = Math.floor(rand() * 14);
      for (let i = 0; i < n; i++) {
        const r = rand();
        t += r < 0.04 ? pick(['*', '-', '_', ' ', '\\n', '.', '\u00e9']) : r < (i >= n - 3 ? 0.4 : 0.06) ? '=' : pick('ABQgwAE+/09az');
      }
    }
    texts.add(t);
  }
  const doc = (list) => `{"jalapenojson":1,"columns":["x"],"types":["x"],"rows":[\n${list.map((t) => `[${JSON.stringify(t)}]`).join(',\n')}\n]}`;
  const good = [];
  const bad = [];
  for (const t of texts) {
    try {
      jj.decode(doc([t]));
      good.push(t);
    } catch (e) {
      assert.equal(e.code, 'base64', `${JSON.stringify(t)}: ${e.message}`);
      bad.push([t, e.message]);
    }
  }
  assert.ok(good.length > 800 && bad.length > 800, `${good.length} good, ${bad.length} bad`);
  const bytes = Buffer.from(doc(good));
  assert.equal(jsDump(jj, bytes), cDump(bytes));
  // the C reader's message for each kind of mistake at every offset seen,
  // and for a sample of the rest
  const seen = new Set();
  let compared = 0;
  for (const [t, msg] of bad) {
    const kind = `${t.length % 4} ${msg.replace(/^.*\((.*)\)$/, '$1')} ${msg.match(/byte (\d+)/)[1]}`;
    if (seen.has(kind) && rand() > 0.06) continue;
    seen.add(kind);
    assert.equal(msg, cMessage(doc([t])), JSON.stringify(t));
    compared++;
  }
  assert.ok(compared > 100, `${compared} messages compared`);
});

// ---- Everything else, as the other files check it on the default module ----

test('C-written documents read as C reads them: decode, views by column, by row', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const bytes = cGen(seed, seed % 17);
    assert.equal(jsDump(jj, bytes), cDump(bytes), `seed ${seed}`);
    const rows = jj.decode(bytes);
    const v = jj.view(bytes);
    assert.equal(v.length, rows.length);
    v.columns.forEach((name, c) => {
      if (typeof v.types[c] !== 'string') return;
      const col = v.column(name);
      rows.forEach((row, r) => assert.deepEqual(col[r], row[name], `seed ${seed} ${name}[${r}]`));
    });
    if (rows.length) assert.deepEqual(Object.keys(v.row(rows.length - 1)), v.columns);
    v.close();
  }
});

test("SPEC.md's messages and hostile bytes: the C reader's words, no trap, no leak", () => {
  for (const [doc, phrase, options] of OTHERS) {
    let msg = null;
    try {
      jj.decode(doc, options);
    } catch (e) {
      assert.ok(e instanceof jj.JJError, String(e));
      msg = e.message;
    }
    assert.ok(msg && msg.includes(phrase), `${msg} does not say ${phrase}`);
    if (!options) assert.equal(msg, cMessage(doc), phrase);
  }
  const rand = rng(5);
  const gen0 = generation();
  let compared = 0;
  let size = 0;
  for (let i = 0; i < 1500; i++) {
    const bytes = mutate(rand, SEED_DOCS[i % SEED_DOCS.length]);
    const [plain] = readAll(bytes);
    if (plain instanceof jj.JJError && i % 10 === 0) {
      assert.equal(plain.message, cMessage(bytes), `case ${i}`);
      compared++;
    }
    if (i === 300) size = wasm().memory.buffer.byteLength;
  }
  assert.equal(generation(), gen0, 'no trap');
  assert.ok(compared > 30);
  assert.equal(wasm().memory.buffer.byteLength, size, 'the memory kept growing');
});

test('JSONTestSuite: string and number cases as values, on the reader module', (t) => runSuite(t, 'reader: conformance'));

test('deep nesting: up to the largest depth limit, no trap (the stack suffices); deeper, a JJError', () => {
  const gen0 = generation();
  const nested = (levels) => {
    let t = '"i"';
    let v = '1';
    for (let k = 0; k < levels; k++) {
      t = `{"columns":["x"],"types":[${t}]}`;
      v = `[[${v}]]`;
    }
    return `{"jalapenojson":1,"columns":["a"],"types":[${t}],"rows":[\n[${v}]\n]}`;
  };
  let got = jj.decode(nested(512), { maxDepth: 1024 })[0].a;
  for (let k = 1; k < 512; k++) got = got[0].x;
  assert.deepEqual(got, [{ x: 1 }]);
  assert.throws(() => jj.decode(nested(513), { maxDepth: 1024 }), { name: 'JJError', code: 'depth' });
  const deep = '['.repeat(200000) + ']'.repeat(200000);
  assert.throws(() => jj.decode(`{"jalapenojson":1,"columns":["a"],"types":["s"],"rows":[[${deep}]]}`, { maxDepth: 1024 }), { code: 'depth' });
  assert.equal(generation(), gen0, 'no trap');
});

test('text of every length from 0 to 90 bytes, 1- to 4-byte characters mixed, comes back exactly', () => {
  assert.ok(checkText(jj) > 500);
});

test('j: the reader module reads JSON columns as JSON.parse gives them, and refuses bad ones', () => {
  const d = '{"jalapenojson":1,"columns":["v"],"types":["j"],"rows":[\n[ { "a" : [1, "\\u00e9"] } ],\n["s"],\n[01]\n]}';
  const v = jj.view(d);
  assert.deepEqual(v.row(0).v, { a: [1, 'é'] });
  assert.equal(v.row(1).v, 's');
  assert.throws(() => v.row(2), /row 3, column "v", byte \d+: not valid JSON: invalid number/);
  v.close();
});
