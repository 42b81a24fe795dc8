// utf8.js — JS strings to UTF-8 in the instance's memory.
//
// TextEncoder turns a lone surrogate into U+FFFD without a word, which
// would change a value or a document silently.  So a string that is not
// well-formed UTF-16 is encoded here with each lone surrogate as its
// 3-byte form (ED A0 80 ...), which is not valid UTF-8: the C library then
// rejects it with its own located message ("... is not valid UTF-8").
// Short strings are encoded here too, where a loop beats a call into
// TextEncoder.

const encoder = new TextEncoder();
const wellFormed = typeof ''.isWellFormed === 'function' ? (s) => s.isWellFormed() : () => false;

// Encode s into u8 at `at` (room for 3 bytes per UTF-16 unit); the end.
export function utf8Into(s, u8, at) {
  const n = s.length;
  if (n > 24 && wellFormed(s)) return at + encoder.encodeInto(s, u8.subarray(at, at + 3 * n)).written;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      u8[at++] = c;
    } else if (c < 0x800) {
      u8[at++] = 0xc0 | (c >> 6);
      u8[at++] = 0x80 | (c & 63);
    } else {
      const d = c >= 0xd800 && c < 0xdc00 && i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d < 0xe000) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        u8[at++] = 0xf0 | (cp >> 18);
        u8[at++] = 0x80 | ((cp >> 12) & 63);
        u8[at++] = 0x80 | ((cp >> 6) & 63);
        u8[at++] = 0x80 | (cp & 63);
        i++;
      } else {
        u8[at++] = 0xe0 | (c >> 12);
        u8[at++] = 0x80 | ((c >> 6) & 63);
        u8[at++] = 0x80 | (c & 63);
      }
    }
  }
  return at;
}
