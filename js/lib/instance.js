// instance.js — loading the WebAssembly module, the views of its memory,
// its errors, and starting over after a trap.
//
// One instance serves the whole module.  Every call into it goes through
// call(), which turns a trap (a WebAssembly.RuntimeError: a bug, or memory
// exhausted in a way the C code could not report) into a JJError and
// replaces the instance, because after a trap the C heap may be half
// updated.  Handles made by the old instance are then dead: each records
// the generation it was made in and refuses to work in a later one.

import { JJError } from './errors.js';
import { parseNumber } from './number.js';
import { vsnprintf } from './printf.js';

const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);
// Node reads the .wasm file synchronously, so decode() works without init();
// browsers must `await init()` first (fetch is asynchronous).
const nodeFs = isNode ? await import('node:fs') : null;

const DEFAULT_URL = new URL('../dist/jalapenojson.wasm', import.meta.url);

let module = null; // the compiled WebAssembly.Module, kept to re-instantiate
let inst = null; // { exports, memory }
let generation = 0; // bumped with every new instance
let pending = null; // a running init() promise

// The leading 128 bits of 5^j, truncated, for j in [-342, 324]: the table
// core/numtables.c holds (see tools/gen_numtables.py), computed here with
// exact BigInt arithmetic instead of shipped, which keeps 10.7 KB of
// incompressible data out of the module.  The C code reads it from the
// array the module exports (js/wasm_numtables.c).
const POW5_MIN = -342;
const POW5_MAX = 324;
function bitLength(x) {
  const hex = x.toString(16);
  return hex.length * 4 - (Math.clz32(parseInt(hex[0], 16)) - 28);
}
function fillPow5(exports, memory) {
  const count = POW5_MAX - POW5_MIN + 1;
  const at = exports.jjw_pow5();
  if (at % 8 || at + count * 16 > memory.buffer.byteLength) throw new Error('jalapenojson: bad pow5 table');
  const table = new BigUint64Array(memory.buffer, at, count * 2);
  const pos = [1n];
  for (let j = 1; j <= -POW5_MIN; j++) pos.push(pos[j - 1] * 5n);
  for (let j = POW5_MIN; j <= POW5_MAX; j++) {
    const p = pos[Math.abs(j)];
    const b = bitLength(p);
    let t;
    if (j >= 0) t = b <= 128 ? p << BigInt(128 - b) : p >> BigInt(b - 128);
    else t = (1n << BigInt(127 + b)) / p;
    const i = 2 * (j - POW5_MIN);
    table[i] = t >> 64n;
    table[i + 1] = BigInt.asUintN(64, t);
  }
}

// What a module imports: the reader-only one leaves the numbers its fast
// path does not take to JS (js/wasm_numparse.c, lib/number.js), and the
// formatting of its messages (js/wasm_printf_js.c, lib/printf.js); the
// functions read the memory of the instance being made, which only exists
// once it is made, hence the box.
function imports() {
  const box = { memory: null };
  const jjw_number = (p, len) => parseNumber(decoder.decode(new Uint8Array(box.memory.buffer, p >>> 0, len >>> 0)));
  const jjw_vsnprintf = (buf, n, fmt, ap) => vsnprintf(box.memory, buf >>> 0, n >>> 0, fmt >>> 0, ap >>> 0);
  return { box, env: { jjw_number, jjw_vsnprintf } };
}

function instantiate(compiled) {
  const { box, env } = imports();
  const instance = new WebAssembly.Instance(compiled, { env });
  box.memory = instance.exports.memory;
  return instance;
}

async function instantiateAsync(compiled) {
  const { box, env } = imports();
  const instance = await WebAssembly.instantiate(compiled, { env });
  box.memory = instance.exports.memory;
  return instance;
}

function start(compiled, instance) {
  const exports = instance.exports;
  // the C constructors (none today: wasm-ld makes an empty function),
  // exported to be run once here rather than before every export
  if (typeof exports.__wasm_call_ctors === 'function') exports.__wasm_call_ctors();
  if (typeof exports.jjw_pow5 === 'function') fillPow5(exports, exports.memory);
  module = compiled;
  inst = { exports, memory: exports.memory };
  generation++;
  views.buffer = null;
  open.views = 0; // the views of the old instance are dead
}

// Load the module.  options.wasm: a URL, a path (Node), bytes, a Response
// or a WebAssembly.Module; by default dist/jalapenojson.wasm beside this
// package.  Calling it again with no options is a no-op.
export async function init(options = {}) {
  if (inst && options.wasm === undefined) return;
  if (pending && options.wasm === undefined) return pending;
  const run = (async () => {
    const src = options.wasm === undefined ? DEFAULT_URL : options.wasm;
    let compiled;
    if (src instanceof WebAssembly.Module) compiled = src;
    else if (isNode && (src instanceof URL || typeof src === 'string') && !/^https?:/.test(String(src)))
      compiled = await WebAssembly.compile(nodeFs.readFileSync(src));
    else if (src instanceof ArrayBuffer || ArrayBuffer.isView(src)) compiled = await WebAssembly.compile(src);
    else {
      const res = typeof Response !== 'undefined' && src instanceof Response ? src : await fetch(src);
      if (!res.ok) throw new Error(`jalapenojson: cannot load ${res.url || src}: HTTP ${res.status}`);
      // instantiateStreaming needs the application/wasm type; any server
      // that sends another still works through arrayBuffer().
      if (WebAssembly.compileStreaming && /application\/wasm/.test(res.headers.get('content-type') || ''))
        compiled = await WebAssembly.compileStreaming(res);
      else compiled = await WebAssembly.compile(await res.arrayBuffer());
    }
    start(compiled, await instantiateAsync(compiled));
  })();
  pending = run;
  try {
    await run;
  } finally {
    if (pending === run) pending = null;
  }
}

// The instance, loading it synchronously in Node the first time.
export function wasm() {
  if (inst) return inst;
  if (!nodeFs) throw new Error('jalapenojson: call `await init()` before using the module');
  const compiled = new WebAssembly.Module(nodeFs.readFileSync(DEFAULT_URL));
  start(compiled, instantiate(compiled));
  return inst;
}

export function currentGeneration() {
  return generation;
}

// After a trap: a fresh instance of the same module.  Synchronous where the
// platform allows it (Node, workers); otherwise asynchronous, and calls
// until it is ready say so.
function reset() {
  const compiled = module;
  inst = null; // the next start() bumps the generation
  try {
    start(compiled, instantiate(compiled));
  } catch {
    module = compiled;
    pending = instantiateAsync(compiled).then(
      (i) => start(compiled, i),
      () => {},
    );
  }
}

// Run fn (which calls into the instance); a trap becomes a JJError and a
// new instance.
export function call(fn) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      reset();
      throw new JJError(
        `the WebAssembly instance failed (${e.message}); it was replaced, and views made before are closed`,
        'internal',
      );
    }
    throw e;
  }
}

// Typed views of the memory, rebuilt when it grows (growing detaches the
// old ArrayBuffer).
const views = { buffer: null, u8: null, u32: null, f64: null, i64: null, dv: null };
export function mem() {
  const buffer = inst.memory.buffer;
  if (views.buffer !== buffer) {
    views.buffer = buffer;
    views.u8 = new Uint8Array(buffer);
    views.u32 = new Uint32Array(buffer);
    views.f64 = new Float64Array(buffer);
    views.i64 = new BigInt64Array(buffer);
    views.dv = new DataView(buffer);
  }
  return views;
}

// Check that [ptr, ptr + len) lies in memory and is aligned as asked
// before JS reads it: a pointer from the instance is trusted no further.
export function checkRange(ptr, len, align = 1) {
  const size = inst.memory.buffer.byteLength;
  if (!(ptr >= 0 && len >= 0 && ptr + len <= size && ptr % align === 0))
    throw new JJError(`the WebAssembly instance returned a bad range (${ptr}, ${len})`, 'internal');
}

const decoder = new TextDecoder('utf-8', { fatal: false });

// The NUL-terminated string at ptr.
export function cString(ptr) {
  const { u8 } = mem();
  checkRange(ptr, 1);
  let end = ptr;
  while (end < u8.length && u8[end] !== 0) end++;
  return decoder.decode(u8.subarray(ptr, end));
}

// The views of the current instance not closed yet (nor collected and
// finalized), which an out-of-memory error counts: lib/read.js keeps it.
export const open = { views: 0 };

// The largest the instance's memory grows (js/wasm_malloc.c's MAX_MEMORY).
const MAX_MEMORY_MIB = 2048;
const JJ_ERR_NOMEM = 1;

// The error of an allocation that failed: the memory is full (or has no
// room left for one block that large).  What was open holds it: closing
// views gives it back for reuse, as memory never shrinks.
export function outOfMemory(row = 0, column = -1, offset = -1) {
  const used = Math.round(inst.memory.buffer.byteLength / 1048576);
  const n = open.views;
  return new JJError(
    `out of memory: the WebAssembly memory is full (${used} MiB in use, ${MAX_MEMORY_MIB} MiB at most): ` +
      `${n} ${n === 1 ? 'view is' : 'views are'} open; close views you no longer need (view.close()) ` +
      'and the memory they hold is reused (a single document must be smaller than 1 GiB)',
    'out of memory',
    row,
    column,
    offset,
  );
}

// The last error of the instance as a JJError.
export function lastError() {
  const x = inst.exports;
  const code = x.jjw_err_code();
  if (code === JJ_ERR_NOMEM) return outOfMemory(x.jjw_err_row(), x.jjw_err_column(), x.jjw_err_offset());
  return new JJError(
    cString(x.jjw_err_message()),
    cString(x.jjw_code_name(code)),
    x.jjw_err_row(),
    x.jjw_err_column(),
    x.jjw_err_offset(),
  );
}

// Copy bytes into a new allocation of the instance; its pointer.
export function copyIn(bytes) {
  const x = inst.exports;
  const p = x.jjw_alloc(bytes.length);
  if (!p) throw outOfMemory();
  mem().u8.set(bytes, p);
  return p;
}
