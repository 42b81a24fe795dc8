// memory.test.mjs — what the module's WebAssembly memory holds: a view
// holds room in proportion to what it reads (not a batch of 4,096 rows and
// a full table of interned text), views the garbage collector finalizes
// give their memory back for reuse, and a full memory (2 GiB at most) is a
// JJError that says so, after which closing views makes room again.  The
// loops that fill the memory run in child processes (js/testlib/
// memory_child.mjs): memory never shrinks, and node --test runs this file
// in one process.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import * as jj from '../jalapenojson.js';
import { JS_DIR } from '../testlib/helpers.mjs';

const { wasm, openViews } = jj._internals();
const READER = path.join(JS_DIR, 'dist/jalapenojson-reader.wasm');

const SMALL =
  '{"jalapenojson":1,"columns":["id","name","at","score"],"types":["i","s","t","f"],"rows":[\n' +
  '[1,"Ada","2024-01-02T03:04:05Z",2.5],\n[2,"Grace","2024-01-02T03:04:06Z",null]\n]}\n';

// Run memory_child.mjs MODE in a node of its own with a 256 MB JS heap;
// its line of JSON.
function child(mode, wasmPath) {
  const args = ['--expose-gc', '--max-old-space-size=256', path.join(JS_DIR, 'testlib/memory_child.mjs'), mode];
  if (wasmPath) args.push(wasmPath);
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', timeout: 120000, stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(out.trim().split('\n').pop());
}

// Per view, on average: 6 KiB at most (measured 3.6 KiB: the document's
// copy, its row index of 16 entries, the cursor, one row of batch room, a
// few strings' room of interned text).
const PER_VIEW = 6 * 1024;

test('a view that has read a row holds memory in proportion to it: 1,000 views of a small document take under 6 KiB each', () => {
  wasm();
  const before = wasm().memory.buffer.byteLength;
  const views = [];
  for (let i = 0; i < 1000; i++) {
    const v = jj.view(SMALL);
    assert.equal(v.row(1).name, 'Grace');
    views.push(v);
  }
  const per = (wasm().memory.buffer.byteLength - before) / 1000;
  assert.ok(per < PER_VIEW, `${per} bytes per view`);
  assert.equal(openViews(), 1000);
  for (const v of views) v.close();
  assert.equal(openViews(), 0);
  // closed, their memory is reused: as many again take none more
  const full = wasm().memory.buffer.byteLength;
  for (let i = 0; i < 1000; i++) {
    const v = jj.view(SMALL);
    v.row(0);
    v.close();
  }
  assert.equal(wasm().memory.buffer.byteLength, full);
});

test('interned text grows with the strings read, row() reads one-row batches, column() and iteration their own: decode, iteration, row() and column() agree on 10,000 rows', () => {
  // 6,000 distinct short names (past the 4,096 interned), then repeats
  const rows = [];
  for (let i = 0; i < 10000; i++) rows.push({ id: i, name: i < 6000 ? `n${i}` : `n${i % 7}`, score: i % 5 ? i / 4 : null });
  const doc = jj.encode(rows, { columns: ['id', 'name', 'score'], types: ['i', 's', 'f'] });
  assert.deepEqual(jj.decode(doc), rows);
  const v = jj.view(doc);
  try {
    assert.deepEqual([...v], rows);
    assert.deepEqual(v.column('name'), rows.map((r) => r.name));
    assert.deepEqual(v.column('score'), rows.map((r) => r.score));
    for (const i of [0, 17, 4095, 4096, 9999]) assert.deepEqual(v.row(i), rows[i]);
    assert.deepEqual([...v.column('id')], rows.map((r) => r.id));
  } finally {
    v.close();
  }
});

for (const [name, wasmPath] of [['the default module', undefined], ['the reader module', READER]]) {
  test(`${name}: 10,000 views never closed, twice, with the collector between: no error, and the second 10,000 reuse the memory the finalizers freed`, () => {
    const r = child('views', wasmPath);
    assert.equal(r.openAfter, 10000);
    assert.equal(r.openCollected, 0, 'the finalizers closed every view');
    assert.ok((r.first - r.before) / 10000 < PER_VIEW, `${(r.first - r.before) / 10000} bytes per view`);
    assert.equal(r.second, r.first, 'no more memory for the second 10,000');
  });
}

test('a full memory: a JJError that says what to do (not a RangeError), for view, decode and encode; closing the views makes room again', () => {
  const r = child('full');
  assert.ok(r.held >= 20 && r.held < 64, `${r.held} views of 40 MB held`);
  assert.ok(r.memory <= 2 ** 31, `${r.memory} bytes of memory`);
  const msg = new RegExp(
    `^out of memory: the WebAssembly memory is full \\(\\d+ MiB in use, 2048 MiB at most\\): ${r.held} views are open; close views you no longer need \\(view\\.close\\(\\)\\)`,
  );
  for (const e of [r, r.decode, r.encode]) {
    assert.equal(e.isJJError, true);
    assert.equal(e.code, 'out of memory');
    assert.match(e.message, msg);
  }
  assert.equal(r.name, 'JJError');
  assert.equal(r.openClosed, 0);
  assert.equal(r.again, true);
  assert.equal(r.decoded, 40);
  assert.ok(r.encoded > 8 << 20);
});
