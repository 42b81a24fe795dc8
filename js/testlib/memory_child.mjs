// memory_child.mjs MODE [WASM] — what js/test/memory.test.mjs runs in a
// child process of its own (node --expose-gc, a capped JS heap), because
// it fills the module's memory, which never shrinks: prints one line of
// JSON with what it measured, or throws.  WASM: the module to load (by
// default dist/jalapenojson.wasm).
//   views: 10,000 views over a small document, each reading a row, none
//     closed, in one synchronous loop (the garbage collector finalizes
//     nothing before it ends); then the collector runs, and as many again.
//   full: views of a 40 MB document held until the memory is full; the
//     error; then, with the views closed, the module at work again.

import * as jj from '../jalapenojson.js';

const [mode, wasmPath] = process.argv.slice(2);
if (wasmPath) await jj.init({ wasm: wasmPath });
const { wasm, openViews } = jj._internals();
const bytesNow = () => wasm().memory.buffer.byteLength;
const SMALL =
  '{"jalapenojson":1,"columns":["id","name","at","score"],"types":["i","s","t","f"],"rows":[\n' +
  '[1,"Ada","2024-01-02T03:04:05Z",2.5],\n[2,"Grace","2024-01-02T03:04:06Z",null]\n]}\n';

// Collect until the finalizers have closed every view (they run in tasks
// after a collection), at most 50 rounds.
async function collect() {
  for (let i = 0; i < 50 && openViews() > 0; i++) {
    global.gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

function manyViews(n) {
  for (let i = 0; i < n; i++) {
    const v = jj.view(SMALL);
    const row = v.row(i % 2);
    if (row.id !== (i % 2) + 1) throw new Error(`row ${i % 2}: ${JSON.stringify(row)}`);
  }
}

if (mode === 'views') {
  const before = bytesNow();
  manyViews(10000);
  const first = bytesNow();
  const openAfter = openViews();
  await collect();
  const openCollected = openViews();
  manyViews(10000);
  const second = bytesNow();
  await collect();
  console.log(JSON.stringify({ before, first, second, openAfter, openCollected, openEnd: openViews() }));
} else if (mode === 'full') {
  const rows = [];
  for (let i = 0; i < 40; i++) rows.push({ id: i, text: 'x'.repeat(1 << 20) });
  const big = jj.encode(rows, { columns: ['id', 'text'], types: ['i', 's'] });
  const held = [];
  let err = null;
  try {
    for (let i = 0; i < 200; i++) {
      const v = jj.view(big);
      held.push(v);
      v.row(0);
    }
  } catch (e) {
    err = e;
  }
  const result = {
    held: held.length,
    memory: bytesNow(),
    isJJError: err instanceof jj.JJError,
    name: err && err.name,
    code: err && err.code,
    message: err && err.message,
  };
  // while full, decode() and encode() fail the same way
  for (const [what, fn] of [
    ['decode', () => jj.decode(big)],
    ['encode', () => jj.encode(rows.slice(0, 8), { columns: ['id', 'text'], types: ['i', 's'] })],
  ]) {
    try {
      fn();
      result[what] = 'ok';
    } catch (e) {
      result[what] = { isJJError: e instanceof jj.JJError, code: e.code, message: e.message };
    }
  }
  for (const v of held) v.close();
  result.openClosed = openViews();
  // and work again once the views are closed
  const again = jj.view(big);
  result.again = again.row(39).id === 39 && again.column('text').length === 40;
  again.close();
  result.decoded = jj.decode(big).length;
  result.encoded = jj.encode(rows.slice(0, 8), { columns: ['id', 'text'], types: ['i', 's'] }).length;
  console.log(JSON.stringify(result));
} else {
  throw new Error(`unknown mode ${mode}`);
}
