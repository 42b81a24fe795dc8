// fromCSV's thousands, null by column (an object) and header: false against
// the CLI converter's --thousands, --null-for and --no-header on
// tests/data/unemployment_grouped.tsv: the same document bytes and notes;
// and the options' bad values.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as jj from '../jalapenojson.js';
import { ROOT } from '../testlib/helpers.mjs';

const CLI = path.join(ROOT, 'build/jalapenojson');
const RAW = fs.readFileSync(path.join(ROOT, 'tests/data/unemployment_grouped.tsv'));
const HEADLESS = RAW.subarray(RAW.indexOf(10) + 1);

function cli(data, args) {
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: run make all`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jj-csv-opts-'));
  try {
    const input = path.join(dir, 'in.tsv');
    fs.writeFileSync(input, data);
    const r = spawnSync(CLI, ['convert', '-q', '--from', 'tsv', ...args, input, '-']);
    assert.equal(r.status, 0, r.stderr.toString());
    return new Uint8Array(r.stdout);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const CASES = [
  [RAW, ['--thousands', ','], { thousands: ',' }],
  [RAW, ['--null-for', 'rate=NA'], { null: { rate: 'NA' } }],
  [RAW, ['--thousands', ',', '--null-for', 'rate=NA', '--null-for', 'unemployed=NA'],
    { thousands: ',', null: { rate: ['NA'], unemployed: 'NA' } }],
  [RAW, ['--null', '', '--null-for', 'rate=NA', '--null-for', 'rate=.'], { null: { '*': [''], rate: ['NA', '.'] } }],
  [HEADLESS, ['--no-header', '--thousands', ','], { header: false, thousands: ',' }],
  [HEADLESS, ['--no-header', '--null-for', 'column_5=NA'], { header: false, null: { column_5: 'NA' } }],
];

for (const [data, args, opts] of CASES) {
  test(`fromCSV as the CLI: ${args.join(' ')}`, () => {
    assert.deepEqual(jj.fromCSV(data, { delimiter: '\t', ...opts }), cli(data, args));
  });
}

test('fromCSV: thousands, null by column, header: false', () => {
  const notes = [];
  const rows = jj.decode(jj.fromCSV(RAW, { thousands: ',', null: { rate: 'NA', unemployed: 'NA' },
    onNote: (n) => notes.push(n) }));
  assert.deepEqual(rows.map((r) => r.labor_force), [25957, 93849, 8373, 8661, 25006, 4776, 8879]);
  assert.equal(rows[4].unemployed, null);
  assert.equal(rows[4].rate, null);
  assert.ok(notes.includes('column "labor_force": 7 numbers with thousands separators (first: row 1, "25,957") ' +
    'read as integers'), notes);
  assert.ok(notes.includes('column "rate": 1 field read as null by its null markers ("NA"; first: row 5)'), notes);
  // without the options: the same document as before, grouped numbers as text
  assert.deepEqual(jj.fromCSV(RAW, { header: true }), jj.fromCSV(RAW));
  assert.equal(jj.decode(jj.fromCSV(RAW))[0].labor_force, '25,957');
  assert.deepEqual(jj.decode(jj.fromCSV('1,x\n2,y\n', { header: false })),
    [{ column_1: 1, column_2: 'x' }, { column_1: 2, column_2: 'y' }]);
});

test('fromCSV: the new options\' bad values', () => {
  assert.throws(() => jj.fromCSV('a,b\n1,2\n', { null: { rate: 'NA' } }),
    /column "rate" has a null marker but is not in the header/);
  assert.throws(() => jj.fromCSV('a\n1\n', { thousands: '.' }), /thousands separator cannot be/);
  assert.throws(() => jj.fromCSV('a\n1\n', { thousands: ',,' }), /thousands must be one ASCII character/);
  assert.throws(() => jj.fromCSV('a\n1\n', { thousands: 44 }), /thousands must be one ASCII character/);
  assert.throws(() => jj.fromCSV('a\n1\n', { header: 0 }), /header must be true or false/);
  assert.throws(() => jj.fromCSV('a\n1\n', { null: { a: [] } }), /null\.a must be a string or an array/);
  assert.throws(() => jj.fromCSV('a\n1\n', { null: { a: 5 } }), /null\.a must be a string or an array/);
  assert.throws(() => jj.fromCSV('a\n1\n', { null: { a: Array(65).fill('x') } }), /null\.a must be/);
  assert.throws(() => jj.fromCSV('a\n1\n', { null: { '*': [] } }), /null must be a string or an array/);
  assert.throws(() => jj.fromCSV('a,b\n1,2\n', { null: { a: Array(40).fill('x'), b: Array(40).fill('y') } }),
    /null takes at most 64 texts for columns/);
  assert.throws(() => jj.fromJSON('[]', { thousands: ',' }), /thousands/);
});
