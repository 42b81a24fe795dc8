// docs.test.mjs — docs/duckdb.md's examples are tests: its ```duckdb
// blocks run in order in one DuckDB session from the repository root, each
// statement in turn; the output of the statements that return rows (the
// column names, then a row per line, values as DuckDB's VARCHAR cast
// spells them, NULL for null, separated by |, as the duckdb shell's .mode
// list prints them) and of those that fail (DuckDB's message, its first
// line) must equal the plain block after the block.  Its ```sh blocks run
// with sh -e at their place in the order.  (tests/project/test_docs.py runs
// the ```sql blocks of the pages in sqlite3; these are DuckDB's.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { ROOT, open } from '../lib/duckdb.mjs';

const FENCE = /^```([\w-]*)\n([\s\S]*?)^```\n/gm;
const WRITTEN = ['rows.parquet', 'rows.ndjson', 'rows-again.jj', 'types.ndjson', 'types-again.jj'];

function examples(text) {
  const blocks = [...text.matchAll(FENCE)].map((m) => ({ lang: m[1], body: m[2], start: m.index, end: m.index + m[0].length }));
  const out = [];
  blocks.forEach((b, i) => {
    if (b.lang !== 'duckdb' && b.lang !== 'sh') return;
    const next = blocks[i + 1];
    const follows = next && next.lang === '' && text.slice(b.end, next.start).trim() === '';
    out.push({ lang: b.lang, body: b.body, want: follows ? next.body : '' });
  });
  return out;
}

// Statements of a block: split at a ; that ends a line.
function statements(body) {
  return body.split(/;\s*\n/).map((s) => s.trim()).filter((s) => s !== '');
}

async function run(con, sql) {
  try {
    const reader = await con.runAndReadAll(`${sql}`);
    if (reader.columnCount === 0 || !/^(SELECT|FROM|WITH|DESCRIBE)\b/i.test(sql)) return '';
    const names = reader.columnNames();
    const text = await con.runAndReadAll(`SELECT CAST(COLUMNS(*) AS VARCHAR) FROM (${sql})`);
    const lines = [names.join('|')];
    for (const row of text.getRows()) lines.push(row.map((v) => (v === null ? 'NULL' : v)).join('|'));
    return lines.join('\n') + '\n';
  } catch (e) {
    return e.message.split('\n')[0] + '\n';
  }
}

test('docs/duckdb.md: every example runs and prints what the page shows', async () => {
  const page = readFileSync(join(ROOT, 'docs', 'duckdb.md'), 'utf8');
  const cases = examples(page);
  assert.ok(cases.filter((c) => c.lang === 'duckdb').length >= 10);
  const prev = process.cwd();
  process.chdir(ROOT);
  const { con } = await open();
  try {
    for (const c of cases) {
      if (c.lang === 'sh') {
        if (c.body.trim() === 'make duckdb') continue; // what built this test's extension
        const got = execFileSync('sh', ['-ec', c.body], { cwd: ROOT, encoding: 'utf8' });
        assert.equal(got, c.want, c.body);
        continue;
      }
      let got = '';
      for (const s of statements(c.body)) {
        // the page loads the extension by its path in build/; open() has
        // loaded it already
        got += await run(con, s);
      }
      assert.equal(got, c.want, c.body);
    }
  } finally {
    process.chdir(prev);
    for (const f of WRITTEN) rmSync(join(ROOT, 'build', f), { force: true });
  }
});
