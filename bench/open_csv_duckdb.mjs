// open_csv_duckdb.mjs — DuckDB's side of bench/open_csv.py: read_csv over
// the same file, single-threaded (SET threads=1), in a fresh in-memory
// database per run.  @duckdb/node-api comes from build/duckdb-node (`make
// duckdb-node`).
//
//   node bench/open_csv_duckdb.mjs FILE ROWS
//
// Times, in seconds, of the statements open_csv.py times in SQLite:
//   first   SELECT count(*), sum(x) FROM read_csv(FILE, nullstr='NA'), the
//           first statement of the connection
//   second  the same statement again (DuckDB keeps no rows of a CSV file
//           between statements: it reads the file again)
//   scan    a full scan: every column read (count, sums, max of the date)
// Each answer is checked against ROWS (count) and printed with the times
// as one JSON line: {"version","first","second","scan","answer"}.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'build/duckdb-node/package.json'));
const { DuckDBInstance, version } = require('@duckdb/node-api');

const [file, rows] = process.argv.slice(2);
const src = `read_csv('${file.replace(/'/g, "''")}', nullstr='NA')`;
const SUM = `SELECT count(*), sum(x) FROM ${src}`;
const SCAN = `SELECT count(*), sum(id), sum(x), sum(length(name)), max(day)::VARCHAR FROM ${src}`;

async function timed(con, sql) {
  const t0 = process.hrtime.bigint();
  const r = (await con.runAndReadAll(sql)).getRows()[0];
  return [Number(process.hrtime.bigint() - t0) / 1e9, r];
}

async function main() {
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  await con.run('SET threads=1');
  const [first, a] = await timed(con, SUM);
  const [second, b] = await timed(con, SUM);
  const [scan, c] = await timed(con, SCAN);
  for (const r of [a, b, c]) {
    if (String(r[0]) !== rows) throw new Error(`${r[0]} rows, expected ${rows}`);
  }
  console.log(JSON.stringify({
    version: typeof version === 'function' ? version() : String(version ?? ''),
    first, second, scan,
    answer: [Number(c[0]), Number(c[1]), Number(c[2]), Number(c[3]), String(c[4])],
  }));
}
main().catch((e) => { console.error('open_csv_duckdb:', e.message); process.exit(1); });
