// page.js — the browser test page's script: load the module, fetch the
// gzip-compressed document, decompress it (DecompressionStream), decode it,
// render the rows, and report what it rendered in #result as JSON.

import { decode, gunzip, init, view } from '/js/jalapenojson.js';
import { cellText, checksum } from '/test/render.js';

const result = document.getElementById('result');
try {
  await init();
  const res = await fetch('/data.jj.gz');
  if (!res.ok) throw new Error(`fetch: HTTP ${res.status}`);
  const bytes = await gunzip(new Uint8Array(await res.arrayBuffer()));
  const rows = decode(bytes);
  const v = view(bytes);
  const table = document.getElementById('table');
  const head = table.insertRow();
  for (const name of v.columns) {
    const th = document.createElement('th');
    th.textContent = name;
    head.appendChild(th);
  }
  for (const row of rows) {
    const tr = table.insertRow();
    for (const name of v.columns) tr.insertCell().textContent = cellText(row[name]);
  }
  // what the page shows, read back from the DOM
  const shown = [...table.rows].slice(1).map((tr) => [...tr.cells].map((td) => td.textContent));
  const prices = v.column('price');
  result.textContent = JSON.stringify({
    ok: true,
    rows: shown.length,
    checksum: checksum(shown),
    priceSum: Array.from(prices).reduce((a, b) => a + b, 0),
    middle: cellText(v.row(Math.floor(v.length / 2)).user),
    compressed: bytes.length > 0 && res.headers.get('content-encoding') === null,
  });
  v.close();
} catch (e) {
  result.textContent = JSON.stringify({ ok: false, error: String((e && e.stack) || e) });
}
