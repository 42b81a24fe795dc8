// errors.test.mjs — read_jj's errors say what and where as the SQLite
// extension and the command-line tool say it, and no input crashes DuckDB:
// the repository's bad samples; the fuzz seeds, every sample cut short at
// many places and changed byte by byte (a seeded generator, so a failure
// repeats), each read by read_jj and by `jalapenojson cat`: both succeed
// with the same rows, or both fail with the same located message.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';

import { ROOT, cat, error, open, rows, sqliteError, sqlQuote, tempDir, values } from '../lib/duckdb.mjs';

let db, tmp;
before(async () => {
  db = await open(2);
  tmp = tempDir();
});
after(() => tmp.cleanup());

test('the bad samples: the SQLite typed table\'s messages, to the letter', async () => {
  for (const name of ['bad_count.jj', 'bad_date.jj', 'bad_row.jj', 'bad_version.jj']) {
    const file = join(ROOT, 'sql', 'data', name);
    const want = sqliteError(file);
    assert.ok(want && want.startsWith(file + ': '), want);
    assert.equal(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(file)})`), want, name);
  }
});

// read_jj and cat agree on file: the same rows, or the same error.
async function agree(file) {
  const ref = cat(file);
  const msg = await error(db.con, `SELECT * FROM read_jj(${sqlQuote(file)}, parallel = false)`);
  if (!ref.ok) {
    assert.equal(msg, ref.err.trim().replace(/^jalapenojson: /, ''), file);
    return 'error';
  }
  assert.equal(msg, null, file);
  const lines = ref.out === '' ? [] : ref.out.trimEnd().split('\n');
  const got = await values(db.con, `SELECT count(*) FROM read_jj(${sqlQuote(file)})`);
  assert.deepEqual(got, [[BigInt(lines.length)]], file);
  return 'rows';
}

function samples() {
  const out = [];
  for (const dir of [join(ROOT, 'tests', 'fuzz', 'seeds'), join(ROOT, 'sql', 'data')]) {
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith('.jj')) continue;
      out.push({ name, bytes: readFileSync(join(dir, name)) });
    }
  }
  return out;
}

test('every sample cut short, at many places: never a crash, the core\'s answer', async () => {
  const seen = { rows: 0, error: 0 };
  for (const { name, bytes } of samples()) {
    const step = Math.max(1, Math.floor(bytes.length / 25));
    for (let at = 0; at < bytes.length; at += step) {
      const file = join(tmp.dir, `cut-${name}`);
      writeFileSync(file, bytes.subarray(0, at));
      seen[await agree(file)]++;
    }
  }
  assert.ok(seen.error > 50, JSON.stringify(seen));
});

test('samples changed byte by byte: never a crash, the core\'s answer', async () => {
  let state = 0x2545f491;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8;
  const alphabet = Buffer.from('[]{},:"\\0123456789-.eE+ \ntruefalsnuxAZ/\u00ff');
  const seen = { rows: 0, error: 0 };
  for (const { name, bytes } of samples()) {
    for (let k = 0; k < 15; k++) {
      const copy = Buffer.from(bytes);
      const changes = 1 + (next() % 3);
      for (let c = 0; c < changes && copy.length; c++) copy[next() % copy.length] = alphabet[next() % alphabet.length];
      const file = join(tmp.dir, `flip-${name}`);
      writeFileSync(file, copy);
      seen[await agree(file)]++;
    }
  }
  assert.ok(seen.error > 30 && seen.rows > 5, JSON.stringify(seen));
});

test('a cut gzip stream, a brotli file that is not brotli, a document that is not one', async () => {
  const gz = gzipSync(readFileSync(join(ROOT, 'sql', 'data', 'rows.jj')));
  const cut = join(tmp.dir, 'cut.jj.gz');
  writeFileSync(cut, gz.subarray(0, gz.length - 20));
  assert.match(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(cut)})`), /cut\.jj\.gz": gzip stream is truncated|cut\.jj\.gz: .*truncated|unexpected end/);
  const br = join(tmp.dir, 'plain.jj.br');
  writeFileSync(br, readFileSync(join(ROOT, 'sql', 'data', 'rows.jj')));
  assert.match(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(br)})`), /plain\.jj\.br/);
  const notOne = join(tmp.dir, 'array.jj');
  writeFileSync(notOne, '[1,2,3]');
  assert.equal(await error(db.con, `SELECT * FROM read_jj(${sqlQuote(notOne)})`), cat(notOne).err.trim().replace(/^jalapenojson: /, ''));
  // DuckDB is still there
  assert.deepEqual(await rows(db.con, 'SELECT 42'), [['42']]);
});
