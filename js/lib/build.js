// build.js — documents whose types are inferred: encode() without a full
// schema, through the C library's row builder (jj_builder), and the
// converter (fromJSON, fromCSV), through jj_convert.
//
// JS maps each value to one of the builder's kinds and packs it, after
// its key, into a tape (lib/write.js's Tape, replayed by js/wasm_build.c's
// jjw_build_tape); the builder decides the types from every row, with the
// converter's rules (docs/convert.md, "The type of a column"), so rows
// give the document the converter gives for their JSON.  The builder's
// notes (its decisions) are read after the call and handed to onNote.

import { JJError, showValue } from './errors.js';
import { View } from './read.js';
import { checkRange, lastError, mem, outOfMemory, wasm } from './instance.js';
import { Tape, asBytes, dateDays, isBytes, timestampFields } from './write.js';

// The tape's operations (js/wasm_build.c); values share write.js's numbers.
const B_NULL = 0;
const B_FALSE = 3;
const B_TRUE = 4;
const B_TEXT = 5;
const B_BEGIN = 11;
const B_END_ROW = 12;
const B_END_TABLE = 13;
const B_KEY = 14;
const B_NUM = 15;
const B_JSON = 16;

const JJ_BUILD_BAD_TO_NULL = 1;
const JJ_CONVERT_CSV_BOOLEANS = 1;
const JJ_CONVERT_BAD_TO_NULL = 2;
const JJ_CONVERT_CSV_EMPTY_IS_TEXT = 4;
const JJ_CONVERT_CSV_NULL_PADDING = 8;
const JJ_CONVERT_CSV_NO_HEADER = 16;
const JJ_CONVERT_MAX_NULL_FOR = 64;
const ON_ERROR = { fail: 0, skip: 1, null: 2 }; // jj_on_error

const LETTERS = 'ifsdtlbxj';
const encoder = new TextEncoder();
const utf8 = new TextDecoder();

// ---- Options ------------------------------------------------------------------

function checkOptions(options, where, allowed) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') throw new TypeError(`${where}: options must be an object`);
  for (const k of Object.keys(options))
    if (!allowed.includes(k)) throw new TypeError(`${where}: unknown option ${JSON.stringify(k)} (known: ${allowed.join(', ')})`);
  if (options.onNote !== undefined && typeof options.onNote !== 'function')
    throw new TypeError(`${where}: onNote must be a function`);
  if (options.badToNull !== undefined && typeof options.badToNull !== 'boolean')
    throw new TypeError(`${where}: badToNull must be true or false`);
  return options;
}

// The explicit types of a partial schema ({name: letter or {nested}}) as
// the core's schema text ("\"id\":i,\"items\":{\"qty\":f}"), and as a
// tree JS keeps to know which columns take a Date as a date.
function typesText(types, where, level = 0) {
  if (level > 64) throw new TypeError(`${where}: nested tables deeper than 64 levels`);
  if (types === null || typeof types !== 'object' || Array.isArray(types))
    throw new TypeError(`${where}: expected {name: type, ...}`);
  const parts = [];
  const tree = new Map();
  for (const [name, t] of Object.entries(types)) {
    if (typeof t === 'string') {
      if (t.length !== 1 || !LETTERS.includes(t))
        throw new TypeError(`${where}: unknown type ${JSON.stringify(t)} for column ${JSON.stringify(name)}`);
      parts.push(`${JSON.stringify(name)}:${t}`);
      tree.set(name, t);
    } else {
      const sub = typesText(t, `${where}: column ${JSON.stringify(name)}`, level + 1);
      parts.push(`${JSON.stringify(name)}:{${sub.text}}`);
      tree.set(name, sub.tree);
    }
  }
  return { text: parts.join(','), tree };
}

// A partial schema: undefined, or {types?: {name: type}, columns?: [names]}
// (columns: their order, which also lets rows be arrays).
function partialSchema(schema) {
  if (schema === undefined || schema === null) return { text: null, tree: new Map(), columns: null };
  if (typeof schema !== 'object') throw new TypeError('encode(rows, schema): schema must be an object');
  for (const k of Object.keys(schema))
    if (k !== 'types' && k !== 'columns')
      throw new TypeError(
        k === 'meta'
          ? 'encode(rows, schema): meta needs the full schema ({columns, types} as arrays)'
          : `encode(rows, schema): unknown field ${JSON.stringify(k)} (known: columns, types)`,
      );
  let columns = null;
  if (schema.columns !== undefined) {
    if (!Array.isArray(schema.columns) || schema.columns.some((c) => typeof c !== 'string'))
      throw new TypeError('encode(rows, schema): columns must be an array of names');
    columns = schema.columns;
  }
  if (schema.types === undefined) return { text: null, tree: new Map(), columns };
  const { text, tree } = typesText(schema.types, 'schema.types');
  return { text: text || null, tree, columns };
}

// The notes of the last call (NUL-separated in the instance) to onNote.
function tellNotes(x, onNote) {
  if (!onNote) return;
  const p = x.jjw_notes();
  const len = x.jjw_ret_len();
  if (!p || !len) return;
  checkRange(p, len);
  const notes = utf8.decode(mem().u8.subarray(p, p + len - 1)).split('\0');
  for (const n of notes) onNote(n);
}

// The rows the last conversion set aside (jjw_rejects: five NUL-terminated
// fields each), as {row, byte, column, code, message}.
function takeRejects(x) {
  const p = x.jjw_rejects();
  const len = x.jjw_ret_len();
  if (!p || !len) return [];
  checkRange(p, len);
  const f = utf8.decode(mem().u8.subarray(p, p + len - 1)).split('\0');
  const out = [];
  for (let i = 0; i + 4 < f.length; i += 5)
    out.push({
      row: Number(f[i]),
      byte: f[i + 1] === '' ? null : Number(f[i + 1]),
      column: f[i + 2] === '-' ? null : f[i + 2].slice(1),
      code: f[i + 3],
      message: f[i + 4],
    });
  return out;
}

// A string into a new NUL-terminated allocation (0 for null).
function cStringIn(x, s) {
  if (s === null || s === undefined) return 0;
  const b = encoder.encode(s);
  const p = x.jjw_alloc(b.length + 1);
  if (!p) throw outOfMemory();
  const u8 = mem().u8;
  u8.set(b, p);
  u8[p + b.length] = 0;
  return p;
}

// The document the instance handed over at p (len bytes), copied out and
// freed.
function takeDoc(x, p, len) {
  checkRange(p, len);
  const out = mem().u8.slice(p, p + len);
  x.jjw_jj_free(p);
  return out;
}

// ---- Values -------------------------------------------------------------------

function isPlain(v) {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

// The value of key k of a row (an own "__proto__" read as such).
function own(row, k) {
  return k === '__proto__' ? Object.getOwnPropertyDescriptor(row, k).value : row[k];
}

// One table's rows into the builder.  `where`: the places of the tables
// open around it, outermost first ([row 0-based, column name]); `forced`:
// the explicit types of its columns (a Map).
class Packer {
  constructor(tape) {
    this.t = tape;
    this.where = [];
  }

  place() {
    return this.where.map(([r, c]) => `row ${r + 1}, column ${JSON.stringify(c)}`).join(', ');
  }

  // A JJError of a bad value at the current place, after the values before
  // it reached the builder (whose own error, if any, comes first).
  fail(code, detail) {
    this.t.flush();
    const [r] = this.where[0];
    throw new JJError(`${this.place()}: ${detail}`, code, r + 1, -1, -1);
  }

  typeError(detail) {
    this.t.flush();
    throw new TypeError(`${this.place()}: ${detail}`);
  }

  // A JSON text of an object or array value (JSON.stringify's).
  json(v) {
    let s;
    try {
      s = JSON.stringify(v);
    } catch (e) {
      this.typeError(`cannot write ${showValue(v)} as JSON text (${e.message})`);
    }
    if (s === undefined) this.typeError(`cannot write ${showValue(v)} as JSON text`);
    this.t.views(); // a toJSON method may have called into the instance
    this.t.text(B_JSON, s);
  }

  value(v, forced) {
    const t = this.t;
    switch (typeof v) {
      case 'string':
        return t.text(B_TEXT, v);
      case 'number':
        if (Number.isSafeInteger(v) && !Object.is(v, -0)) return t.int(v);
        return t.float(v);
      case 'boolean':
        return t.op(v ? B_TRUE : B_FALSE);
      case 'bigint':
        if (BigInt.asIntN(64, v) === v) return t.bigint(v);
        return t.text(B_NUM, String(v));
    }
    if (v === null) return t.op(B_NULL);
    if (typeof v !== 'object') return this.typeError(`cannot write ${showValue(v)}`);
    const bad = (code, detail) => this.fail(code, detail);
    if (v instanceof Date) {
      if (forced === 'd') return t.days(dateDays(v, bad));
      const [seconds, nanos, zone, digits] = timestampFields(v, bad);
      return t.timestamp(seconds, nanos, zone, digits);
    }
    if (isBytes(v)) return t.bytes(asBytes(v));
    if (v instanceof View) return this.table(v, forced);
    if (Array.isArray(v)) {
      // rows when every element is a plain object (or there is none), as
      // the converter takes a JSON array of objects
      let rows = true;
      for (let i = 0; i < v.length && rows; i++) rows = isPlain(v[i]);
      return rows ? this.table(v, forced) : this.json(v);
    }
    if (isPlain(v)) {
      if (forced === 't' && v.date instanceof Date) {
        const [seconds, nanos, zone, digits] = timestampFields(v, bad);
        return t.timestamp(seconds, nanos, zone, digits);
      }
      return this.json(v);
    }
    return this.typeError(`cannot write ${v.constructor && v.constructor.name ? `a ${v.constructor.name}` : showValue(v)} (give a plain object, an array, a Date, bytes or a primitive)`);
  }

  // A nested table's rows, between its begin and end.
  table(rows, forced) {
    this.t.op(B_BEGIN);
    this.rows(rows, forced instanceof Map ? forced : new Map(), null);
    this.t.op(B_END_TABLE);
  }

  key(name) {
    this.t.text(B_KEY, name);
  }

  // Every row: an object (its own enumerable keys, in their order), or
  // with `columns` an array in column order.  A key whose value is
  // undefined is left out, as JSON.stringify leaves it out.
  rows(rows, forced, columns) {
    const t = this.t;
    const frame = [0, ''];
    this.where.push(frame);
    const plain = Array.isArray(rows);
    let r = 0;
    for (const row of rows) {
      if (!plain) t.views(); // an iterator (a view) may grow the memory
      frame[0] = r;
      if (Array.isArray(row) && columns) {
        if (row.length > columns.length) {
          frame[1] = columns[columns.length - 1];
          this.fail('row', `the row has ${row.length} values for ${columns.length} columns`);
        }
        for (let c = 0; c < row.length; c++) {
          const v = row[c];
          if (v === undefined) continue;
          frame[1] = columns[c];
          this.key(columns[c]);
          this.value(v, forced.get(columns[c]));
        }
      } else if (row !== null && typeof row === 'object' && !Array.isArray(row)) {
        for (const k of Object.keys(row)) {
          const v = own(row, k);
          if (v === undefined) continue;
          frame[1] = k;
          this.key(k);
          this.value(v, forced.get(k));
        }
      } else {
        t.flush();
        const outer = this.where.slice(0, -1);
        const at = outer.map(([rr, c]) => `row ${rr + 1}, column ${JSON.stringify(c)}, `).join('');
        const top = this.where[0];
        throw new JJError(
          `${at}row ${r + 1}: a row must be an object${columns ? ' or an array' : ' (an array row needs schema.columns)'}, found ${showValue(row)}`,
          'row',
          top[0] + 1,
          -1,
          -1,
        );
      }
      t.op(B_END_ROW);
      r++;
    }
    this.where.pop();
  }
}

// ---- encode() without a full schema ------------------------------------------

// The document of `rows` with the types inferred (schema: a partial one,
// see partialSchema) as bytes.
export function buildRows(rows, schema, options) {
  if (rows === null || typeof rows !== 'object' || typeof rows[Symbol.iterator] !== 'function')
    throw new TypeError('encode(rows, schema): rows must be an array (or an iterable) of rows');
  const { text, tree, columns } = partialSchema(schema);
  const opts = checkOptions(options, 'encode', ['onNote', 'badToNull']);
  const x = wasm().exports;
  if (typeof x.jjw_build_new !== 'function') throw new JJError('this build of the module has no row builder', 'usage');
  let s = 0;
  let b = 0;
  let tape = null;
  try {
    s = cStringIn(x, text);
    b = x.jjw_build_new(s, opts.badToNull ? JJ_BUILD_BAD_TO_NULL : 0);
    if (!b) throw lastError();
    if (columns) {
      for (const name of columns) {
        const p = cStringIn(x, name);
        const rc = x.jjw_build_column(b, p, encoder.encode(name).length);
        x.jjw_free(p);
        if (rc) throw lastError();
      }
    }
    tape = new Tape(x, b, x.jjw_build_tape);
    new Packer(tape).rows(rows, tree, columns);
    tape.flush();
    const p = x.jjw_build_finish(b);
    // the document and the error first: onNote may throw, or call in
    const out = p ? takeDoc(x, p, x.jjw_ret_len()) : null;
    const err = p ? null : lastError();
    tellNotes(x, opts.onNote);
    if (err) throw err;
    return out;
  } finally {
    if (tape) tape.free();
    if (b) x.jjw_build_free(b);
    if (s) x.jjw_free(s);
  }
}

// ---- fromJSON, fromCSV ------------------------------------------------------------

// The explicit schema of the converter: its text ("id:i,joined:d") or
// {name: type} as encode's schema.types.
function convertSchema(schema, where) {
  if (schema === undefined || schema === null) return null;
  if (typeof schema === 'string') return schema;
  return typesText(schema, `${where}: schema`).text || null;
}

// JSON (an array of objects, or NDJSON) or CSV in text or bytes, converted
// by jj_convert, as bytes.
export function convert(input, csv, options) {
  const where = csv ? 'fromCSV' : 'fromJSON';
  const opts = checkOptions(options, where,
    csv ? ['schema', 'delimiter', 'null', 'booleans', 'emptyIsText', 'badToNull', 'nullPadding', 'onError', 'onReject', 'onNote', 'name', 'thousands', 'header', 'dateFormat', 'timestampFormat']
      : ['schema', 'badToNull', 'onNote', 'name', 'dateFormat', 'timestampFormat']);
  let bytes;
  if (typeof input === 'string') bytes = encoder.encode(input);
  else if (isBytes(input)) bytes = asBytes(input);
  else throw new TypeError(`${where}(input): input must be a string, a Uint8Array or an ArrayBuffer`);
  const schema = convertSchema(opts.schema, where);
  let delimiter = 0;
  if (opts.delimiter !== undefined) {
    if (typeof opts.delimiter !== 'string' || opts.delimiter.length !== 1 || opts.delimiter.charCodeAt(0) > 0x7f)
      throw new TypeError(`${where}: delimiter must be one ASCII character`);
    delimiter = opts.delimiter.charCodeAt(0);
  }
  // null: a string, or an array of strings (each means null, the first as
  // a string alone does), or an object of them by column ('*': every
  // column)
  const byColumn = opts.null !== null && typeof opts.null === 'object' && !Array.isArray(opts.null);
  const texts = (v) => (Array.isArray(v) ? v : [v]);
  const badTexts = (v, most) => texts(v).some((t) => typeof t !== 'string' || t.includes('\0')) ||
    (Array.isArray(v) && (v.length < 1 || v.length > most));
  const all = byColumn ? opts.null['*'] : opts.null;
  const nulls = all === undefined ? [] : texts(all);
  const nullFor = [];
  if (byColumn)
    for (const [column, v] of Object.entries(opts.null)) {
      if (column === '*') continue;
      if (column.includes('\0') || badTexts(v, JJ_CONVERT_MAX_NULL_FOR))
        throw new TypeError(`${where}: null.${column} must be a string or an array of 1 to 64 strings`);
      for (const t of texts(v)) nullFor.push(column, t);
    }
  if (nullFor.length / 2 > JJ_CONVERT_MAX_NULL_FOR)
    throw new TypeError(`${where}: null takes at most 64 texts for columns`);
  if (all !== undefined && badTexts(all, 17))
    throw new TypeError(`${where}: null must be a string or an array of 1 to 17 strings, or an object of them by column`);
  let thousands = 0;
  if (opts.thousands !== undefined) {
    if (typeof opts.thousands !== 'string' || opts.thousands.length !== 1 || opts.thousands.charCodeAt(0) > 0x7f)
      throw new TypeError(`${where}: thousands must be one ASCII character`);
    thousands = opts.thousands.charCodeAt(0);
  }
  if (opts.name !== undefined && typeof opts.name !== 'string') throw new TypeError(`${where}: name must be a string`);
  // dateFormat, timestampFormat: a strftime pattern or an array of 1 to 16
  const formats = {};
  for (const k of ['dateFormat', 'timestampFormat']) {
    const v = opts[k];
    formats[k] = v === undefined ? [] : Array.isArray(v) ? v : [v];
    if (formats[k].some((t) => typeof t !== 'string' || t.includes('\0')) ||
        (Array.isArray(v) && (v.length < 1 || v.length > 16)))
      throw new TypeError(`${where}: ${k} must be a string or an array of 1 to 16 strings`);
  }
  for (const k of ['booleans', 'emptyIsText', 'nullPadding', 'header'])
    if (opts[k] !== undefined && typeof opts[k] !== 'boolean') throw new TypeError(`${where}: ${k} must be true or false`);
  if (opts.onError !== undefined && !Object.hasOwn(ON_ERROR, opts.onError))
    throw new TypeError(`${where}: onError must be 'fail', 'skip' or 'null'`);
  if (opts.onReject !== undefined && typeof opts.onReject !== 'function')
    throw new TypeError(`${where}: onReject must be a function`);
  const flags =
    (opts.booleans ? JJ_CONVERT_CSV_BOOLEANS : 0) |
    (opts.badToNull ? JJ_CONVERT_BAD_TO_NULL : 0) |
    (opts.emptyIsText ? JJ_CONVERT_CSV_EMPTY_IS_TEXT : 0) |
    (opts.nullPadding ? JJ_CONVERT_CSV_NULL_PADDING : 0) |
    (opts.header === false ? JJ_CONVERT_CSV_NO_HEADER : 0);
  const onError = opts.onError === undefined ? 0 : ON_ERROR[opts.onError];
  const x = wasm().exports;
  if (typeof x.jjw_convert !== 'function') throw new JJError('this build of the module has no converter', 'usage');
  const held = [];
  try {
    const p = x.jjw_alloc(bytes.length);
    if (!p) throw outOfMemory();
    held.push(p);
    mem().u8.set(bytes, p);
    const sp = cStringIn(x, schema);
    if (sp) held.push(sp);
    const np = nulls.length ? cStringIn(x, nulls.join('\0')) : 0;
    if (np) held.push(np);
    const fp = nullFor.length ? cStringIn(x, nullFor.join('\0')) : 0;
    if (fp) held.push(fp);
    const namep = cStringIn(x, opts.name);
    if (namep) held.push(namep);
    const dp = formats.dateFormat.length ? cStringIn(x, formats.dateFormat.join('\0')) : 0;
    if (dp) held.push(dp);
    const tp = formats.timestampFormat.length ? cStringIn(x, formats.timestampFormat.join('\0')) : 0;
    if (tp) held.push(tp);
    x.jjw_convert_formats(dp, formats.dateFormat.length, tp, formats.timestampFormat.length);
    const doc = x.jjw_convert(p, bytes.length, csv ? 1 : 0, delimiter, sp, np, nulls.length, flags, namep, onError,
      fp, nullFor.length / 2, thousands);
    // the document, the error and the rows set aside first: onNote and
    // onReject may throw, or call in
    const out = doc ? takeDoc(x, doc, x.jjw_ret_len()) : null;
    const err = doc ? null : lastError();
    const rejected = doc && opts.onReject ? takeRejects(x) : [];
    for (const r of rejected) opts.onReject(r);
    tellNotes(x, opts.onNote);
    if (err) throw err;
    return out;
  } finally {
    for (const p of held) x.jjw_free(p);
  }
}
