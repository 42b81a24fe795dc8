// js_run.mjs — the JavaScript benchmark in one command (`make bench-js`):
// the data of bench/gen.c (as bench/run.sh makes it, into bench/data/out/),
// every measurement of bench/js_bench.mjs in its own process, 5 rounds,
// the tasks in a shuffled order (fixed seed per round), the JSON and jj
// measurements of a task back to back, the fastest of the 5 (ratios of
// the fastest: the machine is shared, see ratioOf) with the median and the
// slowest; the module's sizes; bench/JS_RESULTS.md with the tables.
//
//   node bench/js_run.mjs [--rounds N]

import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'bench/data/out');
const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const SETS = ['repetitive', 'entropy'];
// What each size measures: everything at 50,000 rows; at 1,000 rows what
// C measures there too (every value, writing) and the first call.
const TASKS = { 50000: ['all', 'columns', 'price', 'city', 'middle', 'write', 'first'], 1000: ['all', 'write', 'first'] };
const TASK_NAMES = {
  all: 'every value, as rows',
  columns: 'every value, as columns',
  price: 'one number column (price)',
  city: 'one text column (city)',
  middle: 'one row (the middle one)',
  write: 'write every value',
  first: 'first call in a fresh process (every value)',
};

// ---- Data ----------------------------------------------------------------

function ensureData() {
  const need = SETS.flatMap((s) => ['1000', '50000'].map((n) => path.join(OUT, `${s}-${n}.sum`)));
  if (need.every((f) => fs.existsSync(f))) return;
  const gen = path.join(ROOT, 'build/bench/gen');
  fs.mkdirSync(path.dirname(gen), { recursive: true });
  execFileSync(process.env.CC || 'cc', ['-std=c11', '-O2', 'bench/gen.c', '-o', gen, '-lm'], { cwd: ROOT, stdio: 'inherit' });
  fs.mkdirSync(OUT, { recursive: true });
  execFileSync(gen, [OUT, '1000', '50000'], { cwd: ROOT, stdio: 'inherit' });
}

// ---- Measuring -------------------------------------------------------------

function shuffled(list, seed) {
  const a = list.slice();
  let s = seed >>> 0;
  for (let i = a.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function measure(task, reader, prefix) {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'bench/js_bench.mjs'), task, reader, prefix], { cwd: ROOT, encoding: 'utf8' });
  const m = /^ok \S+ \S+ (?:best_ns|once_ns)=(\d+)/m.exec(out);
  if (!m) throw new Error(`bench: ${task} ${reader} ${prefix}: ${out}`);
  return Number(m[1]);
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// The ratio JSON time / jj time, of the fastest round of each: on a shared
// machine other work only ever adds time, and it adds more to the longer
// measurement (JSON's runs take 5-10 times jj's, so fewer of them find the
// machine quiet), which inflates a ratio of medians, or of paired rounds,
// in jj's favour when the machine is busy.
const best = (xs) => Math.min(...xs);
const ratioOf = ({ json, jj }) => best(json) / best(jj);
const ms = (ns) => (ns >= 1e7 ? (ns / 1e6).toFixed(1) : (ns / 1e6).toFixed(2)) + ' ms';

// ---- Sizes -----------------------------------------------------------------

function sizes() {
  const rows = [];
  const row = (file, what, bytes) => ({ file, what, raw: bytes.length, gz: zlib.gzipSync(bytes, { level: 9 }).length, br: zlib.brotliCompressSync(bytes).length });
  const read = (f) => fs.readFileSync(path.join(ROOT, f));
  rows.push(row('js/dist/jalapenojson-reader.wasm', 'reader only (-Oz, LTO, no SIMD; floats past its fast path parsed by lib/number.js, messages formatted by lib/printf.js)', read('js/dist/jalapenojson-reader.wasm')));
  rows.push(row('js/dist/jalapenojson.wasm', 'reader + writer (-O2, SIMD; the default)', read('js/dist/jalapenojson.wasm')));
  const js = fs.readdirSync(path.join(ROOT, 'js/lib')).sort().map((f) => `js/lib/${f}`).concat(['js/jalapenojson.js']);
  rows.push(row('js/jalapenojson.js + js/lib/*.js', 'the ES module (not minified; it imports all of lib/, writer too), one file', Buffer.concat(js.map(read))));
  // what a reader-only page downloads: the two, each compressed on its own
  const [reader, , esm] = rows;
  rows.push({ file: 'reader page: the reader .wasm + the ES module', what: 'the sum of the two rows above it', raw: reader.raw + esm.raw, gz: reader.gz + esm.gz, br: reader.br + esm.br });
  return rows;
}

// ---- The report --------------------------------------------------------------

function machine() {
  const cpu = os.cpus()[0] ? os.cpus()[0].model : 'unknown';
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {}
  return { cpu: `${cpu}, ${os.cpus().length} cores`, os: `${os.type()} ${os.release()}`, node: process.version, v8: process.versions.v8, commit, date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC' };
}

function report(results, started) {
  const m = machine();
  const lines = [];
  lines.push('# JavaScript benchmark results', '');
  lines.push('Generated by `node bench/js_run.mjs` (`make bench-js`); do not edit by hand. What is measured and how: bench/js_bench.mjs (the same data, checksums and warm-up as the C benchmark, bench/README.md), each number the fastest of ' + ROUNDS + ' rounds (each round\'s the fastest of its runs), with the median and the slowest beside it, each measurement in its own Node process.', '');
  lines.push('|  |  |', '|---|---|');
  lines.push(`| CPU | ${m.cpu} |`, `| OS | ${m.os} |`, `| Node | ${m.node} (V8 ${m.v8}) |`, `| date | ${m.date} |`, `| commit | ${m.commit} |`, `| rounds | ${ROUNDS} (the fastest shown; the median and the slowest too) |`, `| duration | ${((Date.now() - started) / 60000).toFixed(1)} min |`, '');
  lines.push('## The module', '');
  lines.push('| file | what | bytes | gzip -9 | brotli |', '|---|---|---|---|---|');
  for (const s of sizes()) lines.push(`| ${s.file} | ${s.what} | ${s.raw.toLocaleString('en')} | ${s.gz.toLocaleString('en')} | ${s.br.toLocaleString('en')} |`);
  lines.push('', `Sizes are deterministic (the same sources and Debian packages give the same bytes); timings are not: the machine is shared and noisy, so each timing below is compared only with its JSON peer: every measurement runs in its own process, the JSON and the jj measurement of a task one right after the other (which goes first alternates by round; the tasks in a shuffled order per round), and a ratio is of the fastest round of each (load only adds time, and adds more to the longer JSON runs: a ratio of medians flatters jj on a busy machine).`);
  for (const key of Object.keys(results)) {
    lines.push('', `## ${key}`, '');
    lines.push('| task | JSON: fastest (median, slowest) | jalapenojson: fastest (median, slowest) | ratio of the fastest |', '|---|---|---|---|');
    for (const [task, { json, jj }] of Object.entries(results[key])) {
      const span = (xs) => `${ms(best(xs))} (${ms(median(xs))}, ${ms(Math.max(...xs))})`;
      lines.push(`| ${TASK_NAMES[task]} | ${span(json)} | ${span(jj)} | ${ratioOf({ json, jj }).toFixed(2)}× |`);
    }
  }
  lines.push('');
  return lines.join('\n');
}

// ---- Main ------------------------------------------------------------------

const started = Date.now();
ensureData();
const jobs = [];
for (const set of SETS) for (const [n, tasks] of Object.entries(TASKS)) for (const task of tasks) jobs.push({ set, n, task });
const results = {};
for (let round = 1; round <= ROUNDS; round++) {
  const t0 = Date.now();
  for (const job of shuffled(jobs, crypto.createHash('sha256').update(`round ${round}`).digest().readUInt32LE(0))) {
    const key = `${job.set}-${job.n}`;
    const slots = ((results[key] ||= {})[job.task] ||= { json: [], jj: [] });
    for (const reader of round % 2 ? ['json', 'jj'] : ['jj', 'json']) slots[reader].push(measure(job.task, reader, path.join(OUT, key)));
  }
  process.stderr.write(`bench-js: round ${round} of ${ROUNDS} took ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}
// the sets and sizes in a fixed order, the tasks in TASKS's
const ordered = {};
for (const set of SETS)
  for (const n of Object.keys(TASKS).sort((a, b) => b - a)) {
    const key = `${set}-${n}`;
    if (results[key]) ordered[key] = Object.fromEntries(TASKS[n].map((t) => [t, results[key][t]]));
  }
Object.keys(results).forEach((k) => delete results[k]);
Object.assign(results, ordered);
const text = report(results, started);
fs.writeFileSync(path.join(ROOT, 'bench/JS_RESULTS.md'), text);
process.stdout.write(text);
