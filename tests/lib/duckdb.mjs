// duckdb.mjs — what the DuckDB extension's tests (tests/duckdb/) share:
// DuckDB from the npm registry (make duckdb-node puts @duckdb/node-api
// into build/duckdb-node), the extension loaded unsigned, a temporary
// directory, and the references the tests compare with: the command-line
// tool's `cat` (every value checked and written by the C core) and the
// SQLite extension's typed table in the sqlite3 shell.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The extension loaded: the build's, or $JJ_DUCKDB_EXTENSION (a build with
// the sanitizers, run with their runtimes preloaded into node).
export const EXTENSION = process.env.JJ_DUCKDB_EXTENSION || join(ROOT, 'build', 'jalapenojson.duckdb_extension');
export const CLI = join(ROOT, 'build', 'jalapenojson');
const require = createRequire(join(ROOT, 'build', 'duckdb-node', 'package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');

// A DuckDB with the extension loaded; `threads` as given (DuckDB's
// default: the machine's cores).
export async function open(threads) {
  const options = { allow_unsigned_extensions: 'true' };
  if (threads) options.threads = String(threads);
  const instance = await DuckDBInstance.create(':memory:', options);
  const con = await instance.connect();
  await con.run(`LOAD '${EXTENSION}'`);
  return { instance, con };
}

// The rows of a query, every value as DuckDB's VARCHAR cast spells it (so
// that -0.0, NaN, a BIGINT's every digit and a nested value compare
// exactly), null as null.
export async function rows(con, sql) {
  const reader = await con.runAndReadAll(`SELECT CAST(COLUMNS(*) AS VARCHAR) FROM (${sql})`);
  return reader.getRows();
}

// The rows of a query, each as one text: DuckDB's VARCHAR cast of the row
// as a STRUCT (cheaper to carry over than rows() for many rows).
export async function lines(con, sql) {
  const reader = await con.runAndReadAll(`SELECT CAST(q AS VARCHAR) FROM (${sql}) q`);
  return reader.getRows().map((r) => r[0]);
}

// The raw values of a query (numbers as bigint where DuckDB's are).
export async function values(con, sql) {
  return (await con.runAndReadAll(sql)).getRows();
}

// The message of the error a query fails with, without DuckDB's kind
// ("Invalid Input Error: "), or null when it succeeds.
export async function error(con, sql) {
  try {
    await con.runAndReadAll(sql);
    return null;
  } catch (e) {
    return e.message.replace(/^[A-Za-z ]+Error: /, '').split('\n')[0];
  }
}

export function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'jj-duckdb-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function sqlQuote(s) {
  return `'${s.replaceAll("'", "''")}'`;
}

// `jalapenojson cat FILE` (NDJSON): { ok, out, err }.
export function cat(file) {
  const p = spawnSync(CLI, ['cat', '-q', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  return { ok: p.status === 0, out: p.stdout, err: p.stderr };
}

// The error the SQLite extension's typed table reports for FILE, the
// message only ("FILE: row 3, column ..."), or null when it reads it all.
export function sqliteError(file) {
  const sql = `CREATE VIRTUAL TABLE temp.t USING jj_open(${sqlQuote(file)});\n.output /dev/null\nSELECT * FROM t;\n`;
  const p = spawnSync('sqlite3', ['-batch', '-bail', '-cmd', `.load ${join(ROOT, 'jalapenojson')}`, ':memory:'],
                      { input: sql, encoding: 'utf8' });
  if (p.status === 0) return null;
  return p.stderr.trim().split('\n')[0].replace(/^(Parse|Runtime) error( near line \d+)?: /, '');
}

export { execFileSync };
