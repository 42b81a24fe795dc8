// js_bench.mjs — the JavaScript side of the benchmark: jalapenojson's
// WebAssembly module (js/) against JSON.parse / JSON.stringify, on Node,
// on the data and checksums of bench/gen.c (README.md, "Checksums").  One
// measurement per process, the loop of bench.h (warm-up until 200 ms of
// runs, then the fastest of at least 15 runs and 500 ms; every run
// checked):
//
//   node bench/js_bench.mjs TASK READER DIR/SET-ROWS
//     TASK    all      every value, as rows
//             columns  every value, as columns (one array per column)
//             price    the price column (sum)
//             city     the city column (CRC)
//             middle   row floor(N/2)+1 (1-based) of a fresh document
//             write    every value written from rows in memory
//             first    `all` once, in this fresh process: for jj the
//                      module's import, compilation and instantiation are
//                      included (timed from before the import)
//     READER  json     JSON.parse of TextDecoder's text (write:
//                      JSON.stringify, then TextEncoder)
//             jj       decode(), view() + column()/row(), encode()
//
// Prints "ok TASK READER best_ns=N runs=R warm_runs=W" (first: once_ns=N).
// The checksum work is inside every timed run, the same code for both
// readers; the columns task walks the column arrays in row order so that
// its checksum is the `all` one.

import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

const t0 = performance.now(); // for `first`: before the module is imported
const [task, reader, prefix] = process.argv.slice(2);
const MODULE = new URL('../js/jalapenojson.js', import.meta.url);
const NAMES = ['id', 'user', 'city', 'plan', 'seats', 'price', 'joined'];
const KINDS = ['i', 's', 's', 's', 'i', 'f', 's']; // dates are text to both
const SCHEMA = { columns: NAMES, types: ['i', 's', 's', 's', 'i', 'f', 'd'] };

function die(msg) {
  process.stderr.write(`bench: ${msg}\n`);
  process.exit(3);
}
if (!['all', 'columns', 'price', 'city', 'middle', 'write', 'first'].includes(task) || !['json', 'jj'].includes(reader) || !prefix)
  die('usage: node bench/js_bench.mjs all|columns|price|city|middle|write|first json|jj DIR/SET-ROWS');

// ---- Checksums (bench.h, README.md) ---------------------------------------

const CRC = new Int32Array(256);
for (let i = 0; i < 256; i++) {
  let c = i;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC[i] = c;
}

// A run's checksum; sum_int is exact (a double while below 2^52, where
// adding values below 2^52 stays exact, then carried into a BigInt).
class Sum {
  constructor() {
    this.count = 0;
    this.ints = 0;
    this.big = 0n;
    this.fsum = 0;
    this.crc = ~0;
  }
  int(v) {
    this.count++;
    this.ints += v;
    if (this.ints > 4503599627370496 || this.ints < -4503599627370496) {
      this.big += BigInt(this.ints);
      this.ints = 0;
    }
  }
  float(v) {
    this.count++;
    this.fsum += v;
  }
  // CRC-32 of the string's UTF-8 bytes.
  text(s) {
    this.count++;
    let c = this.crc;
    for (let i = 0; i < s.length; i++) {
      let u = s.charCodeAt(i);
      if (u < 0x80) {
        c = CRC[(c ^ u) & 255] ^ (c >>> 8);
        continue;
      }
      let bytes;
      if (u < 0x800) bytes = [0xc0 | (u >> 6), 0x80 | (u & 63)];
      else if (u >= 0xd800 && u < 0xdc00) {
        u = 0x10000 + ((u - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
        bytes = [0xf0 | (u >> 18), 0x80 | ((u >> 12) & 63), 0x80 | ((u >> 6) & 63), 0x80 | (u & 63)];
      } else bytes = [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 63), 0x80 | (u & 63)];
      for (const b of bytes) c = CRC[(c ^ b) & 255] ^ (c >>> 8);
    }
    this.crc = c;
  }
  value(kind, v) {
    if (kind === 'i') this.int(v);
    else if (kind === 'f') this.float(v);
    else this.text(v);
  }
  result() {
    return {
      count: this.count,
      sum_int: this.big + BigInt(this.ints),
      sum_float: this.fsum,
      crc: (~this.crc >>> 0).toString(16).padStart(8, '0'),
    };
  }
}

// A C99 hex float ("0x1.135b3e7ae15fdp+21") exactly.
function hexFloat(s) {
  const m = /^(-?)0x([0-9a-f]+)(?:\.([0-9a-f]*))?p([+-]\d+)$/i.exec(s.trim());
  if (!m) die(`bad hex float ${s}`);
  const frac = m[3] || '';
  const v = Number(BigInt('0x' + m[2] + frac)) * 2 ** (Number(m[4]) - 4 * frac.length);
  return m[1] ? -v : v;
}

function expected(sumText, key) {
  const get = (f) => {
    const m = new RegExp(`^${key}\\.${f} (.*)$`, 'm').exec(sumText);
    return m ? m[1] : null;
  };
  return {
    count: Number(get('count') || 0),
    sum_int: BigInt(get('sum_int') || 0),
    sum_float: get('sum_float') ? hexFloat(get('sum_float')) : 0,
    crc: (get('crc') || '00000000').toLowerCase(),
  };
}

function same(a, b) {
  return a.count === b.count && a.sum_int === b.sum_int && Object.is(a.sum_float, b.sum_float) && a.crc === b.crc;
}

// ---- The tasks -----------------------------------------------------------

const jsonBytes = fs.readFileSync(`${prefix}.json`);
const jjBytes = fs.readFileSync(`${prefix}.jj`);
const sumText = fs.readFileSync(`${prefix}.sum`, 'utf8');
const rowsTotal = Number(/^rows (\d+)$/m.exec(sumText)[1]);
const middle = Math.floor(rowsTotal / 2); // 0-based index of row N/2+1
const decoder = new TextDecoder();
const encoder = new TextEncoder();
let jj = null;

function sumRows(rows, s) {
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    s.int(row.id);
    s.text(row.user);
    s.text(row.city);
    s.text(row.plan);
    s.int(row.seats);
    s.float(row.price);
    s.text(row.joined);
  }
}

function sumColumns(cols, n, s) {
  for (let r = 0; r < n; r++) for (let c = 0; c < 7; c++) s.value(KINDS[c], cols[c][r]);
}

const runs = {
  json: {
    all(s) {
      sumRows(JSON.parse(decoder.decode(jsonBytes)), s);
    },
    columns(s) {
      const rows = JSON.parse(decoder.decode(jsonBytes));
      const cols = NAMES.map((name) => {
        const col = new Array(rows.length);
        for (let r = 0; r < rows.length; r++) col[r] = rows[r][name];
        return col;
      });
      sumColumns(cols, rows.length, s);
    },
    price(s) {
      const rows = JSON.parse(decoder.decode(jsonBytes));
      for (let r = 0; r < rows.length; r++) s.float(rows[r].price);
    },
    city(s) {
      const rows = JSON.parse(decoder.decode(jsonBytes));
      for (let r = 0; r < rows.length; r++) s.text(rows[r].city);
    },
    middle(s) {
      sumRows([JSON.parse(decoder.decode(jsonBytes))[middle]], s);
    },
    write() {
      return encoder.encode(JSON.stringify(memRows));
    },
  },
  jj: {
    all(s) {
      sumRows(jj.decode(jjBytes), s);
    },
    columns(s) {
      const v = jj.view(jjBytes);
      const cols = NAMES.map((name) => v.column(name));
      sumColumns(cols, cols[0].length, s);
      v.close();
    },
    price(s) {
      const v = jj.view(jjBytes);
      const col = v.column('price');
      for (let r = 0; r < col.length; r++) s.float(col[r]);
      v.close();
    },
    city(s) {
      const v = jj.view(jjBytes);
      const col = v.column('city');
      for (let r = 0; r < col.length; r++) s.text(col[r]);
      v.close();
    },
    middle(s) {
      const v = jj.view(jjBytes);
      sumRows([v.row(middle)], s);
      v.close();
    },
    write() {
      return jj.encode(memRows, SCHEMA);
    },
  },
};

const memRows = task === 'write' ? JSON.parse(decoder.decode(jsonBytes)) : null;
const want =
  task === 'write' ? (reader === 'json' ? jsonBytes : jjBytes) : expected(sumText, task === 'columns' || task === 'first' ? 'all' : task);

// One run: its nanoseconds; checks the result.
function once(fn, n) {
  const s = new Sum();
  const start = process.hrtime.bigint();
  const out = fn(s);
  const ns = Number(process.hrtime.bigint() - start);
  if (task === 'write') {
    if (Buffer.compare(Buffer.from(out.buffer, out.byteOffset, out.length), want) !== 0)
      die(`${task}/${reader} run ${n}: the output differs from ${prefix}.${reader === 'json' ? 'json' : 'jj'}`);
  } else if (!same(s.result(), want)) {
    die(`${task}/${reader} run ${n}: checksum mismatch\n  got      ${JSON.stringify(s.result(), (k, v) => (typeof v === 'bigint' ? String(v) : v))}\n  expected ${JSON.stringify(want, (k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
  }
  return ns;
}

if (task === 'first') {
  // The first call in this process, including (jj) loading the module.
  let ns;
  if (reader === 'jj') {
    jj = await import(MODULE);
    const s = new Sum();
    sumRows(jj.decode(jjBytes), s);
    ns = Math.round((performance.now() - t0) * 1e6);
    if (!same(s.result(), want)) die('first/jj: checksum mismatch');
  } else {
    const start = performance.now();
    const s = new Sum();
    sumRows(JSON.parse(decoder.decode(jsonBytes)), s);
    ns = Math.round((performance.now() - start) * 1e6);
    if (!same(s.result(), want)) die('first/json: checksum mismatch');
  }
  console.log(`ok first ${reader} once_ns=${ns}`);
} else {
  if (reader === 'jj') jj = await import(MODULE);
  const fn = runs[reader][task];
  let spent = 0;
  let warm = 0;
  while (spent < 200e6) spent += once(fn, ++warm) || 1;
  let best = Infinity;
  let count = 0;
  spent = 0;
  while (count < 15 || spent < 500e6) {
    const ns = once(fn, warm + ++count) || 1;
    spent += ns;
    if (ns < best) best = ns;
  }
  console.log(`ok ${task} ${reader} best_ns=${best} runs=${count} warm_runs=${warm}`);
}
