// jalapenojson.js — read and write jalapenojson documents in JavaScript,
// with the C library of this repository compiled to WebAssembly.
//
//   import { decode, view, encode } from 'jalapenojson';
//   const rows = decode(bytes);            // [{id: 1, user: "u0042", ...}]
//   const v = view(bytes);                 // lazy: v.row(i), v.column(name)
//   const doc = encode(rows, {columns: ['id', 'user'], types: ['i', 's']});
//   const inferred = encode(JSON.parse(text));   // types as the converter's
//   const fromFile = fromCSV(csvText);            // the C converter
//
// Node loads the module on first use; browsers `await init()` first.
// docs/javascript.md has the value mapping and the options.

import { JJError } from './lib/errors.js';
import { gunzip, gunzipSync, isGzip } from './lib/gzip.js';
import { call, checkRange, currentGeneration, init, mem, open as opened, outOfMemory, wasm } from './lib/instance.js';
import { View, decodeDoc, docShape, openDoc, readOptions } from './lib/read.js';
import { utf8Into } from './lib/utf8.js';
import { encodeRows } from './lib/write.js';
import { buildRows, convert } from './lib/build.js';

export { JJError, gunzip, init };

const utf8 = new TextDecoder();

// The document's bytes in the instance (a new allocation the handle will
// own): from a string, a Uint8Array (or other ArrayBufferView) or an
// ArrayBuffer; gzip data is decompressed first where that can be done
// synchronously (Node).
function place(input, options) {
  const x = wasm().exports;
  if (typeof input === 'string' && input.length > 4096 && typeof input.isWellFormed === 'function' && input.isWellFormed()) {
    // a long string: its exact UTF-8 first, as the instance's memory never
    // shrinks after a peak of 3 bytes per character
    input = new TextEncoder().encode(input);
  }
  if (typeof input === 'string') {
    const room = 3 * input.length;
    const p = x.jjw_alloc(room);
    if (!p) throw outOfMemory();
    const len = utf8Into(input, mem().u8, p) - p;
    return { p, len };
  }
  let bytes;
  if (input instanceof Uint8Array) bytes = input;
  else if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
  else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  else throw new TypeError('expected the document as a Uint8Array, an ArrayBuffer or a string');
  if (isGzip(bytes)) {
    const plain = gunzipSync(bytes, options);
    if (!plain) throw new JJError('the document is gzip data: decompress it first with `await gunzip(bytes)`', 'usage');
    bytes = plain;
  }
  const p = x.jjw_alloc(bytes.length);
  if (!p) throw outOfMemory();
  mem().u8.set(bytes, p);
  return { p, len: bytes.length };
}

function open(input, opts, options) {
  const { p, len } = place(input, options);
  return openDoc(p, len, opts);
}

// Every row of the document as an object keyed by column name.  Every
// value is read and checked, and so is the end of the document.
export function decode(input, options) {
  const opts = readOptions(options);
  return call(() => {
    const x = wasm().exports;
    const h = open(input, opts, options);
    try {
      return decodeDoc(h, docShape(h), opts);
    } finally {
      x.jjw_release(h);
    }
  });
}

// decode() of a document given as a string.
export function decodeText(text, options) {
  if (typeof text !== 'string') throw new TypeError('decodeText(text): text must be a string');
  return decode(text, options);
}

// A lazy view of the document: the header is read now, rows and values
// when asked for.  The view holds a copy of the document in the instance
// until close() (or until it is garbage collected).
export function view(input, options) {
  const opts = readOptions(options);
  return call(() => {
    const h = open(input, opts, options);
    try {
      return new View(h, docShape(h), opts);
    } catch (e) {
      wasm().exports.jjw_release(h);
      throw e;
    }
  });
}

// The document of `rows` as UTF-8 bytes, exactly as the C library writes
// it.  With a full schema, {columns, types[, meta]} (types an array), the
// rows are objects keyed by column name or arrays in column order, and the
// C writer writes them as typed.  Without one, or with a partial schema
// ({types: {name: type}, columns: [names]}, either part optional), the
// row builder infers the other types from every row as the converter
// does (options: onNote(message) for its decisions, badToNull).
export function encode(rows, schema, options) {
  if (schema !== null && typeof schema === 'object' && Array.isArray(schema.types)) {
    if (options !== undefined && (options === null || typeof options !== 'object'))
      throw new TypeError('encode: options must be an object');
    return call(() => encodeRows(rows, schema));
  }
  return call(() => buildRows(rows, schema, options));
}

// encode() as a string.
export function encodeText(rows, schema, options) {
  return utf8.decode(encode(rows, schema, options));
}

// A document converted from JSON (an array of objects, or NDJSON) given
// as text or bytes, by the C converter (docs/convert.md): options schema
// ("id:i,joined:d" or {id: 'i'}), badToNull, onNote, name, dateFormat and
// timestampFormat (strftime patterns for other spellings; 'iso': none).
export function fromJSON(input, options) {
  return call(() => convert(input, false, options));
}

// fromJSON() as a string.
export function fromJSONText(input, options) {
  return utf8.decode(fromJSON(input, options));
}

// A document converted from CSV (RFC 4180 with a header row, unless
// header: false): options as fromJSON's, and delimiter (detected by
// default), null (a text, texts, or texts by column), thousands,
// booleans, emptyIsText, nullPadding, onError, onReject.
export function fromCSV(input, options) {
  return call(() => convert(input, true, options));
}

// fromCSV() as a string.
export function fromCSVText(input, options) {
  return utf8.decode(fromCSV(input, options));
}

// For the tests: the instance's exports and memory (not a public API).
export function _internals() {
  return { wasm, mem, checkRange, call, generation: currentGeneration, openViews: () => opened.views };
}
