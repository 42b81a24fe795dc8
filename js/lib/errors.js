// errors.js — the one error class of the module, and how messages quote a
// JS value, in the C library's words (core/error.c).

// What every failure on a document or a value throws.  The fields are the
// C library's jj_error: `code` its name ("date", "syntax", ... from
// jj_code_name; "internal" when the WebAssembly instance itself failed),
// `row` 1-based (0: not in a row), `column` 0-based (-1: none), `offset`
// the byte in the document (-1: none).  Row and column are those of the
// top-level table; the message spells out a nested table's place.
export class JJError extends Error {
  constructor(message, code, row = 0, column = -1, offset = -1) {
    super(message);
    this.name = 'JJError';
    this.code = code;
    this.row = row;
    this.column = column;
    this.offset = offset;
  }
}

const encoder = new TextEncoder();
const utf8 = new TextDecoder();

// A string as jj_show quotes input: in double quotes, printable ASCII and
// multibyte characters as they are, `"` and `\` escaped, other bytes as
// \xHH, cut after 40 bytes with "...".
export function showString(s) {
  const b = encoder.encode(s);
  let out = '"';
  let i = 0;
  while (i < b.length && i < 40) {
    const c = b[i];
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) {
      out += String.fromCharCode(c);
      i++;
    } else if (c >= 0xc0) {
      const n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      out += utf8.decode(b.subarray(i, i + n));
      i += n;
    } else if (c === 0x22 || c === 0x5c) {
      out += '\\' + String.fromCharCode(c);
      i++;
    } else {
      out += '\\x' + c.toString(16).padStart(2, '0');
      i++;
    }
  }
  return out + '"' + (i < b.length ? '...' : '');
}

// A JS value as a message names it: strings quoted, numbers as JS writes
// them, BigInts with their n, other objects by kind.
export function showValue(v) {
  switch (typeof v) {
    case 'string':
      return showString(v);
    case 'number':
    case 'boolean':
      return String(v);
    case 'bigint':
      return `${v}n`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
  }
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'a Date';
  if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return `a ${v.constructor.name}`;
  return 'an object';
}
