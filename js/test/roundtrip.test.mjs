// roundtrip.test.mjs — the module against the C library, both ways, on
// random tables (build/js/jjdump is the C side):
//   JS -> C: random rows encoded in JS are the bytes the C writer writes
//            for the same values (C rewrites them identically), C reads
//            the values JS reads, and decode() gives the rows back;
//   C -> JS: random documents written by C are read in JS as C reads them
//            (floats bit for bit), through decode() and view(), and
//            encode() writes them back byte for byte.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as jj from '../jalapenojson.js';
import { cCopy, cDump, cGen, jsDump, randomRow, randomSchema, rng } from '../testlib/helpers.mjs';

const ROUNDS = Number(process.env.JJ_ROUNDTRIP_ROUNDS || 150);

// v as decode() gives back an input value (undefined is null; integers
// outside the safe range are BigInts).
function expected(type, v) {
  if (v === undefined || v === null) return null;
  if (typeof type !== 'string')
    return v.map((row) => Object.fromEntries(type.columns.map((name, c) => [name, expected(type.types[c], Array.isArray(row) ? row[c] : Object.hasOwn(row, name) ? row[name] : undefined)])));
  if (type === 'i') {
    const b = BigInt(v);
    return b >= -(2n ** 53n) + 1n && b <= 2n ** 53n - 1n ? Number(b) : b;
  }
  return v;
}

function sameValue(type, got, want, where) {
  if (typeof type !== 'string' && want !== null) {
    assert.equal(got.length, want.length, `${where}: rows`);
    got.forEach((row, r) => type.columns.forEach((name, c) => sameValue(type.types[c], row[name], want[r][name], `${where}[${r}].${name}`)));
    return;
  }
  if (type === 'f') assert.ok(Object.is(got, want), `${where}: ${got} !== ${want}`);
  else assert.deepEqual(got, want, where);
}

test('JS -> C: encode() writes what the C writer writes, C reads what JS reads', () => {
  const rand = rng(12345);
  for (let round = 0; round < ROUNDS; round++) {
    const schema = randomSchema(rand);
    const rows = [];
    for (let n = Math.floor(rand() * 12); n > 0; n--) rows.push(randomRow(rand, schema, rand() < 0.3));
    const bytes = jj.encode(rows, schema);
    assert.deepEqual(cCopy(bytes), bytes, `round ${round}: the C writer writes other bytes`);
    assert.equal(cDump(bytes), jsDump(jj, bytes), `round ${round}: C and JS read different values`);
    const back = jj.decode(bytes);
    assert.equal(back.length, rows.length);
    back.forEach((row, r) =>
      schema.columns.forEach((name, c) => {
        const input = Array.isArray(rows[r]) ? rows[r][c] : Object.hasOwn(rows[r], name) ? rows[r][name] : undefined;
        sameValue(schema.types[c], row[name], expected(schema.types[c], input), `round ${round} row ${r} ${name}`);
      }),
    );
  }
});

test('C -> JS: documents the C writer wrote read alike, and encode() writes them back', () => {
  for (let seed = 1; seed <= ROUNDS; seed++) {
    const bytes = cGen(seed, seed % 17);
    assert.equal(jsDump(jj, bytes), cDump(bytes), `seed ${seed}: JS reads other values than C`);
    const v = jj.view(bytes);
    const schema = { columns: v.columns, types: v.types };
    const rows = jj.decode(bytes);
    assert.deepEqual(jj.encode(rows, schema), bytes, `seed ${seed}: encode(decode(doc)) is not doc`);
    // the views read the same values, by column, by row and by iteration
    assert.equal(v.length, rows.length);
    schema.columns.forEach((name, c) => {
      const col = v.column(name);
      assert.equal(col.length, rows.length);
      rows.forEach((row, r) => {
        if (typeof schema.types[c] === 'string') sameValue(schema.types[c], col[r], row[name], `seed ${seed} column ${name}[${r}]`);
        else assert.equal(col[r] === null, row[name] === null);
      });
    });
    let r = 0;
    for (const row of v) {
      const want = rows[r];
      const got = v.row(r);
      schema.columns.forEach((name, c) => {
        if (typeof schema.types[c] === 'string') {
          sameValue(schema.types[c], row[name], want[name], `seed ${seed} iterated row ${r}`);
          sameValue(schema.types[c], got[name], want[name], `seed ${seed} row(${r})`);
        } else if (want[name] !== null) {
          assert.equal(jj.encodeText([...row[name]], schema.types[c]), jj.encodeText(want[name], schema.types[c]));
        }
      });
      r++;
    }
    assert.equal(r, rows.length);
    v.close();
  }
});

test('the benchmark rows: encode() of JSON.parse rows is the C writer\'s document', () => {
  const schema = { columns: ['id', 'user', 'city', 'price', 'joined'], types: ['i', 's', 's', 'f', 'd'] };
  const rows = [];
  for (let i = 1; i <= 2000; i++)
    rows.push({ id: i, user: `u${String(i % 2000).padStart(4, '0')}`, city: ['Oslo', 'Tromsø', 'Reykjavík'][i % 3], price: [19.99, 29, 4.99, 0.1][i % 4], joined: `20${10 + (i % 15)}-0${1 + (i % 9)}-1${i % 10}` });
  const bytes = jj.encode(JSON.parse(JSON.stringify(rows)), schema);
  assert.deepEqual(cCopy(bytes), bytes);
  assert.deepEqual(jj.decode(bytes), rows);
});
