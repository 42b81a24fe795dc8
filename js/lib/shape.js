// shape.js — what JS keeps of a table's schema: names, type letters, the
// nested shapes, and a maker of row objects.
//
// Row objects are made by a function generated once per schema with an
// object literal of the column names, so that every row of a table has the
// same hidden class from its creation (as JSON.parse's rows do); where the
// platform forbids generating code (a Content-Security-Policy without
// 'unsafe-eval'), a loop builds them instead.

const LETTERS = 'ifsdtlbxj';

// The shape of {columns, types} as the C library writes a schema (letters,
// or {columns, types} for a nested table).  `check` validates a schema a
// caller gave (encode); a document's schema is valid already.
export function makeShape(schema, check = false) {
  if (check) checkSchema(schema);
  const columns = Object.freeze(schema.columns.slice());
  const types = Object.freeze(schema.types.map((t) => (typeof t === 'string' ? t : freezeType(t))));
  const kinds = types.map((t) => (typeof t === 'string' ? t : '{'));
  const subs = types.map((t) => (typeof t === 'string' ? null : makeShape(t)));
  const index = new Map(columns.map((name, i) => [name, i]));
  return { columns, types, kinds, subs, index, n: columns.length, make: rowMaker(columns), pick: rowPicker(columns) };
}

function freezeType(t) {
  return Object.freeze({
    columns: Object.freeze(t.columns.slice()),
    types: Object.freeze(t.types.map((x) => (typeof x === 'string' ? x : freezeType(x)))),
  });
}

// A caller's schema must at least have the right JS shape; the names
// themselves (empty, duplicate, invalid UTF-8) are checked by the C
// library, with its messages.
function checkSchema(schema, where = 'schema', level = 0) {
  // the C writer recurses per nested table; 512 levels, as the reader's
  // largest depth limit allows (js/lib/read.js, MAX_DEPTH)
  if (level > 512) throw new TypeError(`${where}: nested tables deeper than 512 levels`);
  if (schema === null || typeof schema !== 'object' || !Array.isArray(schema.columns) || !Array.isArray(schema.types))
    throw new TypeError(`${where}: expected {columns: [...], types: [...]}`);
  if (schema.columns.length !== schema.types.length)
    throw new TypeError(`${where}: ${schema.columns.length} columns but ${schema.types.length} types`);
  schema.columns.forEach((name, i) => {
    if (typeof name !== 'string') throw new TypeError(`${where}: column ${i + 1}'s name is not a string`);
    const t = schema.types[i];
    if (typeof t === 'string') {
      if (t.length !== 1 || !LETTERS.includes(t))
        throw new TypeError(`${where}: unknown type ${JSON.stringify(t)} for column ${JSON.stringify(name)}`);
    } else {
      checkSchema(t, `${where}: column ${JSON.stringify(name)}`, level + 1);
    }
  });
}

// make(cols, r): the row object of row r from per-column arrays.
function rowMaker(columns) {
  try {
    const fields = columns.map((name, i) => {
      // "__proto__" as a plain key would set the prototype: computed keys
      // define an own property, as JSON.parse does.
      const key = name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name);
      return `${key}:c[${i}][r]`;
    });
    return new Function('c', 'r', `return {${fields.join(',')}};`);
  } catch {
    return (cols, r) => {
      const o = {};
      for (let i = 0; i < columns.length; i++)
        Object.defineProperty(o, columns[i], { value: cols[i][r], writable: true, enumerable: true, configurable: true });
      return o;
    };
  }
}

// pick(row, out): the values of a row object in column order into out.
// Generated like make(), for the same reason: named loads that stay
// monomorphic over rows of one hidden class.  An own "__proto__" property
// is read as such (a plain load would give the prototype).
function rowPicker(columns) {
  const load = (name) =>
    name === '__proto__' ? 'Object.hasOwn(r, "__proto__") ? r["__proto__"] : undefined' : `r[${JSON.stringify(name)}]`;
  try {
    return new Function('r', 'o', columns.map((name, i) => `o[${i}] = ${load(name)};`).join('\n'));
  } catch {
    return (r, o) => {
      for (let i = 0; i < columns.length; i++) {
        const name = columns[i];
        o[i] = name === '__proto__' ? (Object.hasOwn(r, name) ? r[name] : undefined) : r[name];
      }
    };
  }
}
