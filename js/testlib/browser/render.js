// render.js — how the browser test page shows a value, and the checksum
// of what it shows; the page and the test (in Node) share it, so the test
// knows what the page must render.

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

// A value as the text of its table cell.
export function cellText(v) {
  if (v === null || v === undefined) return '';
  if (v instanceof Uint8Array) return hex(v);
  if (Array.isArray(v)) return v.map((row) => Object.values(row).map(cellText).join('/')).join('; ');
  if (typeof v === 'number' && Object.is(v, -0)) return '-0';
  return String(v);
}

// FNV-1a (32 bits) of the cells' texts, tab between cells, newline after
// rows, over the UTF-16 code units.
export function checksum(rows) {
  let h = 0x811c9dc5;
  for (const cells of rows) {
    const line = cells.join('\t') + '\n';
    for (let i = 0; i < line.length; i++) h = Math.imul(h ^ line.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
