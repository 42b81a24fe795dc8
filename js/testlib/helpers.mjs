// helpers.mjs — what the tests (js/test/) share: paths, the C helper
// (build/js/jjdump), a dump of values in jjdump's format, random values.
// Outside js/test/ (as the browser page is) because `node --test` runs
// every script under a directory named test as a test file.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const JS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.resolve(JS_DIR, '..');
export const JJDUMP = path.join(ROOT, 'build/js/jjdump');

// ---- The C side ------------------------------------------------------------

export function tmpFile(bytes, name = 'doc.jj') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jj-js-test-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

function jjdump(args) {
  if (!fs.existsSync(JJDUMP)) throw new Error(`${JJDUMP} is missing: run make js`);
  return execFileSync(JJDUMP, args, { maxBuffer: 1 << 28 });
}

// What C reads in a document: jjdump's dump (throws with C's message when
// the document is not valid).
export function cDump(bytes) {
  const file = tmpFile(bytes);
  try {
    return jjdump(['dump', file]).toString('latin1');
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true });
  }
}

// The document rewritten by the C writer.
export function cCopy(bytes) {
  const file = tmpFile(bytes);
  try {
    return new Uint8Array(jjdump(['copy', file]));
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true });
  }
}

// A random document written by the C writer.
export function cGen(seed, rows) {
  return new Uint8Array(jjdump(['gen', String(seed), String(rows)]));
}

// ---- Dumps in jjdump's format ---------------------------------------------

const encoder = new TextEncoder();
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function floatDump(v) {
  if (Number.isNaN(v)) return 'f:nan';
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  return 'f:' + dv.getBigUint64(0).toString(16).padStart(16, '0');
}

// One value: `plain` as decode() gives it by default, `exact` as
// decode({bigint: 'always', timestamps: 'object'}) gives it.
function valueDump(type, plain, exact) {
  if (plain === null) return '~';
  if (typeof type !== 'string') return '[' + rowsDump(type, plain, exact, ';') + ']';
  switch (type) {
    case 'i':
      return String(exact);
    case 'f':
      return floatDump(plain);
    case 's':
      return 's:' + hex(encoder.encode(plain));
    case 'd':
      return 'd:' + plain;
    case 't': {
      const seconds = Math.floor(exact.date.getTime() / 1000);
      return `t:${plain}/${seconds}/${exact.nanos}/${exact.zone}/${exact.digits}`;
    }
    case 'l':
      return 'l:' + plain;
    case 'b':
      return String(plain);
    case 'x':
      return 'x:' + hex(plain);
    case 'j': // the canonical text, which JSON.stringify gives back for the corpus's values
      return 'j:' + hex(encoder.encode(JSON.stringify(plain)));
  }
  throw new Error(`unknown type ${type}`);
}

function rowsDump(schema, plain, exact, sep) {
  return plain
    .map((row, r) => schema.columns.map((name, c) => valueDump(schema.types[c], row[name], exact[r][name])).join(','))
    .join(sep);
}

// The dump of a document as JS reads it (jj: the module).
export function jsDump(jj, bytes) {
  const v = jj.view(bytes);
  const schema = { columns: v.columns, types: v.types };
  v.close();
  const plain = jj.decode(bytes);
  const exact = jj.decode(bytes, { bigint: 'always', timestamps: 'object' });
  return rowsDump(schema, plain, exact, '\n') + '\n';
}

// ---- Random values ---------------------------------------------------------

export function rng(seed) {
  let s = BigInt(seed);
  return () => {
    // splitmix64, as a number in [0, 1)
    s = BigInt.asUintN(64, s + 0x9e3779b97f4a7c15n);
    let z = s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    z ^= z >> 31n;
    return Number(z >> 11n) / 2 ** 53;
  };
}

export function randomSchema(rand, depth = 0) {
  const n = 1 + Math.floor(rand() * 6);
  const columns = [];
  const types = [];
  for (let i = 0; i < n; i++) {
    columns.push(['id', 'name', 'x y', 'é', '__proto__', 'constructor', '0', `c${i}`][Math.floor(rand() * 8)] + '_' + i);
    types.push(depth < 2 && rand() < 0.15 ? randomSchema(rand, depth + 1) : 'ifsdtlbx'[Math.floor(rand() * 8)]);
  }
  if (rand() < 0.2) columns[0] = '__proto__';
  return { columns, types };
}

const TEXT_PARTS = ['a', 'Z', ' ', '"', '\\', '/', '\n', '\t', '\u0000', '\u0001', '\u001f', '\u007f', 'é', '€', '😀', '\uffff', '\u2028', 'Tromsø'];

function pad(n, w) {
  return String(n).padStart(w, '0');
}

export function randomValue(rand, type) {
  if (rand() < 0.12) return rand() < 0.5 ? null : undefined;
  const pick = (list) => list[Math.floor(rand() * list.length)];
  if (typeof type !== 'string') {
    const rows = [];
    for (let r = Math.floor(rand() * 4); r > 0; r--) rows.push(randomRow(rand, type, rand() < 0.5));
    return rows;
  }
  switch (type) {
    case 'i': {
      const k = rand();
      if (k < 0.3) return pick([0, -1, 1, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 2 ** 60, -(2 ** 63)]);
      if (k < 0.5) return pick([9223372036854775807n, -9223372036854775808n, 9007199254740993n, 5n]);
      if (k < 0.8) return Math.floor(rand() * 2001) - 1000;
      return BigInt.asIntN(64, BigInt(Math.floor(rand() * 2 ** 32)) * 4294967296n + BigInt(Math.floor(rand() * 2 ** 32)));
    }
    case 'f': {
      const k = rand();
      if (k < 0.3) return pick([0, -0, NaN, Infinity, -Infinity, 5e-324, 1.7976931348623157e308, 0.1, 19.99, 1e16, 1e-5]);
      if (k < 0.6) return (Math.floor(rand() * 2000001) - 1000000) / 100;
      const dv = new DataView(new ArrayBuffer(8));
      dv.setUint32(0, Math.floor(rand() * 2 ** 32));
      dv.setUint32(4, Math.floor(rand() * 2 ** 32));
      const v = dv.getFloat64(0);
      return Number.isFinite(v) ? v : 1.5;
    }
    case 's': {
      let s = '';
      for (let n = Math.floor(rand() * 9); n > 0; n--) s += pick(TEXT_PARTS);
      return s;
    }
    case 'd': {
      const days = Math.floor(rand() * 3652059) - 719528;
      return new Date(days * 86400000).toISOString().slice(0, 10);
    }
    case 't': {
      const ms = Math.floor(rand() * 315400000000) * 1000 - 62100000000000;
      const base = new Date(ms).toISOString().slice(0, 19);
      const digits = Math.floor(rand() * 10);
      let frac = '';
      for (let i = 0; i < digits; i++) frac += Math.floor(rand() * 10);
      const zone = rand() < 0.3 ? 'Z' : `${rand() < 0.5 ? '+' : '-'}${pad(Math.floor(rand() * 24), 2)}:${pad(Math.floor(rand() * 60), 2)}`;
      return base + (digits ? '.' + frac : '') + zone;
    }
    case 'l': {
      const ms = Math.floor(rand() * 315400000000) * 1000 - 62100000000000;
      const digits = Math.floor(rand() * 10);
      let frac = '';
      for (let i = 0; i < digits; i++) frac += Math.floor(rand() * 10);
      return new Date(ms).toISOString().slice(0, 19) + (digits ? '.' + frac : '');
    }
    case 'b':
      return rand() < 0.5;
    case 'x': {
      const b = new Uint8Array(Math.floor(rand() * 13));
      for (let i = 0; i < b.length; i++) b[i] = Math.floor(rand() * 256);
      return b;
    }
  }
  throw new Error(`unknown type ${type}`);
}

// A row as an object (possibly with an own "__proto__") or an array.
export function randomRow(rand, schema, asArray) {
  const values = schema.types.map((t) => randomValue(rand, t));
  if (asArray) return values;
  const row = {};
  schema.columns.forEach((name, i) => {
    if (values[i] !== undefined)
      Object.defineProperty(row, name, { value: values[i], enumerable: true, writable: true, configurable: true });
  });
  return row;
}
