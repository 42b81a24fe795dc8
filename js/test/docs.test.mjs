// docs.test.mjs — the JavaScript examples of README.md and
// docs/javascript.md are tests: every ```js block runs in its own Node
// process, from the repository root (where the pages say to run them),
// with 'jalapenojson' resolved to this checkout's module; what it prints
// must equal the plain ``` block right after it, when there is one, and it
// must exit 0 either way.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { JS_DIR } from '../testlib/helpers.mjs';

const ROOT = path.dirname(JS_DIR);
const MODULE = pathToFileURL(path.join(JS_DIR, 'jalapenojson.js')).href;
const FENCE = /^```([\w-]*)\n([\s\S]*?)^```\n/gm;

// [{code, output}] for each ```js block of a page; output is null when no
// plain block follows it.
function examples(page) {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
  const blocks = [...text.matchAll(FENCE)].map((m) => ({ lang: m[1], body: m[2], start: m.index, end: m.index + m[0].length }));
  const out = [];
  blocks.forEach((b, i) => {
    if (b.lang !== 'js') return;
    const next = blocks[i + 1];
    const output = next && next.lang === '' && text.slice(b.end, next.start).trim() === '' ? next.body : null;
    out.push({ code: b.body, output });
  });
  return out;
}

for (const page of ['README.md', 'docs/javascript.md']) {
  test(`${page}: every js example runs and prints what the page shows`, () => {
    assert.ok(fs.existsSync(path.join(JS_DIR, 'dist/jalapenojson.wasm')), 'dist/jalapenojson.wasm is missing: run make js');
    const found = examples(page);
    assert.ok(found.length >= 1, `${page} has no js example`);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jj-docs-'));
    try {
      found.forEach(({ code, output }, n) => {
        assert.ok(code.includes("from 'jalapenojson'"), `${page} example ${n + 1} imports the package`);
        const file = path.join(tmp, `example-${n + 1}.mjs`);
        fs.writeFileSync(file, code.replaceAll("from 'jalapenojson'", `from '${MODULE}'`));
        const r = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: 'utf8', timeout: 60000 });
        assert.equal(r.status, 0, `${page} example ${n + 1} failed:\n${r.stderr}`);
        assert.equal(r.stderr, '', `${page} example ${n + 1} wrote to stderr`);
        if (output !== null) assert.equal(r.stdout, output, `${page} example ${n + 1} printed something else`);
      });
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
}
