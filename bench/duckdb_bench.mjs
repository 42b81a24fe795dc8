// duckdb_bench.mjs — read_jj against DuckDB's own readers over the same
// 1,000,000 rows (`make bench-duckdb`): bench/gen.c's repetitive set as a
// jalapenojson document (read_jj), and the same rows written by DuckDB's
// COPY as CSV (read_csv), as newline-delimited JSON (read_json) and as
// Parquet (read_parquet).  Four tasks, each at 1 and 2 threads: a full scan
// (every column's values), sum(price), a GROUP BY, and one text column.
// Each query runs ROUNDS times in rounds, the readers of a task back to
// back in an order that changes per round; a time is the fastest round
// (load on a shared machine only adds time), the median beside it.  Every
// reader's answer is checked against read_jj's.  Writes
// bench/DUCKDB_RESULTS.md.
//
//   node bench/duckdb_bench.mjs [--rounds N]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'bench/data/out');
const ROWS = 1000000;
const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const require = createRequire(path.join(ROOT, 'build/duckdb-node/package.json'));
const { DuckDBInstance, version: duckdbVersion } = require('@duckdb/node-api');

// ---- Data ----------------------------------------------------------------

const JJ = path.join(OUT, `repetitive-${ROWS}.jj`);
const CSV = path.join(OUT, `repetitive-${ROWS}.csv`);
const NDJSON = path.join(OUT, `repetitive-${ROWS}.ndjson`);
const PARQUET = path.join(OUT, `repetitive-${ROWS}.parquet`);

async function ensureData(con) {
  if (!fs.existsSync(JJ)) {
    fs.mkdirSync(path.join(ROOT, 'build/bench'), { recursive: true });
    execFileSync('cc', ['-std=c11', '-O2', 'bench/gen.c', '-o', 'build/bench/gen', '-lm'], { cwd: ROOT });
    execFileSync(path.join(ROOT, 'build/bench/gen'), [OUT, String(ROWS)], { cwd: ROOT, stdio: 'ignore' });
  }
  const q = (p) => `'${p}'`;
  // the same rows, the same types, written by DuckDB itself
  if (!fs.existsSync(CSV)) await con.run(`COPY (FROM read_jj(${q(JJ)})) TO ${q(CSV)} (FORMAT csv, HEADER)`);
  if (!fs.existsSync(NDJSON)) await con.run(`COPY (FROM read_jj(${q(JJ)})) TO ${q(NDJSON)} (FORMAT json)`);
  if (!fs.existsSync(PARQUET)) await con.run(`COPY (FROM read_jj(${q(JJ)})) TO ${q(PARQUET)} (FORMAT parquet)`);
}

// ---- Queries -------------------------------------------------------------

const READERS = {
  read_jj: `read_jj('${JJ}')`,
  read_csv: `read_csv('${CSV}')`,
  read_json: `read_json('${NDJSON}', format = 'newline_delimited')`,
  read_parquet: `read_parquet('${PARQUET}')`,
};
const TASKS = {
  scan: { name: 'full scan (every column\'s values)', sql: (src) => `SELECT count(id), max("user"), max(city), max(plan), sum(seats), sum(price)::DECIMAL(18,2), max(joined) FROM ${src}` },
  sum: { name: 'sum(price)', sql: (src) => `SELECT sum(price)::DECIMAL(18,2) FROM ${src}` },
  group: { name: 'GROUP BY city: count, sum(seats), avg(price)', sql: (src) => `SELECT city, count(*), sum(seats), avg(price)::DECIMAL(18,4) FROM ${src} GROUP BY city ORDER BY city` },
  column: { name: 'one text column: count(DISTINCT user)', sql: (src) => `SELECT count(DISTINCT "user") FROM ${src}` },
};
const THREADS = [1, 2];

function text(rows) {
  return JSON.stringify(rows, (k, v) => (typeof v === 'bigint' ? v.toString() : v && typeof v === 'object' && 'toString' in v && !Array.isArray(v) ? v.toString() : v));
}

async function time(con, sql) {
  const t = process.hrtime.bigint();
  const reader = await con.runAndReadAll(sql);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  return { ms, rows: reader.getRows() };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// ---- Run -----------------------------------------------------------------

const started = Date.now();
const instance = await DuckDBInstance.create(':memory:', { allow_unsigned_extensions: 'true' });
const con = await instance.connect();
await con.run(`LOAD '${path.join(ROOT, 'build/jalapenojson.duckdb_extension')}'`);
await ensureData(con);
// Aggregates: the order of rows is not needed, so every thread may work.
await con.run('SET preserve_insertion_order = false');

const times = {}; // times[threads][task][reader] = [ms...]
const answers = {};
for (const th of THREADS) {
  await con.run(`SET threads = ${th}`);
  times[th] = {};
  for (const task of Object.keys(TASKS)) {
    times[th][task] = {};
    for (const r of Object.keys(READERS)) {
      times[th][task][r] = [];
      const { rows } = await time(con, TASKS[task].sql(READERS[r])); // warm-up, and the answer
      const key = `${task}`;
      if (!(key in answers)) answers[key] = text(rows);
      if (text(rows) !== answers[key]) throw new Error(`${r} answers ${task} otherwise than read_jj: ${text(rows)} vs ${answers[key]}`);
    }
  }
  const readers = Object.keys(READERS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const task of Object.keys(TASKS)) {
      // the readers of a task back to back, starting with another each round
      for (let k = 0; k < readers.length; k++) {
        const r = readers[(k + round) % readers.length];
        times[th][task][r].push((await time(con, TASKS[task].sql(READERS[r]))).ms);
      }
    }
  }
}

// Where read_jj's time goes, at one thread: the file read and its rows'
// structure found (count(*), no value converted), one number column
// converted more, and every column.
await con.run('SET threads = 1');
const parts = {};
for (const [name, sql] of [['count', `SELECT count(*) FROM ${READERS.read_jj}`],
                           ['count_parquet', `SELECT count(*) FROM ${READERS.read_parquet}`]]) {
  const xs = [];
  for (let round = 0; round < ROUNDS; round++) xs.push((await time(con, sql)).ms);
  parts[name] = Math.min(...xs);
}

// ---- Report --------------------------------------------------------------

const best = (th, task, r) => Math.min(...times[th][task][r]);
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const ratio = (x) => `${x.toFixed(2)}×`;
const cpu = os.cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown';
const commit = (() => { try { return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim(); } catch { return 'unknown'; } })();
const size = (f) => fs.statSync(f).size.toLocaleString('en-US');
const L = [];
L.push('# DuckDB benchmark results', '');
L.push('Generated by `node bench/duckdb_bench.mjs` (`make bench-duckdb`); do not edit by hand. `read_jj` (this project\'s DuckDB extension) against DuckDB\'s own readers over the same 1,000,000 rows of bench/gen.c\'s repetitive set (id, user, city, plan, seats, price, joined): the jalapenojson document gen.c writes, and the same rows written by DuckDB\'s `COPY` as CSV with a header, as newline-delimited JSON and as Parquet. Every reader\'s answer to every task is checked against read_jj\'s. A time is the fastest of ' + ROUNDS + ' rounds (the median in parentheses): the machine is shared and noisy, load only adds time, and the readers of a task run back to back, in an order that changes every round. `preserve_insertion_order` is off (the tasks are aggregates).', '');
L.push('|  |  |', '|---|---|');
L.push(`| CPU | ${cpu}, ${os.cpus().length} cores |`);
L.push(`| OS | ${os.type()} ${os.release()} |`);
L.push(`| DuckDB | ${duckdbVersion()} (@duckdb/node-api, npm) |`);
L.push(`| date | ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC |`);
L.push(`| commit | ${commit} |`);
L.push(`| rounds | ${ROUNDS} |`);
L.push(`| duration | ${((Date.now() - started) / 60000).toFixed(1)} min |`);
L.push('');
L.push('| file | bytes |', '|---|---|');
for (const f of [JJ, CSV, NDJSON, PARQUET]) L.push(`| ${path.basename(f)} | ${size(f)} |`);
L.push('');
for (const th of THREADS) {
  L.push(`## ${th} thread${th > 1 ? 's' : ''}`, '');
  L.push('| task | read_jj | read_csv | read_json | read_parquet | read_csv ÷ read_jj | read_json ÷ read_jj |');
  L.push('|---|---|---|---|---|---|---|');
  for (const task of Object.keys(TASKS)) {
    const cell = (r) => `${fmt(best(th, task, r))} (${fmt(median(times[th][task][r]))})`;
    L.push(`| ${TASKS[task].name} | ${cell('read_jj')} | ${cell('read_csv')} | ${cell('read_json')} | ${cell('read_parquet')} | ` +
           `${ratio(best(th, task, 'read_csv') / best(th, task, 'read_jj'))} | ${ratio(best(th, task, 'read_json') / best(th, task, 'read_jj'))} |`);
  }
  L.push('');
}
L.push('## 2 threads against 1', '');
L.push('| task | read_jj | read_csv | read_json | read_parquet |', '|---|---|---|---|---|');
for (const task of Object.keys(TASKS)) {
  L.push(`| ${TASKS[task].name} | ${Object.keys(READERS).map((r) => ratio(best(1, task, r) / best(2, task, r))).join(' | ')} |`);
}
L.push('');
L.push('## The aims', '');
const csvOk = THREADS.every((th) => Object.keys(TASKS).every((t) => best(th, t, 'read_jj') <= best(th, t, 'read_csv')));
const json3 = THREADS.flatMap((th) => Object.keys(TASKS).map((t) => [th, t, best(th, t, 'read_json') / best(th, t, 'read_jj')]));
const scale = Object.keys(TASKS).map((t) => [t, best(1, t, 'read_jj') / best(2, t, 'read_jj')]);
L.push(`- **At least as fast as read_csv on every task**: ${csvOk ? 'met' : 'not met'} (read_csv ÷ read_jj from ${ratio(Math.min(...THREADS.flatMap((th) => Object.keys(TASKS).map((t) => best(th, t, 'read_csv') / best(th, t, 'read_jj')))))} to ${ratio(Math.max(...THREADS.flatMap((th) => Object.keys(TASKS).map((t) => best(th, t, 'read_csv') / best(th, t, 'read_jj')))))}).`);
L.push(`- **At least 3× read_json**: met for ${json3.filter((x) => x[2] >= 3).map((x) => `${x[1]} at ${x[0]} thread${x[0] > 1 ? 's' : ''}`).join(', ') || 'no task'}; not for ${json3.filter((x) => x[2] < 3).map((x) => `${x[1]} at ${x[0]} thread${x[0] > 1 ? 's' : ''} (${ratio(x[2])})`).join(', ') || 'none'}.`);
L.push(`- **2 threads at least 1.8× one thread**: ${scale.map(([t, x]) => `${t} ${ratio(x)}`).join(', ')}; ${scale.every((x) => x[1] >= 1.8) ? 'met' : 'not met on every task'} (the machine's two cores are shared with other work, whose load comes and goes between the runs: a ratio below 1.8× can be load on the 2-thread run, one above 2× is load on the 1-thread run, so this ratio is the noisiest number here).`);
L.push('');
L.push('## Where the time goes against read_parquet', '');
L.push(`At one thread \`SELECT count(*)\` takes ${fmt(parts.count)} with read_jj and ${fmt(parts.count_parquet)} with read_parquet. read_jj's count reads every byte of the file (each thread its ranges, with pread) and finds every row's structure (the core checks each row's brackets, strings and value count, and converts one column); a full scan converts every value (${fmt(best(1, 'scan', 'read_jj'))}), sum(price) one column's (${fmt(best(1, 'sum', 'read_jj'))}). Parquet stores rows as columns, compressed and typed, with their counts in its footer: a query reads only the column chunks it names, and their values are decoded in bulk, not parsed one by one from text; a text document has every row's every byte to pass over whichever columns a query uses. What read_jj adds on top of the core: each range's bytes read into a thread's buffer (the file is read once, never whole), and a call of DuckDB's C API per text value longer than 12 bytes (DuckDB copies it into the vector's memory; a shorter one is written into the vector directly). The times at these sizes are tens of milliseconds, so a query's fixed costs (binding reads the header, each thread's first range) weigh in the scaling of the short tasks, and the machine's two cores are shared with other work: the 2-thread times are an upper bound.`);
L.push('');
fs.writeFileSync(path.join(ROOT, 'bench/DUCKDB_RESULTS.md'), L.join('\n'));
console.log(L.join('\n'));
