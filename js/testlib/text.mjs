// text.mjs — a document of text values of every length from 0 to 90
// UTF-8 bytes, made of 1- to 4-byte characters, for the check that reading
// text gives every string back exactly: js/wasm_read.c copies each text
// value into its batch and measures it in UTF-16 units (8 bytes at a
// time in the default module, the last word masked, byte by byte in the
// reader-only one), so every length and every place of a multibyte
// character within a word matters.  Written as JSON text, so that the
// reader-only module (no writer) reads it too.

import assert from 'node:assert/strict';

const CHARS = ['a', 'é', '€', '😀', '"', '\n', 'ß', '中', '𝄞', '~'];
const encoder = new TextEncoder();

// Rows [i, s, t]: s grows one character at a time from '' (each width in
// turn), t is s with its characters rotated; short text is interned by
// the module, so every value appears twice (the second read by its id).
export function textRows() {
  const rows = [];
  for (let start = 0; start < CHARS.length; start++) {
    let s = '';
    for (let k = 0; encoder.encode(s).length <= 90; k++) {
      const t = [...s].reverse().join('');
      rows.push([rows.length, s, t], [rows.length + 1, s, t]);
      s += CHARS[(start + k * (start + 1)) % CHARS.length];
    }
  }
  return rows;
}

export function textDoc(rows) {
  const head = '{"jalapenojson":1,"columns":["i","s","t"],"types":["i","s","s"],"rows":[\n';
  return encoder.encode(head + rows.map((r) => JSON.stringify(r)).join(',\n') + '\n]}\n');
}

// decode() and view().column() of the document give back every string.
export function checkText(jj) {
  const rows = textRows();
  const doc = textDoc(rows);
  const decoded = jj.decode(doc);
  const v = jj.view(doc);
  const s = v.column('s');
  const t = v.column('t');
  v.close();
  assert.equal(decoded.length, rows.length);
  for (let i = 0; i < rows.length; i++) {
    const want = rows[i];
    if (decoded[i].s !== want[1] || decoded[i].t !== want[2] || s[i] !== want[1] || t[i] !== want[2])
      assert.fail(`row ${i + 1}: ${JSON.stringify([decoded[i].s, decoded[i].t, s[i], t[i]])} instead of ${JSON.stringify(want.slice(1))}`);
  }
  return rows.length;
}
