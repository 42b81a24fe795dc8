// safety.test.mjs — hostile input and the instance: every failure is a
// JJError (the same as the C reader's), no input traps the instance or
// leaks its memory, a trap is survived, and the table the module computes
// at load time is core/numtables.c's.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as jj from '../jalapenojson.js';
import { SEED_DOCS, cMessage, mutate, readAll } from '../testlib/corpus.mjs';
import { ROOT, cGen, rng } from '../testlib/helpers.mjs';

const { wasm, mem, call, generation, checkRange } = jj._internals();
wasm(); // loaded now: generation() counts replacements from here

test('hostile bytes: JJErrors only, the C reader\'s messages, no trap, no leak', () => {
  const rand = rng(99);
  const gen0 = generation();
  let failures = 0;
  let compared = 0;
  const N = Number(process.env.JJ_FUZZ_CASES || 3000);
  let size = 0;
  for (let i = 0; i < N; i++) {
    const bytes = mutate(rand, SEED_DOCS[i % SEED_DOCS.length]);
    const [plain] = readAll(bytes);
    if (plain instanceof jj.JJError) {
      failures++;
      // the first error is the C reader's, word for word (a sample: one
      // process each)
      if (i % 10 === 0) {
        assert.equal(plain.message, cMessage(bytes), `case ${i}`);
        compared++;
      }
    }
    if (i === 1000) size = wasm().memory.buffer.byteLength;
  }
  assert.equal(generation(), gen0, 'no trap');
  assert.ok(failures > N / 4, `most mutations fail (${failures} of ${N})`);
  assert.ok(compared > 50);
  // memory settled after the first thousand documents: nothing leaks
  assert.equal(wasm().memory.buffer.byteLength, size, 'the instance\'s memory kept growing');
});

test('repeated use does not grow the memory', () => {
  const doc = cGen(4, 200);
  const schema = (() => {
    const v = jj.view(doc);
    const s = { columns: v.columns, types: v.types };
    v.close();
    return s;
  })();
  const run = () => {
    const rows = jj.decode(doc);
    jj.encode(rows, schema);
    const v = jj.view(doc);
    for (const c of v.columns) v.column(c);
    [...v];
    v.close();
    try {
      jj.decode(doc.subarray(0, doc.length - 5));
    } catch {}
  };
  for (let i = 0; i < 30; i++) run();
  const size = wasm().memory.buffer.byteLength;
  for (let i = 0; i < 200; i++) run();
  assert.equal(wasm().memory.buffer.byteLength, size);
  // large documents too: the writer's growing buffer, the copies of the
  // document, the batches
  const big = Array.from({ length: 30000 }, (_, i) => [i, `text ${i}`, i / 7]);
  const bigSchema = { columns: ['i', 's', 'f'], types: ['i', 's', 'f'] };
  const bigRun = () => {
    const bytes = jj.encode(big, bigSchema);
    jj.decode(bytes);
    const v = jj.view(bytes);
    v.column('s');
    v.row(20000);
    v.close();
  };
  bigRun();
  bigRun();
  const bigSize = wasm().memory.buffer.byteLength;
  for (let i = 0; i < 10; i++) bigRun();
  assert.equal(wasm().memory.buffer.byteLength, bigSize);
});

test('a trap replaces the instance: a JJError, old views refuse, new calls work', () => {
  const doc = '{"jalapenojson":1,"columns":["a"],"types":["i"],"rows":[[1]]}';
  const v = jj.view(doc);
  const before = generation();
  // free() of a wild pointer: an out-of-bounds access in the instance
  assert.throws(() => call(() => wasm().exports.jjw_release(0xfffffff0)), { name: 'JJError', code: 'internal' });
  assert.equal(generation(), before + 1);
  assert.throws(() => v.row(0), { name: 'JJError', code: 'internal' });
  v.close(); // harmless
  assert.deepEqual(jj.decode(doc), [{ a: 1 }]);
  assert.deepEqual(jj.decode('{"jalapenojson":1,"columns":["f"],"types":["f"],"rows":[[1.7976931348623157e308],[2.2250738585072011e-308]]}').map((r) => r.f), [1.7976931348623157e308, 2.2250738585072011e-308]);
});

test('pointers from the instance are checked before JS reads them', () => {
  wasm();
  const size = mem().u8.length;
  assert.throws(() => checkRange(size - 4, 8), { name: 'JJError', code: 'internal' });
  assert.throws(() => checkRange(-1, 1), { code: 'internal' });
  assert.throws(() => checkRange(3, 8, 8), { code: 'internal' });
  checkRange(0, size);
});

test("the pow5 table computed at load time is core/numtables.c's", () => {
  const src = fs.readFileSync(path.join(ROOT, 'core/numtables.c'), 'utf8');
  const want = [...src.matchAll(/\{0x([0-9a-f]{16})u, 0x([0-9a-f]{16})u\}/g)].map((m) => [BigInt('0x' + m[1]), BigInt('0x' + m[2])]);
  assert.equal(want.length, 667);
  const at = wasm().exports.jjw_pow5();
  const got = new BigUint64Array(wasm().memory.buffer, at, 667 * 2);
  want.forEach(([hi, lo], i) => {
    assert.equal(got[2 * i], hi, `entry ${i} high`);
    assert.equal(got[2 * i + 1], lo, `entry ${i} low`);
  });
});

test('deep nesting: up to the largest depth limit, no trap; deeper, a JJError', () => {
  const gen0 = generation();
  const nested = (levels) => {
    let t = '"i"';
    let v = '1';
    for (let k = 0; k < levels; k++) {
      t = `{"columns":["x"],"types":[${t}]}`;
      v = `[[${v}]]`;
    }
    return { type: JSON.parse(t), doc: `{"jalapenojson":1,"columns":["a"],"types":[${t}],"rows":[\n[${v}]\n]}` };
  };
  const { type, doc } = nested(512);
  const rows = jj.decode(doc, { maxDepth: 1024 });
  assert.ok(jj.encodeText(rows, { columns: ['a'], types: [type] }) === doc, 'written back differently');
  assert.throws(() => jj.decode(nested(513).doc, { maxDepth: 1024 }), { name: 'JJError', code: 'depth' });
  assert.throws(() => jj.decode(doc), { name: 'JJError', code: 'depth' }); // the default limit, 64
  assert.throws(() => jj.decode(doc, { maxDepth: 1025 }), TypeError);
  assert.throws(() => jj.encode([], { columns: ['a'], types: [nested(513).type] }), TypeError);
  // arrays nested in a value are skipped without recursion, at any depth
  const deep = '['.repeat(200000) + ']'.repeat(200000);
  assert.throws(() => jj.decode(`{"jalapenojson":1,"columns":["a"],"types":["s"],"rows":[[${deep}]]}`, { maxDepth: 1024 }), { code: 'depth' });
  assert.equal(generation(), gen0, 'no trap');
});
