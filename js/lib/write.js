// write.js — encode(): rows to a document, written by the C library's
// jj_writer, so the bytes are exactly what C writes for the same values.
//
// JS checks each value's JS type and packs it into a tape in the
// instance's memory (js/wasm.c, jjw_write_tape: one op byte, then its
// operands); a full tape is replayed into the writer.  Values whose
// content needs checking (text, dates, timestamps) are checked by the C
// writer, with its messages; values of the wrong JS type are refused here,
// in the same words, at the same place ("row 3, column "id": ...").

import { JJError, showValue } from './errors.js';
import { checkRange, lastError, mem, outOfMemory, wasm } from './instance.js';
import { makeShape } from './shape.js';
import { utf8Into } from './utf8.js';

const OP_NULL = 0;
const OP_INT = 1;
const OP_FLOAT = 2;
const OP_FALSE = 3;
const OP_TRUE = 4;
const OP_TEXT = 5;
const OP_DATE = 6;
const OP_TS = 7;
const OP_BYTES = 8;
const OP_DAYS = 9;
const OP_TS_VALUE = 10;
const OP_BEGIN = 11;
const OP_END_ROW = 12;
const OP_END_TABLE = 13;
const OP_LTS = 14;
const OP_JSON = 15;

const TAPE_BYTES = 1 << 16;
const TWO32 = 4294967296;
const INT64_MIN = -9223372036854775808;
const DAY_MS = 86400000;
const encoder = new TextEncoder();

// The tape: bytes in the instance's memory, replayed into the writer when
// full.  u8 and dv are views of the memory, taken again after every call
// into the instance (it may grow the memory).
// `replay`: the export that replays a tape into its handle `w`
// (jjw_write_tape, or jjw_build_tape for the row builder, js/lib/build.js).
export class Tape {
  constructor(x, w, replay = x.jjw_write_tape) {
    this.x = x;
    this.w = w;
    this.replay = replay;
    this.cap = TAPE_BYTES;
    this.p = x.jjw_alloc(this.cap);
    if (!this.p) throw outOfMemory();
    this.at = this.p;
    this.end = this.p + this.cap;
    this.views();
  }
  views() {
    const m = mem();
    this.u8 = m.u8;
    this.dv = m.dv;
  }
  // Room for n more bytes.
  room(n) {
    if (this.end - this.at >= n) return;
    this.flush();
    if (this.cap < n) {
      this.x.jjw_free(this.p);
      this.cap = Math.max(2 * this.cap, n);
      this.p = this.x.jjw_alloc(this.cap);
      if (!this.p) throw outOfMemory();
      this.at = this.p;
      this.end = this.p + this.cap;
      this.views();
    }
  }
  flush() {
    const len = this.at - this.p;
    this.at = this.p;
    if (len && this.replay(this.w, this.p, len) < 0) throw lastError();
    this.views();
  }
  op(op) {
    this.room(1);
    this.u8[this.at++] = op;
  }
  int(v) {
    // an integral double in the int64 range, as two exact 32-bit halves
    this.room(9);
    const hi = Math.floor(v / TWO32);
    this.u8[this.at] = OP_INT;
    this.dv.setUint32(this.at + 1, v - hi * TWO32, true);
    this.dv.setInt32(this.at + 5, hi, true);
    this.at += 9;
  }
  bigint(v) {
    this.room(9);
    this.u8[this.at] = OP_INT;
    this.dv.setBigInt64(this.at + 1, v, true);
    this.at += 9;
  }
  float(v) {
    this.room(9);
    this.u8[this.at] = OP_FLOAT;
    this.dv.setFloat64(this.at + 1, v, true);
    this.at += 9;
  }
  text(op, s) {
    this.room(5 + 3 * s.length);
    const start = this.at + 5;
    const end = utf8Into(s, this.u8, start);
    this.u8[this.at] = op;
    this.dv.setUint32(this.at + 1, end - start, true);
    this.at = end;
  }
  bytes(b) {
    this.room(5 + b.length);
    this.u8[this.at] = OP_BYTES;
    this.dv.setUint32(this.at + 1, b.length, true);
    this.u8.set(b, this.at + 5);
    this.at += 5 + b.length;
  }
  days(d) {
    this.room(5);
    this.u8[this.at] = OP_DAYS;
    this.dv.setInt32(this.at + 1, d, true);
    this.at += 5;
  }
  timestamp(seconds, nanos, zone, digits) {
    this.room(16);
    const dv = this.dv;
    this.u8[this.at] = OP_TS_VALUE;
    dv.setFloat64(this.at + 1, seconds, true);
    dv.setInt32(this.at + 9, nanos, true);
    dv.setInt16(this.at + 13, zone, true);
    this.u8[this.at + 15] = digits;
    this.at += 16;
  }
  free() {
    this.x.jjw_free(this.p);
  }
}

// ---- Errors at a place -----------------------------------------------------

// The place of the value being written: one [row, column] per open table,
// outermost first (row 0-based).
function place(stack, shapes) {
  let msg = '';
  for (let k = 0; k < stack.length; k++) {
    const [r, c] = stack[k];
    msg += `${k ? ', ' : ''}row ${r + 1}, column ${JSON.stringify(shapes[k].columns[c])}`;
  }
  return msg;
}

// Throw the error of a bad value, after the values before it reached the
// C writer (whose error, if it has one, came first).
function fail(tape, stack, shapes, code, detail) {
  tape.flush();
  const [r, c] = stack[0];
  throw new JJError(`${place(stack, shapes)}: ${detail}`, code, r + 1, c, -1);
}

// ---- Values ----------------------------------------------------------------

export function isBytes(v) {
  return v instanceof Uint8Array || ArrayBuffer.isView(v) || v instanceof ArrayBuffer;
}

export function asBytes(v) {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

// A Date's time (ms) in a zone (minutes east of UTC) as a message shows
// it: ISO text, its year with a sign and six digits outside 0000-9999
// (+010000, -000001), no milliseconds when there are none, the zone as
// +hh:mm; `day`: the date only (a Date at midnight UTC for a date column).
// A time the zone moves past what a Date holds is shown in UTC.
function isoText(ms, zone, day) {
  if (Number.isNaN(new Date(ms + zone * 60000).getTime())) zone = 0;
  const s = new Date(ms + zone * 60000).toISOString();
  if (day) return s.slice(0, -14);
  const a = Math.abs(zone);
  const hhmm = (n) => String(n).padStart(2, '0');
  return s.replace(/\.000Z$|Z$/, '') + (zone ? `${zone < 0 ? '-' : '+'}${hhmm(Math.floor(a / 60))}:${hhmm(a % 60)}` : 'Z');
}

// Throw unless the Date's time ms, in the zone, falls in the years
// 0000-9999 that dates and timestamps hold (`what`: 'date' or
// 'timestamp'); the C writer would name its day or seconds only.
function checkYears(bad, ms, zone, what) {
  const year = new Date(ms + zone * 60000).getUTCFullYear();
  if (!(year >= 0 && year <= 9999))
    bad(what, `the date ${isoText(ms, zone, what === 'date' && ms % DAY_MS === 0)} is outside years 0000-9999 that a ${what} can hold`);
}

function writeDate(t, v, stack, shapes) {
  if (typeof v === 'string') return t.text(OP_DATE, v);
  if (v instanceof Date) return t.days(dateDays(v, (code, detail) => fail(t, stack, shapes, code, detail)));
  fail(t, stack, shapes, 'type', `expected a date string, found ${showValue(v)}`);
}

// The days since 1970-01-01 of a Date at midnight UTC in the years
// 0000-9999; else bad(code, detail) throws.
export function dateDays(v, bad) {
  const ms = v.getTime();
  if (Number.isNaN(ms)) bad('date', 'an Invalid Date (its time is NaN) is not a date');
  checkYears(bad, ms, 0, 'date');
  if (ms % DAY_MS !== 0)
    bad('date', `${v.toISOString()} is not a date (a date column takes a Date at midnight UTC)`);
  return ms / DAY_MS;
}

// A timestamp: its text, a Date (written in UTC), or {date, nanos, zone,
// digits} as decode({timestamps: 'object'}) gives it.
function writeTimestamp(t, v, stack, shapes) {
  if (typeof v === 'string') return t.text(OP_TS, v);
  if (!(v instanceof Date) && (v === null || typeof v !== 'object' || !(v.date instanceof Date)))
    fail(t, stack, shapes, 'type', `expected a timestamp string, found ${showValue(v)}`);
  const [seconds, nanos, zone, digits] = timestampFields(v, (code, detail) => fail(t, stack, shapes, code, detail));
  t.timestamp(seconds, nanos, zone, digits);
}

// The fields [seconds, nanos, zone, digits] of a Date (in UTC, with its
// milliseconds) or a {date, nanos, zone, digits} object (whose .date is a
// Date); else bad(code, detail) throws.
export function timestampFields(v, bad) {
  let date = v;
  let nanos;
  let zone = 0;
  let digits;
  if (!(v instanceof Date)) ({ date, nanos, zone = 0, digits } = v);
  const ms = date.getTime();
  if (Number.isNaN(ms)) bad('timestamp', 'an Invalid Date (its time is NaN) is not a timestamp');
  const seconds = Math.floor(ms / 1000);
  const millis = ms - seconds * 1000;
  if (nanos === undefined) nanos = millis * 1e6;
  if (digits === undefined) digits = nanos === 0 ? 0 : nanos % 1e6 === 0 ? 3 : 9;
  const out = (x, lo, hi) => !Number.isInteger(x) || x < lo || x > hi;
  if (out(nanos, 0, 999999999) || out(zone, -1439, 1439) || out(digits, 0, 9))
    bad('timestamp', `nanos ${nanos}, zone ${zone}, digits ${digits}: not a timestamp's fields`);
  if (Math.floor(nanos / 1e6) !== millis)
    bad('timestamp', `nanos ${nanos} disagree with the Date's milliseconds (${millis})`);
  checkYears(bad, ms, zone, 'timestamp');
  return [seconds, nanos, zone, digits];
}

function writeValue(t, kind, sub, v, stack, shapes) {
  if (v === null || v === undefined) return t.op(OP_NULL);
  switch (kind) {
    case 'i':
      if (typeof v === 'number') {
        if (!Number.isInteger(v)) fail(t, stack, shapes, 'range', `${v} is not an integer`);
        if (v < INT64_MIN || v >= -INT64_MIN) fail(t, stack, shapes, 'range', `${v} does not fit a 64-bit integer`);
        return t.int(v);
      }
      if (typeof v === 'bigint') {
        if (BigInt.asIntN(64, v) !== v) fail(t, stack, shapes, 'range', `${v} does not fit a 64-bit integer`);
        return t.bigint(v);
      }
      return fail(t, stack, shapes, 'type', `expected an integer, found ${showValue(v)}`);
    case 'f':
      if (typeof v === 'number') return t.float(v);
      return fail(t, stack, shapes, 'type', `expected a number, found ${showValue(v)}`);
    case 's':
      if (typeof v === 'string') return t.text(OP_TEXT, v);
      return fail(t, stack, shapes, 'type', `expected a string, found ${showValue(v)}`);
    case 'b':
      if (v === true || v === false) return t.op(v ? OP_TRUE : OP_FALSE);
      return fail(t, stack, shapes, 'type', `expected true or false, found ${showValue(v)}`);
    case 'd':
      return writeDate(t, v, stack, shapes);
    case 't':
      return writeTimestamp(t, v, stack, shapes);
    case 'l': // its text, T or SQLite's space (written with the T)
      if (typeof v === 'string') return t.text(OP_LTS, v);
      return fail(t, stack, shapes, 'type', `expected a local timestamp string, found ${showValue(v)}`);
    case 'j': { // any value JSON.stringify gives a text for, as that text
      let s;
      try {
        s = JSON.stringify(v);
      } catch (e) {
        return fail(t, stack, shapes, 'type', `${showValue(v)} has no JSON text: ${e.message}`);
      }
      if (s === undefined) return fail(t, stack, shapes, 'type', `${showValue(v)} has no JSON text`);
      return t.text(OP_JSON, s);
    }
    case 'x':
      if (isBytes(v)) return t.bytes(asBytes(v));
      return fail(t, stack, shapes, 'type', `expected bytes (a Uint8Array), found ${showValue(v)}`);
    case '{':
      if (typeof v !== 'object' || typeof v[Symbol.iterator] !== 'function' || isBytes(v))
        fail(t, stack, shapes, 'type', `expected an array of rows, found ${showValue(v)}`);
      t.op(OP_BEGIN);
      shapes.push(sub);
      writeRows(t, sub, v, stack, shapes);
      shapes.pop();
      return t.op(OP_END_TABLE);
  }
}

// Every row of `rows` (objects keyed by column name, or arrays in column
// order) into the table of `shape`.
function writeRows(t, shape, rows, stack, shapes) {
  const { n, kinds, subs, pick } = shape;
  const frame = [0, 0];
  stack.push(frame);
  const values = new Array(n);
  // Rows that are not an array come from an iterator, which may call
  // into the instance (a view does) and grow its memory.
  const plain = Array.isArray(rows);
  let r = 0;
  for (const row of rows) {
    if (!plain) t.views();
    frame[0] = r;
    frame[1] = 0;
    if (Array.isArray(row)) {
      for (let c = 0; c < row.length; c++) {
        frame[1] = c;
        // a value beyond the last column goes to the writer as a null,
        // which then says how many values the row has
        if (c < n) writeValue(t, kinds[c], subs[c], row[c], stack, shapes);
        else t.op(OP_NULL);
      }
    } else if (row !== null && typeof row === 'object') {
      pick(row, values);
      for (let c = 0; c < n; c++) {
        frame[1] = c;
        writeValue(t, kinds[c], subs[c], values[c], stack, shapes);
      }
    } else {
      frame[1] = -1;
      t.flush();
      const top = stack[0];
      const where = stack.length > 1 ? `${place(stack.slice(0, -1), shapes)}, ` : '';
      throw new JJError(`${where}row ${r + 1}: a row must be an object or an array, found ${showValue(row)}`, 'row', top[0] + 1, stack.length > 1 ? top[1] : -1, -1);
    }
    t.op(OP_END_ROW);
    r++;
  }
  stack.pop();
}

// ---- encode() ---------------------------------------------------------------

// The C schema of a shape (for the writer, which borrows it); the caller
// frees it with jjw_schema_free.
function cSchema(x, shape) {
  const s = x.jjw_schema_new();
  if (!s) throw lastError();
  try {
    for (let c = 0; c < shape.n; c++) {
      const kind = shape.kinds[c];
      // the nested schema becomes s's, even when adding fails
      const sub = kind === '{' ? cSchema(x, shape.subs[c]) : 0;
      const name = encoder.encode(shape.columns[c]);
      const p = x.jjw_alloc(name.length);
      if (!p) {
        if (sub) x.jjw_schema_free(sub);
        throw outOfMemory();
      }
      mem().u8.set(name, p);
      const rc = x.jjw_schema_add(s, p, name.length, kind.charCodeAt(0), sub);
      x.jjw_free(p);
      if (rc) throw lastError();
    }
    return s;
  } catch (e) {
    x.jjw_schema_free(s);
    throw e;
  }
}

// The document of `rows` with `schema` ({columns, types, meta?}) as bytes.
export function encodeRows(rows, schema) {
  if (rows === null || typeof rows !== 'object' || typeof rows[Symbol.iterator] !== 'function')
    throw new TypeError('encode(rows, schema): rows must be an array (or an iterable) of rows');
  const shape = makeShape(schema, true);
  const x = wasm().exports;
  if (typeof x.jjw_writer_new !== 'function') throw new JJError('this build of the module has no writer', 'usage');
  let s = 0;
  let w = 0;
  let meta = 0;
  let tape = null;
  try {
    s = cSchema(x, shape);
    let metaLen = 0;
    if (schema.meta !== undefined) {
      const json = encoder.encode(JSON.stringify(schema.meta));
      meta = x.jjw_alloc(json.length);
      if (!meta) throw outOfMemory();
      mem().u8.set(json, meta);
      metaLen = json.length;
    }
    w = x.jjw_writer_new(s, meta, metaLen);
    if (!w) throw lastError();
    tape = new Tape(x, w);
    writeRows(tape, shape, rows, [], [shape]);
    tape.flush();
    const p = x.jjw_writer_take(w);
    if (!p) throw lastError();
    const len = x.jjw_ret_len();
    checkRange(p, len);
    const out = mem().u8.slice(p, p + len);
    x.jjw_jj_free(p);
    return out;
  } finally {
    if (tape) tape.free();
    if (w) x.jjw_writer_free(w);
    if (s) x.jjw_schema_free(s);
    if (meta) x.jjw_free(meta);
  }
}
