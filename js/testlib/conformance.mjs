// conformance.mjs — JSONTestSuite's string and number cases read as
// values through the module (js/test/conformance.test.mjs runs them on the
// default module, js/test/reader.test.mjs on the reader-only one), mapped to documents exactly as the C
// conformance test maps them (tests/core/test_conformance.c, which says how):
// y_ cases are accepted with every value as expected (numbers: Number()
// or BigInt() of the text, bit for bit; strings: JSON.parse of the
// text); n_ cases are refused with a JJError that has a message and a
// sane place; i_ cases either read or fail with a JJError.
//
// The data: ../shared/conformance/JSONTestSuite/test_parsing beside the
// repository, or $JJ_JSONTESTSUITE.  Missing, the test is
// skipped with a message, except under CI=true, where it fails.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as jj from '../jalapenojson.js';
import { ROOT } from './helpers.mjs';

const MAX_COLS = 32;

function suiteDir() {
  const dirs = process.env.JJ_JSONTESTSUITE
    ? [process.env.JJ_JSONTESTSUITE]
    : [path.join(ROOT, '../shared/conformance/JSONTestSuite/test_parsing')];
  return dirs.find((d) => fs.existsSync(d)) || null;
}

const isWs = (c) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function kindOf(b) {
  if (b.length === 0) return '?';
  const c = b[0];
  if (c === 0x22) return 's';
  if (c === 0x2d || c === 0x2b || c === 0x2e || (c >= 0x30 && c <= 0x39)) return 'f';
  if (c === 0x5b || c === 0x7b) return '{';
  const t = b.toString('latin1');
  if (t === 'true' || t === 'false') return 'b';
  if (t === 'null') return '0';
  return '?';
}

function trim(b) {
  let s = 0;
  let e = b.length;
  while (s < e && isWs(b[s])) s++;
  while (e > s && isWs(b[e - 1])) e--;
  return b.subarray(s, e);
}

// The elements of the top-level array at data[at] == '[' (as conf_split).
function split(data, at) {
  const out = [];
  let start = at + 1;
  let depth = 0;
  let inStr = false;
  let k;
  for (k = at + 1; k < data.length; k++) {
    const c = data[k];
    if (inStr) {
      if (c === 0x5c) k++;
      else if (c === 0x22) inStr = false;
    } else if (c === 0x22) inStr = true;
    else if (c === 0x5b || c === 0x7b) depth++;
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
    else if (c === 0x5d || c === 0x7d) break;
    else if (c === 0x2c && depth === 0) {
      if (out.length === MAX_COLS) return null;
      out.push(trim(data.subarray(start, k)));
      start = k + 1;
    }
  }
  if (k > data.length) k = data.length;
  const last = trim(data.subarray(start, k));
  if (last.length > 0 || out.length > 0) {
    if (out.length === MAX_COLS) return null;
    out.push(last);
  }
  return out;
}

// The mapping of a case: {mapping: 'row'|'scalar'|'meta'|'na', els, types}.
function classify(name, data) {
  const hint = name.includes('number') ? 'f' : name.includes('string') ? 's' : '';
  let at = 0;
  while (at < data.length && isWs(data[at])) at++;
  let mapping;
  let els = [];
  if (at < data.length && data[at] === 0x7b) mapping = 'meta';
  else if (at < data.length && data[at] === 0x5b) {
    els = split(data, at);
    mapping = els ? 'row' : 'na';
    els = els || [];
  } else {
    mapping = 'scalar';
    els = [trim(data)];
  }
  let nested = false;
  let typed = false;
  const types = els.map((e) => {
    let k = kindOf(e);
    if (k === '{') nested = true;
    if (k === '?' && hint) k = hint;
    if (k === 's' || k === 'f') typed = true;
    return k === 'f' ? 'f' : k === 'b' ? 'b' : 's';
  });
  if (mapping === 'na') return { mapping, els, types };
  if (nested) mapping = 'meta';
  if (mapping === 'meta') typed = data.includes(0x22) || data.some((c) => c >= 0x30 && c <= 0x39);
  if (!typed || (mapping !== 'meta' && els.length === 0)) mapping = 'na';
  return { mapping, els, types };
}

function document(c, data, types) {
  const n = c.mapping === 'meta' ? 1 : c.els.length;
  const cols = Array.from({ length: n }, (_, k) => `"c${k}"`).join(',');
  const ts = Array.from({ length: n }, (_, k) => `"${c.mapping === 'meta' ? 's' : types[k]}"`).join(',');
  const head = Buffer.from(`{"jalapenojson":1,"columns":[${cols}],"types":[${ts}]`);
  if (c.mapping === 'meta') return Buffer.concat([head, Buffer.from(',"meta":'), data, Buffer.from('\n,"rows":[\n]}')]);
  if (c.mapping === 'scalar') return Buffer.concat([head, Buffer.from(',"rows":[\n['), data, Buffer.from('\n]\n]}')]);
  return Buffer.concat([head, Buffer.from(',"rows":[\n'), data, Buffer.from('\n]}')]);
}

const intShaped = (e) => /^[-+0-9]*$/.test(e.toString('latin1')) && /[0-9]/.test(e.toString('latin1'));

function expectAccept(name, c, types, docBytes, counts) {
  let rows;
  try {
    rows = jj.decode(docBytes, { bigint: 'always' });
  } catch (e) {
    assert.fail(`${name}: refused: ${e.message}`);
  }
  if (c.mapping === 'meta') {
    assert.equal(rows.length, 0, name);
    return;
  }
  assert.equal(rows.length, 1, name);
  c.els.forEach((e, k) => {
    const got = rows[0][`c${k}`];
    const text = e.toString('utf8');
    if (kindOf(e) === '0') assert.equal(got, null, name);
    else if (types[k] === 'f') assert.ok(Object.is(got, Number(text)), `${name}: ${text} read as ${got}, Number() gives ${Number(text)}`);
    else if (types[k] === 'i') assert.equal(got, BigInt(text), name);
    else if (types[k] === 'b') assert.equal(got, text === 'true', name);
    else assert.equal(got, JSON.parse(text), `${name}: ${text}`);
    counts.values++;
  });
}

function expectReject(name, docBytes) {
  for (const read of [() => jj.decode(docBytes), () => [...jj.view(docBytes)]]) {
    assert.throws(read, (e) => {
      assert.ok(e instanceof jj.JJError, `${name}: ${e}`);
      assert.ok(e.message.length > 0 && typeof e.code === 'string', name);
      assert.ok(e.offset === -1 || (e.offset >= 0 && e.offset <= docBytes.length), `${name}: offset ${e.offset}`);
      assert.ok(e.row >= 0 && e.row <= 2, `${name}: row ${e.row}`);
      return true;
    }, `${name}: accepted`);
  }
}

// Every case through the module loaded now; t is the node:test context
// (for its skip and diagnostic), `label` starts the diagnostic line.
export function runSuite(t, label) {
  const dir = suiteDir();
  if (!dir) {
    if (process.env.CI === 'true') assert.fail('JSONTestSuite is missing (set JJ_JSONTESTSUITE)');
    t.skip('JSONTestSuite not found (../shared/conformance/JSONTestSuite beside the repository, or $JJ_JSONTESTSUITE): SKIPPED');
    return;
  }
  const names = fs.readdirSync(dir).filter((n) => /^[yni]_(string|number)/.test(n)).sort();
  const counts = { y: 0, n: 0, i: 0, values: 0, docs: 0, na: 0, iAccepted: 0, iRejected: 0 };
  for (const name of names) {
    const data = fs.readFileSync(path.join(dir, name));
    const c = classify(name, data);
    if (c.mapping === 'na') {
      counts.na++;
      continue;
    }
    counts[name[0]]++;
    const itypes = c.types.map((ty, k) => (ty === 'f' && kindOf(c.els[k]) !== '?' && intShaped(c.els[k]) ? 'i' : ty));
    const variants = [c.types];
    if (itypes.some((ty, k) => ty !== c.types[k])) variants.push(itypes);
    for (const types of variants) {
      const docBytes = document(c, data, types);
      counts.docs++;
      if (name[0] === 'y') expectAccept(name, c, types, docBytes, counts);
      else if (name[0] === 'n') expectReject(name, docBytes);
      else {
        try {
          jj.decode(docBytes);
          counts.iAccepted++;
        } catch (e) {
          assert.ok(e instanceof jj.JJError, `${name}: ${e}`);
          counts.iRejected++;
        }
      }
    }
  }
  t.diagnostic(
    `${label}: ${counts.y} y_ accepted (${counts.values} values compared), ${counts.n} n_ refused, ${counts.i} i_ run (${counts.iAccepted} documents accepted, ${counts.iRejected} refused), ${counts.na} not applicable; ${counts.docs} documents`,
  );
  assert.ok(counts.y > 40 && counts.n > 40, 'the string and number cases are there');
}
