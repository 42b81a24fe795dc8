// producers_child.mjs MANIFEST MODULE_URL — the JavaScript producers of
// test_producers.py: for each case of MANIFEST (JSON: rows, their JSON and
// CSV text, the producers to run), the document and the onNote sentences of
// encode, fromJSON and fromCSV of the module at MODULE_URL; printed as one
// JSON array.  Bytes and integers beyond 2^53 come tagged, as
// {"$bytes": base64} and {"$bigint": digits}.
import fs from 'node:fs';

const jj = await import(process.argv[3]);

function revive(v) {
  if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1) {
    if ('$bytes' in v) return new Uint8Array(Buffer.from(v.$bytes, 'base64'));
    if ('$bigint' in v) return BigInt(v.$bigint);
  }
  if (Array.isArray(v) && v.every((x) => x && typeof x === 'object' && !Array.isArray(x))) return v.map(row);
  return v;
}

function row(r) {
  const o = {};
  for (const [k, v] of Object.entries(r)) o[k] = revive(v);
  return o;
}

function run(f) {
  const notes = [];
  try {
    return { doc: f((m) => notes.push(m)), notes };
  } catch (e) {
    return { error: e.message };
  }
}

const out = [];
for (const c of JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))) {
  const got = {};
  for (const p of c.producers) {
    if (p === 'js encode') {
      const rows = c.rows.map(row);
      got[p] = run((onNote) => jj.encodeText(rows, undefined, { onNote }));
    } else if (p === 'js fromJSON') {
      got[p] = run((onNote) => jj.fromJSONText(c.json, { onNote }));
    } else if (p === 'js fromCSV') {
      got[p] = run((onNote) => jj.fromCSVText(c.csv, { onNote, delimiter: ',', booleans: c.booleans }));
    }
  }
  out.push(got);
}
process.stdout.write(JSON.stringify(out));
