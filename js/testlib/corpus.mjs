// corpus.mjs — documents the error tests share: SPEC.md's messages
// (js/test/errors.test.mjs), hostile mutations of C-written documents
// (js/test/safety.test.mjs), and js/test/reader.test.mjs runs both on the
// reader-only module too.

import assert from 'node:assert/strict';
import * as jj from '../jalapenojson.js';
import { cDump, cGen } from './helpers.mjs';

const H = '{"jalapenojson":1,"columns":["a"],"types":["i"]';
const ROWS = (t, rows) => `{"jalapenojson":1,"columns":["a"],"types":["${t}"],"rows":[${rows}]}`;
const bytes = (...parts) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

// [document, a phrase of SPEC.md's list that its message holds, options]
export const OTHERS = [
  ['', 'the document is empty'],
  [bytes([0xef, 0xbb, 0xbf], `${H},"rows":[]}`), 'a byte order mark is not allowed'],
  ['[1]', 'expected \'{\' to start a jalapenojson document, found "["'],
  ['{"columns":[]}', 'the first key must be "jalapenojson", found "columns"'],
  ['{"jalapenojson":1,"types":[]}', 'expected "columns" after "jalapenojson", found "types"'],
  ['{"jalapenojson":1,"columns":["a"],"rows":[]}', 'expected "types" after "columns", found "rows"'],
  [`${H}}`, 'the header has no "rows"'],
  [`${H},"rows":{}}`, '"rows" must be an array, found an object'],
  [`${H},"count":-1,"rows":[]}`, '"count" must be a non-negative integer, found -1'],
  [`${H},"count":0,"count":0,"rows":[]}`, 'repeated key "count"'],
  ['{"jalapenojson":1,"columns":"a","types":["i"],"rows":[]}', '"columns" must be an array of names, found "a"'],
  ['{"jalapenojson":1,"columns":[1],"types":["i"],"rows":[]}', 'column names must be strings, found 1'],
  ['{"jalapenojson":1,"columns":["a",""],"types":["i","i"],"rows":[]}', 'column 2 has an empty name'],
  ['{"jalapenojson":1,"columns":["a","a"],"types":["i","i"],"rows":[]}', 'duplicate column name "a"'],
  [bytes('{"jalapenojson":1,"columns":["', [0xff], '"],"types":["i"],"rows":[]}'), 'column name "\\xff" is not valid UTF-8'],
  ['{"jalapenojson":1,"columns":["a\\u0000"],"types":["i"],"rows":[]}', 'column name "a\\x00" contains U+0000'],
  [`{"jalapenojson":1,"columns":[${Array.from({ length: 65536 }, (_, i) => `"c${i}"`)}],"types":[${Array(65536).fill('"i"')}],"rows":[]}`, 'too many columns (at most 65535)'],
  ['{"jalapenojson":1,"columns":["a","b"],"types":["i"],"rows":[]}', '"columns" has 2 names but "types" has 1'],
  ['{"jalapenojson":1,"columns":["a"],"types":["q"],"rows":[]}', 'column "a" has type "q", which this reader does not know'],
  ['{"jalapenojson":1,"columns":["a"],"types":["qq"],"rows":[]}', 'unknown type "qq" for column "a"'],
  ['{"jalapenojson":1,"columns":["a"],"types":[{}],"rows":[]}', 'a nested table type must be {"columns":[...],"types":[...]}'],
  ['{"jalapenojson":1,"columns":["a"],"types":[{"columns":["x"],"types":["i"],"z":1}],"rows":[]}', 'a nested table type has only "columns" and "types"'],
  ['{"jalapenojson":1,"columns":["a"],"types":[{"columns":["b"],"types":[{"columns":["c"],"types":[{"columns":["d"],"types":[{"columns":["e"],"types":["i"]}]}]}]}],"rows":[]}', 'nested tables deeper than the depth limit of 3', { maxDepth: 3 }],
  ['{"jalapenojson":1,"columns":["a","b"],"types":["i","i"],"rows":[[1]]}', 'expected 2 values, found 1'],
  [ROWS('i', '5'), 'a row must be an array, found 5'],
  [ROWS('i', '[1],'), 'expected a row, found "]"'],
  [ROWS('i', '[1][2]'), 'expected \',\' or \']\' after row 1, found "["'],
  [ROWS('i', '[1 2]'), 'expected \',\' or \']\' after a value, found "2"'],
  [ROWS('i', '[nul]'), 'expected a value, found "nul"'],
  [ROWS('s', '["abc'), 'unterminated string'],
  [ROWS('s', '["a\tb"]'), 'raw control character in string'],
  [`${H},"rows":[[1]]]`, 'expected \'}\' after the rows, found "]"'],
  [`${H},"rows":[[1]]} x`, 'unexpected data after the document'],
  [`${H},"rows":[[1]`, 'unexpected end of input (expected'],
  [ROWS('i', '[9223372036854775808]'), '9223372036854775808 does not fit a 64-bit integer'],
  [ROWS('f', '[01]'), '01 is not a valid number'],
  [ROWS('f', '[1e400]'), '1e400 is out of range for a double'],
  [ROWS('f', '["abc"]'), 'expected a number, found "abc"'],
  [ROWS('s', '[5]'), 'expected a string, found 5'],
  [ROWS('d', '[20230101]'), 'expected a date string, found 20230101'],
  [ROWS('t', '[1]'), 'expected a timestamp string, found 1'],
  [ROWS('b', '[1]'), 'expected true or false, found 1'],
  [ROWS('x', '[5]'), 'expected a base64 string, found 5'],
  ['{"jalapenojson":1,"columns":["a"],"types":[{"columns":["x"],"types":["i"]}],"rows":[[{}]]}', 'expected an array of rows, found an object'],
  [ROWS('s', '["\\q"]'), '"\\\\q" is not a valid JSON string (invalid escape)'],
  // SPEC.md section 3's example: an error inside a nested table
  ['{"jalapenojson":1,"columns":["order","placed","lines"],"types":["i","t",{"columns":["sku","qty","price"],"types":["s","i","f"]}],"rows":[\n[1001,"2024-03-01T09:15:00Z",[["A-17",2,9.5],["B-02","1",120.0]]]\n]}', 'row 1, column "lines", row 2, column "qty", byte 191: expected an integer, found "1"'],
];

// The C reader's message for a document (jjdump reads every value in the
// order decode() does).
export function cMessage(doc) {
  try {
    cDump(typeof doc === 'string' ? Buffer.from(doc) : doc);
  } catch (e) {
    // its line of stderr (split at \n only: a message may quote U+2028,
    // which a regex's ^ and $ take for a line end)
    const line = String(e.stderr).split('\n').find((l) => l.startsWith('jjdump: '));
    return line ? line.slice(8) : null;
  }
  return null;
}

// A document with every type, nested tables and escapes, to mutate.
export const SEED_DOCS = [1, 2, 3, 5, 8, 13].map((s) => cGen(s, 6));
SEED_DOCS.push(new TextEncoder().encode('{"jalapenojson":1,"columns":["a","b"],"types":["s",{"columns":["c"],"types":["t"]}],"count":2,"meta":{"x":[1,"\\u00e9"]},"rows":[\n["\\ud83d\\ude00\\n",[["2024-03-01T10:30:00.25+05:30"]]],\n[null,[]]\n]}'));

export function mutate(rand, bytes) {
  const b = Array.from(bytes);
  const edits = 1 + Math.floor(rand() * 3);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rand() * (b.length + 1));
    const k = rand();
    const byte = [0x22, 0x5c, 0x5b, 0x5d, 0x2c, 0x7b, 0x7d, 0x30, 0x2d, 0x65, 0x00, 0xff, 0xc3, 0x20][Math.floor(rand() * 14)];
    if (k < 0.3) b.splice(at, 1);
    else if (k < 0.6) b.splice(at, 0, byte);
    else if (k < 0.9) b[Math.min(at, b.length - 1)] = byte;
    else b.length = at; // truncated
  }
  return new Uint8Array(b);
}

// Everything the module can do with a document; a JJError or nothing.
export function readAll(bytes) {
  const out = [];
  for (const f of [
    () => jj.decode(bytes),
    () => jj.decode(bytes, { bigint: 'always', dates: 'date', timestamps: 'object' }),
    () => {
      const v = jj.view(bytes);
      try {
        for (const name of v.columns) v.column(name);
        v.row(0);
        v.row(3);
        for (const row of v) for (const x of Object.values(row)) if (x && typeof x.column === 'function') [...x];
        v.length;
      } finally {
        v.close();
      }
    },
  ]) {
    try {
      out.push(f());
    } catch (e) {
      assert.ok(e instanceof jj.JJError, `not a JJError: ${e && e.stack}`);
      assert.notEqual(e.code, 'internal', e.message);
      out.push(e);
    }
  }
  return out;
}

