// fromCSV's nullPadding, onError, onReject and null as an array against the
// CLI converter on the same documents (tests/data/releases.csv,
// rates_bad.csv, rates_na.tsv; as they are,
// CRLF, a byte order mark, TSV): the same document bytes, and the rows set
// aside equal to the CLI's --rejects file, the input's name aside.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as jj from '../jalapenojson.js';
import { ROOT } from '../testlib/helpers.mjs';

const CLI = path.join(ROOT, 'build/jalapenojson');

function shapes(raw) {
  const s = raw.toString('latin1');
  const b = (t) => Buffer.from(t, 'latin1');
  return {
    plain: raw,
    crlf: b(s.replaceAll('\n', '\r\n')),
    bom: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), raw]),
    tsv: b(s.replaceAll(',', '\t')),
  };
}

function cli(data, args) {
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: run make all`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jj-csv-rows-'));
  try {
    const input = path.join(dir, 'in.csv');
    const rej = path.join(dir, 'rej.ndjson');
    fs.writeFileSync(input, data);
    const extra = args.includes('--on-error') ? ['--rejects', rej] : [];
    const r = spawnSync(CLI, ['convert', '-q', '--from', 'csv', ...args, ...extra, input, '-']);
    assert.equal(r.status, 0, r.stderr.toString());
    const rejects = extra.length
      ? fs.readFileSync(rej, 'utf8').split('\n').filter((l) => l).map((l) => {
        const o = JSON.parse(l);
        o.message = o.message.slice(o.message.indexOf(': ') + 2); // the input's name
        return o;
      })
      : [];
    return { doc: new Uint8Array(r.stdout), rejects };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const CASES = [
  ['releases.csv', ['--null-padding'], { nullPadding: true }],
  ['releases.csv', ['--on-error', 'skip'], { onError: 'skip' }],
  ['rates_bad.csv', ['--on-error', 'skip', '--schema', 'rate:f'], { onError: 'skip', schema: 'rate:f' }],
  ['rates_bad.csv', ['--on-error', 'null', '--schema', 'rate:f'], { onError: 'null', schema: 'rate:f' }],
  ['rates_na.tsv', ['--null', '', '--null', 'NA', '--null', '.'], { null: ['', 'NA', '.'] }],
  ['rates_na.tsv', ['--null', 'NA', '--null', 'NULL'], { null: ['NA', 'NULL'] }],
  ['unemployment.tsv', [], {}],
  ['unemployment.tsv', ['--schema', 'rate:f'], { schema: 'rate:f' }],
];

for (const [name, args, opts] of CASES) {
  for (const [shape, data] of Object.entries(shapes(fs.readFileSync(path.join(ROOT, 'tests/data', name))))) {
    test(`fromCSV as the CLI: ${name} ${shape} ${args.join(' ')}`, () => {
      const want = cli(data, args);
      const rejects = [];
      const doc = jj.fromCSV(data, { ...opts, onReject: (r) => rejects.push(r) });
      assert.deepEqual(doc, want.doc);
      assert.deepEqual(rejects, want.rejects);
      const rows = jj.decode(doc).length;
      assert.equal(rows + rejects.length, data.toString('latin1').split('\n').length - 2);
    });
  }
}

test('fromCSV: rows set aside, notes and option errors', () => {
  const rejects = [];
  const notes = [];
  const doc = jj.fromCSV('a,b\n1,2\n3\n4,5,6\n', { delimiter: ',', nullPadding: true, onError: 'skip',
    onReject: (r) => rejects.push(r), onNote: (n) => notes.push(n) });
  assert.deepEqual(jj.decode(doc), [{ a: 1, b: 2 }, { a: 3, b: null }]);
  assert.deepEqual(rejects, [{ row: 3, byte: 10, column: null, code: 'row',
    message: 'row 3, byte 10: expected 2 fields (as in the header), found 3' }]);
  assert.ok(notes.includes('1 row had fewer fields than the header (first: row 2, 1 of 2): padded with nulls'), notes);
  assert.ok(notes.includes('1 row set aside (first: row 3, byte 10: expected 2 fields (as in the header), found 3)'), notes);
  assert.throws(() => jj.fromCSV('a\n1\n', { onError: 'ignore' }), /onError must be/);
  assert.throws(() => jj.fromCSV('a\n1\n', { onReject: 1 }), /onReject must be a function/);
  assert.throws(() => jj.fromCSV('a,b\n1\n'), /row 1, byte 4: expected 2 fields/);
  assert.throws(() => jj.fromCSV('a\n1\n', { null: [] }), /null must be a string or an array/);
  assert.throws(() => jj.fromCSV('a\n1\n', { null: ['NA', 1] }), /null must be a string or an array/);
});
