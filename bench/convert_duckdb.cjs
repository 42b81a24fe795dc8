// convert_duckdb.cjs — DuckDB's reader on the converter benchmark's files
// (bench/convert.sh runs it; @duckdb/node-api is installed from npm into a
// directory outside the repository and found through NODE_PATH).
//
//   node bench/convert_duckdb.cjs json|csv FILE ROWS
//
// One run: SET threads=1, then CREATE TABLE t AS SELECT * FROM
// read_json(FILE) (or read_csv), i.e. parse, infer the types and hold every
// value, checked by count(*) = ROWS.  Prints the line convert_bench prints:
//   duckdb wall_s=W cpu_s=C bytes=N mb_s=M rss_mb=R
const { DuckDBInstance } = require('@duckdb/node-api');
const fs = require('fs');

async function main() {
  const [kind, file, rows] = process.argv.slice(2);
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  await con.run('SET threads=1');
  const reader = kind === 'csv' ? 'read_csv' : 'read_json';
  const q = `CREATE TABLE t AS SELECT * FROM ${reader}('${file.replace(/'/g, "''")}')`;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await con.run(q);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  const n = (await con.runAndReadAll('SELECT count(*) FROM t')).getRows()[0][0];
  if (String(n) !== rows) {
    console.error(`duckdb: ${n} rows, expected ${rows}`);
    process.exit(1);
  }
  const bytes = fs.statSync(file).size;
  const rss = process.resourceUsage().maxRSS / 1024;
  console.log(`duckdb wall_s=${wall.toFixed(3)} cpu_s=${((c.user + c.system) / 1e6).toFixed(3)} ` +
              `bytes=${bytes} mb_s=${(bytes / 1e6 / wall).toFixed(1)} rss_mb=${rss.toFixed(1)}`);
}
main().catch((e) => { console.error('duckdb:', e.message); process.exit(1); });
