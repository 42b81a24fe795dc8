// pack.test.mjs — `npm pack` makes a package that installs offline into an
// empty directory and imports there: decode, view, encode, the reader-only
// module, and the declarations naming exactly what the module exports.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as jj from '../jalapenojson.js';
import { JS_DIR } from '../testlib/helpers.mjs';

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

test('npm pack: the tarball installs offline into an empty directory and imports', (t) => {
  for (const f of ['dist/jalapenojson.wasm', 'dist/jalapenojson-reader.wasm'])
    assert.ok(fs.existsSync(path.join(JS_DIR, f)), `${f} is missing: run make js`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jj-pack-'));
  try {
    const cache = path.join(tmp, 'cache');
    const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', tmp, '--cache', cache], JS_DIR));
    const files = packed[0].files.map((f) => f.path).sort();
    assert.deepEqual(files, ['dist/jalapenojson-reader.wasm', 'dist/jalapenojson.wasm', 'jalapenojson.d.ts', 'jalapenojson.js', 'lib/build.js', 'lib/errors.js', 'lib/gzip.js', 'lib/instance.js', 'lib/number.js', 'lib/printf.js', 'lib/read.js', 'lib/shape.js', 'lib/utf8.js', 'lib/write.js', 'package.json']);
    const tarball = path.join(tmp, packed[0].filename);
    const app = path.join(tmp, 'app');
    fs.mkdirSync(app);
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', cache, tarball], app);
    const script = `
      import * as jj from 'jalapenojson';
      const schema = { columns: ['id', 'day', 'price'], types: ['i', 'd', 'f'] };
      const doc = jj.encode([{ id: 1, day: '2024-02-29', price: 19.99 }, [2n ** 62n, null, -0]], schema);
      const rows = jj.decode(doc);
      const v = jj.view(doc);
      const out = { text: new TextDecoder().decode(doc), rows: rows.length, big: String(rows[1].id), price: Array.from(v.column('price'), (x) => (Object.is(x, -0) ? '-0' : x)), day: v.row(0).day };
      v.close();
      await jj.init({ wasm: new URL(import.meta.resolve('jalapenojson/reader.wasm')) });
      out.reader = jj.decode(doc).length;
      try { jj.encode([], schema); } catch (e) { out.readerEncode = e.code + ': ' + e.message; }
      try { jj.encode([{ a: 1 }]); } catch (e) { out.readerBuild = e.code + ': ' + e.message; }
      console.log(JSON.stringify(out));
    `;
    const out = JSON.parse(run(process.execPath, ['--input-type=module', '-e', script], app));
    assert.equal(out.text, '{"jalapenojson":1,"columns":["id","day","price"],"types":["i","d","f"],"rows":[\n[1,"2024-02-29",19.99],\n[4611686018427387904,null,-0.0]\n]}');
    assert.equal(out.rows, 2);
    assert.equal(out.big, '4611686018427387904');
    assert.deepEqual(out.price, [19.99, '-0']);
    assert.equal(out.day, '2024-02-29');
    assert.equal(out.reader, 2);
    assert.equal(out.readerEncode, 'usage: this build of the module has no writer');
    assert.equal(out.readerBuild, 'usage: this build of the module has no row builder');
    t.diagnostic(`pack: ${packed[0].filename}, ${packed[0].size} bytes packed, ${packed[0].unpackedSize} unpacked`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('the declarations name what the module exports', () => {
  const dts = fs.readFileSync(path.join(JS_DIR, 'jalapenojson.d.ts'), 'utf8');
  // an overloaded function is declared once per signature
  const declared = [...new Set([...dts.matchAll(/^export (?:declare )?(?:function|class) (\w+)/gm)].map((m) => m[1]))].sort();
  assert.deepEqual(declared, Object.keys(jj).sort());
});
