// browser.test.mjs — the module in a real browser: headless Chromium
// (Debian's chromium) opens a page served from 127.0.0.1 that fetches a
// gzip-compressed document, reads it with the module and renders a table;
// the test checks the rendered rows and their checksum against the data,
// and saves a screenshot as build/js/browser.png.  Skipped, with a
// message, only when Chromium cannot start.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import zlib from 'node:zlib';
import * as jj from '../jalapenojson.js';
import { serve } from '../testlib/browser/server.mjs';
import { cellText, checksum } from '../testlib/browser/render.js';
import { ROOT } from '../testlib/helpers.mjs';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

// Run Chromium on `args`; {code, stdout, stderr}.
function chromium(args, timeoutMs = 90000) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'jj-chromium-'));
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      resolve({ code: -1, stdout: '', stderr: String(e) });
      return;
    }
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const done = (code) => {
      clearTimeout(timer);
      fs.rmSync(profile, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    };
    child.on('error', (e) => {
      stderr += String(e);
      done(-1);
    });
    child.on('close', done);
  });
}

// The table's rows in the dumped DOM, as cell texts.
function tableRows(html) {
  const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&nbsp;/g, '\u00a0').replace(/&amp;/g, '&');
  return [...html.matchAll(/<tr>(.*?)<\/tr>/gs)].map((m) => [...m[1].matchAll(/<td>(.*?)<\/td>/gs)].map((c) => unescape(c[1]))).filter((cells) => cells.length > 0);
}

// The document the page reads: every type, some nulls, text that needs
// escaping in JSON and in HTML.
function data() {
  const schema = {
    columns: ['id', 'user', 'price', 'day', 'at', 'ok', 'big', 'blob', 'items'],
    types: ['i', 's', 'f', 'd', 't', 'b', 'i', 'x', { columns: ['sku', 'qty'], types: ['s', 'i'] }],
  };
  const rows = [];
  for (let i = 1; i <= 250; i++)
    rows.push({
      id: i,
      user: ['u0042', 'café <b>&amp;</b>', 'Tromsø', '"quoted"', 'tab\there', '😀'][i % 6] + i,
      price: [19.99, 29, 4.99, -0.5, 1e21][i % 5] + i / 100,
      day: i % 7 ? `2024-0${1 + (i % 9)}-1${i % 10}` : null,
      at: `2024-03-01T10:${String(i % 60).padStart(2, '0')}:00.25+05:30`,
      ok: i % 3 === 0 ? null : i % 2 === 0,
      big: i % 4 ? i : 2n ** 62n + BigInt(i),
      blob: new Uint8Array([i & 255, 0, 255]),
      items: i % 5 ? [{ sku: `s${i}`, qty: i }] : null,
    });
  return { schema, rows };
}

test('a real browser: headless Chromium renders a gzip-compressed document read by the module', async (t) => {
  const probe = await chromium(['--dump-dom', 'about:blank'], 60000);
  if (probe.code !== 0 || !probe.stdout.includes('<html')) {
    t.skip(`Chromium cannot start (${CHROMIUM}, exit ${probe.code}): ${probe.stderr.trim().split('\n').slice(-2).join(' ')}: SKIPPED`);
    return;
  }
  const { schema, rows } = data();
  const bytes = jj.encode(rows, schema);
  const expected = jj.decode(bytes).map((row) => schema.columns.map((c) => cellText(row[c])));
  const server = await serve(zlib.gzipSync(bytes));
  try {
    const flags = ['--virtual-time-budget=20000', '--window-size=1200,900'];
    const run = await chromium([...flags, '--dump-dom', server.url]);
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const m = /<pre id="result">(.*?)<\/pre>/s.exec(run.stdout);
    assert.ok(m, `no result in the page:\n${run.stdout.slice(0, 2000)}`);
    const result = JSON.parse(m[1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
    assert.equal(result.ok, true, result.error);
    assert.equal(result.rows, rows.length);
    assert.equal(result.checksum, checksum(expected), 'the page rendered other values');
    assert.equal(result.priceSum, rows.reduce((a, r) => a + r.price, 0));
    assert.equal(result.middle, rows[125].user);
    assert.equal(result.compressed, true);
    // what the DOM holds, cell by cell
    const shown = tableRows(run.stdout);
    assert.equal(shown.length, rows.length);
    assert.deepEqual(shown, expected);
    t.diagnostic(`browser: ${shown.length} rows rendered, checksum ${result.checksum} (${probe.stdout.length ? 'Chromium' : ''} ${CHROMIUM})`);
    // and a picture of it
    const png = path.join(ROOT, 'build/js/browser.png');
    fs.mkdirSync(path.dirname(png), { recursive: true });
    fs.rmSync(png, { force: true });
    const shot = await chromium([...flags, `--screenshot=${png}`, server.url]);
    assert.equal(shot.code, 0, shot.stderr.slice(-2000));
    assert.ok(fs.existsSync(png) && fs.statSync(png).size > 1000, 'no screenshot');
    assert.deepEqual([...fs.readFileSync(png).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  } finally {
    await server.close();
  }
});
