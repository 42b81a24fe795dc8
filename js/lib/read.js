// read.js — reading documents: decode() and view() over the batch ABI of
// js/wasm.c (jjw_read fills a batch of rows; this file turns a batch into
// JS values).
//
// A batch has, per column, a tag byte per row (0 null, 1 a value, 2 an
// int64 that is no safe JS integer) and an 8-byte slot per row: a double
// (ints that are safe, floats, booleans as 0/1, dates as days), a pair of
// 32-bit numbers (text: its UTF-16 span in the batch's text; bytes: offset
// and length in the batch's binary arena) or a nested table's handle.  All
// text of a batch is one UTF-8 arena decoded with one TextDecoder call.

import { JJError } from './errors.js';
import { call, checkRange, currentGeneration, lastError, mem, open, wasm } from './instance.js';
import { makeShape } from './shape.js';

const RD_DAYS = 1;
const RD_TS = 2;
const RD_HERE = 4;
const DAY_MS = 86400000;
// Rows per batch: about 256 KB of tags and slots, at most 4096 rows; the
// readers of nested tables take small batches (there is one per value).
const BATCH_CELLS = 32768;
const NESTED_ROWS = 64;

const decoder = new TextDecoder();

// ---- Options -------------------------------------------------------------

export const MAX_DEPTH = 1024;
const DEFAULTS = Object.freeze({ bigint: 'auto', dates: 'string', timestamps: 'string', maxDepth: 0, flags: 0 });

function oneOf(options, key, allowed) {
  const v = options[key];
  if (v === undefined) return DEFAULTS[key];
  if (!allowed.includes(v)) throw new TypeError(`option ${key}: expected ${allowed.map((a) => `'${a}'`).join(' or ')}, got ${String(v)}`);
  return v;
}

export function readOptions(options) {
  if (options === undefined) return DEFAULTS;
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const maxDepth = options.maxDepth === undefined ? 0 : options.maxDepth;
  // nested tables recurse in C: the module's 1 MiB stack holds 1024
  // levels of nesting (512 nested tables) with room to spare
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > MAX_DEPTH)
    throw new TypeError(`option maxDepth: expected an integer from 0 to ${MAX_DEPTH}`);
  const o = {
    bigint: oneOf(options, 'bigint', ['auto', 'always']),
    dates: oneOf(options, 'dates', ['string', 'date']),
    timestamps: oneOf(options, 'timestamps', ['string', 'date', 'object']),
    maxDepth,
  };
  o.flags = (o.dates === 'date' ? RD_DAYS : 0) | (o.timestamps !== 'string' ? RD_TS : 0);
  return o;
}

// ---- Documents and readers -----------------------------------------------

// Parse the document at ptr (ownership passes to the handle); its handle.
export function openDoc(ptr, len, opts) {
  const x = wasm().exports;
  const h = x.jjw_open(ptr, len, opts.maxDepth);
  if (!h) throw lastError();
  return h;
}

// The shape of a document's schema, read column by column (js/wasm.c).
export function docShape(h) {
  const x = wasm().exports;
  return makeShape(schemaOf(x, x.jjw_schema(h)));
}

// {columns, types} of schema s: names as UTF-8 that the module checked,
// types as letters, or {columns, types} for a nested table (JJ_TABLE, '{').
// A schema nests at most as deep as the depth limit allows (MAX_DEPTH).
function schemaOf(x, s) {
  const n = x.jjw_columns(s);
  const columns = [];
  const types = [];
  for (let i = 0; i < n; i++) {
    const p = x.jjw_column_name(s, i);
    const len = x.jjw_ret_len();
    checkRange(p, len);
    columns.push(decoder.decode(mem().u8.subarray(p, p + len)));
    const t = x.jjw_column_type(s, i);
    types.push(t === 123 ? schemaOf(x, x.jjw_column_table(s, i)) : String.fromCharCode(t));
  }
  return { columns, types };
}

// Rows per batch; no more than the document's rows when they are known
// (`rows` >= 0: a view's length), as a reader holds room for a whole batch.
function batchRows(shape, nested, rows = -1) {
  const n = nested ? NESTED_ROWS : Math.max(1, Math.min(4096, Math.floor(BATCH_CELLS / shape.n)));
  return rows >= 0 ? Math.max(1, Math.min(n, rows)) : n;
}

// A reader of document h, `rows` per batch; the readers of nested tables
// do not intern text (see js/wasm.c).
function newReader(h, rows, nested) {
  const r = wasm().exports.jjw_reader_new(h, rows, nested ? 0 : 1);
  if (!r) throw lastError();
  return r;
}

// Read up to `max` rows (RD_HERE: the current row) into the reader's
// batch; the batch, or null at the end.  `strs` are the reader's interned
// strings (by id, see js/wasm.c), extended with the batch's new ones.
// After an error the reader must not be used again: the ids of the failed
// batch are lost.
function readBatch(r, shape, max, flags, strs) {
  const x = wasm().exports;
  const n = x.jjw_read(r, max, flags);
  if (n < 0) throw lastError();
  if (n === 0) return null;
  const { u32, u8 } = mem();
  const o = x.jjw_out(r);
  // the words of js/wasm.c's OUT_* enum
  checkRange(o, 36, 4);
  const w = o >> 2;
  const tags = u32[w];
  const slots = u32[w + 1];
  const textAt = u32[w + 2];
  const textLen = u32[w + 3];
  const bin = u32[w + 4];
  const binLen = u32[w + 5];
  const cap = u32[w + 6];
  if (n > cap) throw new JJError('the WebAssembly instance returned a bad batch', 'internal');
  checkRange(tags, shape.n * cap);
  checkRange(slots, shape.n * cap * 8, 8);
  checkRange(textAt, textLen);
  checkRange(bin, binLen, binLen ? 8 : 1);
  const fresh = u32[w + 7];
  const freshCount = u32[w + 8];
  checkRange(fresh, 8 * freshCount, 4);
  const text = textLen ? decoder.decode(u8.subarray(textAt, textAt + textLen)) : '';
  const b = { n, tags, slots, cap, text, textUnits: text.length, bin, binLen, strs };
  for (let k = 0, f = fresh >> 2; k < freshCount; k++, f += 2) {
    const start = u32[f];
    strs.push(spanOf(b, start, start + u32[f + 1]));
  }
  return b;
}

function spanOf(b, a, e) {
  if (!(a <= e && e <= b.textUnits)) throw new JJError('the WebAssembly instance returned a bad text span', 'internal');
  return b.text.slice(a, e);
}

// ---- Values --------------------------------------------------------------

function binAt(b, off, len, align) {
  if (!(off + len <= b.binLen && off % align === 0))
    throw new JJError('the WebAssembly instance returned a bad value offset', 'internal');
  return b.bin + off;
}

// A timestamp read as numbers: the instant as a Date (milliseconds), or
// {date, nanos, zone, digits} with the exact nanoseconds and the zone.
function timestamp(b, u32, i, opts) {
  const at = binAt(b, u32[2 * i], 24, 8);
  const { f64, dv } = mem();
  const seconds = f64[at >> 3];
  const nanos = dv.getInt32(at + 8, true);
  const date = new Date(seconds * 1000 + Math.floor(nanos / 1e6));
  if (opts.timestamps === 'date') return date;
  return { date, nanos, zone: dv.getInt32(at + 12, true), digits: dv.getInt32(at + 16, true) };
}

// Convert column c of batch b into dst[at..at + b.n).  `nested` says what
// a nested table becomes: 'rows' (decode) or 'view'.  One small loop per
// kind, which the JIT compiles tight.
function convert(shape, c, b, opts, dst, at, nested, parent) {
  const t0 = b.tags + c * b.cap;
  const s0 = (b.slots >> 3) + c * b.cap;
  switch (shape.kinds[c]) {
    case 'f':
      return floats(b, t0, s0, dst, at);
    case 'i':
      return opts.bigint === 'always' ? bigints(b, t0, s0, dst, at) : ints(b, t0, s0, dst, at);
    case 'b':
      return bools(b, t0, s0, dst, at);
    case 'd':
      return opts.dates === 'date' ? dates(b, t0, s0, dst, at) : texts(b, t0, s0, dst, at);
    case 's':
      return texts(b, t0, s0, dst, at);
    case 'j':
      return jsons(b, t0, s0, dst, at);
    case 't':
      return opts.timestamps === 'string' ? texts(b, t0, s0, dst, at) : timestamps(b, t0, s0, dst, at, opts);
    case 'l': // a local timestamp: its text always (a Date would invent a zone)
      return texts(b, t0, s0, dst, at);
    case 'x':
      return bytes(b, t0, s0, dst, at);
    case '{':
      return tables(b, t0, s0, dst, at, shape.subs[c], opts, nested, parent);
  }
}

function floats(b, t0, s0, dst, at) {
  const { u8, f64 } = mem();
  for (let r = 0; r < b.n; r++) dst[at + r] = u8[t0 + r] ? f64[s0 + r] : null;
}

function ints(b, t0, s0, dst, at) {
  const { u8, f64, i64 } = mem();
  for (let r = 0; r < b.n; r++) {
    const tag = u8[t0 + r];
    dst[at + r] = tag === 1 ? f64[s0 + r] : tag === 2 ? i64[s0 + r] : null;
  }
}

function bigints(b, t0, s0, dst, at) {
  const { u8, f64, i64 } = mem();
  for (let r = 0; r < b.n; r++) {
    const tag = u8[t0 + r];
    dst[at + r] = tag === 1 ? BigInt(f64[s0 + r]) : tag === 2 ? i64[s0 + r] : null;
  }
}

function bools(b, t0, s0, dst, at) {
  const { u8, f64 } = mem();
  for (let r = 0; r < b.n; r++) dst[at + r] = u8[t0 + r] ? f64[s0 + r] !== 0 : null;
}

function dates(b, t0, s0, dst, at) {
  const { u8, f64 } = mem();
  for (let r = 0; r < b.n; r++) dst[at + r] = u8[t0 + r] ? new Date(f64[s0 + r] * DAY_MS) : null;
}

// A JSON column: its canonical text, as JSON.parse gives it (numbers as
// doubles, as JSON.parse reads them).
function jsons(b, t0, s0, dst, at) {
  texts(b, t0, s0, dst, at);
  for (let r = 0; r < b.n; r++) if (dst[at + r] !== null) dst[at + r] = JSON.parse(dst[at + r]);
}

// Text: an interned string (tag 3: its id) or a span of the batch's text
// (tag 1: UTF-16 start and end).
function texts(b, t0, s0, dst, at) {
  const { u8, u32 } = mem();
  const { strs, text, textUnits } = b;
  for (let r = 0; r < b.n; r++) {
    const tag = u8[t0 + r];
    const i = 2 * (s0 + r);
    if (tag === 3) {
      const s = strs[u32[i]];
      if (s === undefined) throw new JJError('the WebAssembly instance returned a bad string id', 'internal');
      dst[at + r] = s;
    } else if (tag === 1) {
      const a = u32[i];
      const e = u32[i + 1];
      if (!(a <= e && e <= textUnits)) throw new JJError('the WebAssembly instance returned a bad text span', 'internal');
      dst[at + r] = text.slice(a, e);
    } else {
      dst[at + r] = null;
    }
  }
}

function timestamps(b, t0, s0, dst, at, opts) {
  const { u8, u32 } = mem();
  for (let r = 0; r < b.n; r++) dst[at + r] = u8[t0 + r] ? timestamp(b, u32, s0 + r, opts) : null;
}

function bytes(b, t0, s0, dst, at) {
  const { u8, u32 } = mem();
  for (let r = 0; r < b.n; r++) {
    if (!u8[t0 + r]) {
      dst[at + r] = null;
      continue;
    }
    const len = u32[2 * (s0 + r) + 1];
    const p = binAt(b, u32[2 * (s0 + r)], len, 1);
    dst[at + r] = u8.slice(p, p + len);
  }
}

function tables(b, t0, s0, dst, at, sub, opts, nested, parent) {
  for (let r = 0; r < b.n; r++) {
    // reading a nested table calls into the instance, which may grow its
    // memory: the views are taken again every time
    const { u8, u32 } = mem();
    if (!u8[t0 + r]) {
      dst[at + r] = null;
      continue;
    }
    const h = u32[2 * (s0 + r)];
    checkRange(h, 16, 4);
    dst[at + r] = nested === 'rows' ? decodeDoc(h, sub, opts, true) : childView(h, sub, opts, parent);
  }
}

// ---- decode() ------------------------------------------------------------

// Every row of the document h as objects.
export function decodeDoc(h, shape, opts, nested = false) {
  const x = wasm().exports;
  const rows = [];
  const max = batchRows(shape, nested);
  const r = newReader(h, max, nested);
  const strs = [];
  try {
    const cols = shape.kinds.map(() => new Array(max));
    for (;;) {
      const b = readBatch(r, shape, max, opts.flags, strs);
      if (!b) break;
      for (let c = 0; c < shape.n; c++) convert(shape, c, b, opts, cols[c], 0, 'rows', null);
      for (let i = 0; i < b.n; i++) rows.push(shape.make(cols, i));
    }
  } finally {
    x.jjw_reader_free(r);
  }
  return rows;
}

// ---- view() --------------------------------------------------------------

// What a view (or an iterator) holds in the instance, for close() and for
// the finalizer, which must not hold the view itself: {h, r, gen, kids,
// owner, view}.  `kids` are the holdings of the nested views and
// iterators made from it, released with it, so that close() frees a view's
// nested views too and nothing waits for the garbage collector; `owner` is
// the kids set it is in; `view`: a view's (not an iterator's), counted in
// open.views while it holds its document (an out-of-memory error says how
// many are open).
const registry =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((held) => release(held)) : null;

function holding(h, gen, owner, view = false) {
  const held = { h, r: 0, gen, kids: new Set(), owner, view };
  if (owner) owner.add(held);
  if (view) open.views++;
  return held;
}

function release(held) {
  for (const kid of held.kids) release(kid);
  if (held.owner) held.owner.delete(held);
  if (held.gen === currentGeneration()) {
    if (held.view && held.h) open.views--;
    try {
      const x = wasm().exports;
      if (held.r) x.jjw_reader_free(held.r);
      if (held.h) x.jjw_release(held.h);
    } catch {
      // a finalizer has no one to report to
    }
  } // else the instance is gone, and what it held with it
  held.r = 0;
  held.h = 0;
}

function childView(h, shape, opts, parent) {
  wasm().exports.jjw_retain(h);
  return new View(h, shape, opts, parent);
}

// A lazy view of a document: values are read (and checked) when asked for.
export class View {
  constructor(h, shape, opts, parent = null) {
    this._held = holding(h, currentGeneration(), parent && parent._held.kids, true);
    this._shape = shape;
    this._opts = opts;
    this._parent = parent; // a nested view keeps its parent's view alive too
    this._length = -1;
    this._strs = []; // the reader's interned strings
    if (registry) registry.register(this, this._held, this);
  }

  _live() {
    const held = this._held;
    if (!held.h) throw new JJError('the view is closed', 'usage');
    if (held.gen !== currentGeneration())
      throw new JJError('the view was made by a WebAssembly instance that failed since; read the document again', 'internal');
    return held;
  }

  // The view's reader for row(), made on first use: a batch of one row, so
  // that a view holds memory for about what it reads (column() and
  // iteration have readers of their own, with larger batches, freed when
  // they end).
  _rowReader() {
    const held = this._live();
    if (!held.r) {
      held.r = newReader(held.h, 1, this._parent !== null);
      this._strs = [];
    }
    return held.r;
  }

  // A batch of row()'s reader; after an error the reader is dropped (the
  // next call makes a new one).
  _read(r, flags) {
    try {
      return readBatch(r, this._shape, 1, flags, this._strs);
    } catch (e) {
      const held = this._held;
      if (held.r && held.gen === currentGeneration()) wasm().exports.jjw_reader_free(held.r);
      held.r = 0;
      throw e;
    }
  }

  get columns() {
    return this._shape.columns;
  }
  get types() {
    return this._shape.types;
  }

  // The number of rows: the structure of every row is scanned once.
  get length() {
    if (this._length < 0)
      this._length = call(() => {
        const n = wasm().exports.jjw_rows(this._live().h);
        if (n < 0) throw lastError();
        return n;
      });
    return this._length;
  }

  // Row i (0-based) as an object, or undefined when there is no such row.
  row(i) {
    if (!Number.isInteger(i)) throw new TypeError('row(i): i must be an integer');
    if (i < 0 || i >= Number.MAX_SAFE_INTEGER) return undefined;
    return call(() => {
      const r = this._rowReader();
      const x = wasm().exports;
      const found = x.jjw_seek(r, i + 1);
      if (found < 0) throw lastError();
      if (found === 0) return undefined;
      const b = this._read(r, this._opts.flags | RD_HERE);
      const cols = this._shape.kinds.map(() => [undefined]);
      for (let c = 0; c < this._shape.n; c++) convert(this._shape, c, b, this._opts, cols[c], 0, 'view', this);
      return this._shape.make(cols, 0);
    });
  }

  // Every value of one column (a name or a 0-based index), in row order:
  // a Float64Array for a float column without nulls, else an array (null
  // for nulls).
  column(key) {
    const shape = this._shape;
    const c = typeof key === 'number' ? key : shape.index.get(key);
    if (c === undefined || !Number.isInteger(c) || c < 0 || c >= shape.n) {
      if (typeof key !== 'string' && typeof key !== 'number') throw new TypeError('column(name): name must be a string');
      throw new JJError(`no column ${typeof key === 'string' ? JSON.stringify(key) : key}`, 'usage');
    }
    return call(() => {
      const held = this._live();
      const x = wasm().exports;
      const cap = batchRows(shape, this._parent !== null, this._length);
      // a reader of this call's own, reading column c only
      const r = newReader(held.h, cap, this._parent !== null);
      try {
        const p = x.jjw_want(r);
        checkRange(p, shape.n);
        mem().u8.fill(0, p, p + shape.n);
        mem().u8[p + c] = 1;
        const strs = [];
        if (shape.kinds[c] === 'f') return this._floats(r, c, cap, strs);
        const out = [];
        for (;;) {
          const b = readBatch(r, shape, cap, this._opts.flags, strs);
          if (!b) break;
          convert(shape, c, b, this._opts, out, out.length, 'view', this);
        }
        return out;
      } finally {
        x.jjw_reader_free(r);
      }
    });
  }

  // A float column: straight copies of the batch's doubles while there is
  // no null; an array with nulls once there is one.
  _floats(r, c, cap, strs) {
    let out = new Float64Array(Math.max(16, this._length >= 0 ? this._length : cap));
    let n = 0;
    let list = null;
    for (;;) {
      const b = readBatch(r, this._shape, cap, this._opts.flags, strs);
      if (!b) break;
      const { u8, f64 } = mem();
      const t0 = b.tags + c * b.cap;
      const s0 = (b.slots >> 3) + c * b.cap;
      if (!list && u8.subarray(t0, t0 + b.n).indexOf(0) < 0) {
        if (n + b.n > out.length) {
          const more = new Float64Array(Math.max(2 * out.length, n + b.n));
          more.set(out.subarray(0, n));
          out = more;
        }
        out.set(f64.subarray(s0, s0 + b.n), n);
        n += b.n;
        continue;
      }
      if (!list) list = Array.from(out.subarray(0, n));
      convert(this._shape, c, b, this._opts, list, list.length, 'view', this);
    }
    if (list) return list;
    return n === out.length ? out : out.slice(0, n);
  }

  [Symbol.iterator]() {
    return new RowIterator(this);
  }

  // Free what the view holds in the instance now, rather than when it is
  // garbage collected: its copy of the document, and the views of nested
  // tables and the iterations made from it, which are closed with it.
  close() {
    if (registry) registry.unregister(this);
    release(this._held);
  }
}
if (Symbol.dispose) View.prototype[Symbol.dispose] = View.prototype.close;

// Iteration has a reader of its own, so that row() and column() calls in
// the loop do not move it.
class RowIterator {
  constructor(view) {
    const held = view._live();
    this._view = view;
    this._held = holding(0, held.gen, held.kids);
    this._batch = null;
    this._cols = null;
    this._strs = [];
    this._i = 0;
    this._done = false;
    if (registry) registry.register(this, this._held, this);
  }

  [Symbol.iterator]() {
    return this;
  }

  next() {
    if (this._done) return { done: true, value: undefined };
    const view = this._view;
    const shape = view._shape;
    return call(() => {
      const held = view._live(); // a closed view ends its iterations
      if (!this._batch || this._i === this._batch.n) {
        if (!this._held.r)
          this._held.r = newReader(held.h, batchRows(shape, view._parent !== null, view._length), view._parent !== null);
        let b;
        try {
          b = readBatch(this._held.r, shape, 0xffffffff, view._opts.flags, this._strs);
        } catch (e) {
          this.return();
          throw e;
        }
        if (!b) return this.return();
        this._cols = this._cols || shape.kinds.map(() => []);
        for (let c = 0; c < shape.n; c++) convert(shape, c, b, view._opts, this._cols[c], 0, 'view', view);
        this._batch = b;
        this._i = 0;
      }
      return { done: false, value: shape.make(this._cols, this._i++) };
    });
  }

  return() {
    this._done = true;
    if (registry) registry.unregister(this);
    release(this._held);
    return { done: true, value: undefined };
  }
}
