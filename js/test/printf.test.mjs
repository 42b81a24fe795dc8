// printf.test.mjs — lib/printf.js, the reader-only module's vsnprintf, on
// arguments laid out as clang's wasm32 va_list lays them out: what C's
// vsnprintf writes for the same format and arguments (js/wasm_printf.c's
// contract: the conversions the core uses, truncation to n - 1 bytes and
// a NUL, the whole length returned).  reader.test.mjs compares the
// module's messages with the C reader's; this checks the edges the
// messages do not reach (truncation, NULL, '*', alignment, unknown
// conversions).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { vsnprintf } from '../lib/printf.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

// Format fmt with args ([type, value] pairs: 'i' int, 'u' unsigned, 'I'
// long long, 'p' a string placed in memory (or null)) into n bytes;
// [output up to its NUL, return value, whether bytes past n were kept].
function format(fmt, args, n = 256) {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const u8 = new Uint8Array(memory.buffer);
  const dv = new DataView(memory.buffer);
  let top = 64;
  const place = (bytes) => {
    const at = top;
    u8.set(bytes, at);
    u8[at + bytes.length] = 0;
    top += bytes.length + 1;
    return at;
  };
  const f = place(enc.encode(fmt));
  const ptrs = args.map(([t, v]) => (t === 'p' && v !== null ? place(enc.encode(v)) : 0));
  let ap = (top + 7) & -8;
  const start = ap;
  args.forEach(([t, v], i) => {
    if (t === 'I') {
      ap = (ap + 7) & -8;
      dv.setBigInt64(ap, BigInt(v), true);
      ap += 8;
    } else {
      dv.setInt32(ap, t === 'p' ? ptrs[i] : Number(v) | 0, true);
      ap += 4;
    }
  });
  const buf = 32768;
  u8.fill(0x55, buf, buf + 300);
  const r = vsnprintf(memory, buf, n, f, start);
  const end = u8.indexOf(0, buf);
  const untouched = n > 0 ? u8[buf + n] === 0x55 : u8[buf] === 0x55;
  return [n > 0 ? dec.decode(u8.subarray(buf, end)) : '', r, untouched];
}

test('printf.js: the conversions of the core, as C writes them', () => {
  assert.deepEqual(format('row %lld, column "%s", byte %zu', [['I', -5n], ['p', 'id'], ['u', 42]]), ['row -5, column "id", byte 42', 28, true]);
  assert.deepEqual(format('%d %lld %u', [['i', -1], ['I', -9223372036854775808n], ['u', 4294967295]]), ['-1 -9223372036854775808 4294967295', 34, true]);
  assert.deepEqual(format('%llu|%ld|%i', [['I', -1n], ['i', -7], ['i', 2147483647]]), ['18446744073709551615|-7|2147483647', 34, true]);
  assert.deepEqual(format('%.2s|%.*s|%s|%s', [['p', 'abcdef'], ['i', 3], ['p', 'xyzzy'], ['p', null], ['p', 'é']]), ['ab|xyz|(null)|é', 16, true]);
  assert.deepEqual(format('%c%%%q%-5d|%05d', [['i', 65], ['i', 1], ['i', 2]]), ['A%?1|2', 6, true]);
  assert.deepEqual(format('100%', []), ['100', 3, true]);
});

test('printf.js: at most n - 1 bytes and a NUL, the whole length returned', () => {
  assert.deepEqual(format('column %d of %s', [['i', 12], ['p', 'a long name']], 8), ['column ', 24, true]);
  assert.deepEqual(format('abc', [], 1), ['', 3, true]);
  assert.deepEqual(format('abc', [], 0), ['', 3, true]);
  assert.deepEqual(format('abc', [], 4), ['abc', 3, true]);
});
