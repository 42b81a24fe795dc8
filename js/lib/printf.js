// printf.js — vsnprintf for the reader-only module (js/wasm_printf_js.c),
// which leaves the formatting of its messages to JS: the format and the
// arguments are read from the module's memory and the output written back,
// byte for byte as js/wasm_printf.c (the C version, whose contract this
// follows) writes it.  The va_list is wasm32's (clang's C ABI): a pointer
// to the arguments, each at its own alignment: 4 bytes for int, long,
// size_t and pointers, 8 for long long.

const NULL_TEXT = [...'(null)'].map((c) => c.charCodeAt(0));

export function vsnprintf(memory, buf, n, fmt, ap) {
  const u8 = new Uint8Array(memory.buffer);
  const dv = new DataView(memory.buffer);
  const out = [];
  const arg = (size) => {
    ap = (ap + size - 1) & -size;
    const at = ap;
    ap += size;
    return at;
  };
  for (let f = fmt; f < u8.length && u8[f] !== 0; f++) {
    if (u8[f] !== 37 /* % */) {
      out.push(u8[f]);
      continue;
    }
    f++;
    while ('-+ #0'.includes(String.fromCharCode(u8[f]))) f++;
    while (u8[f] >= 48 && u8[f] <= 57) f++;
    let prec = -1;
    if (u8[f] === 46 /* . */) {
      f++;
      if (u8[f] === 42 /* * */) {
        prec = dv.getInt32(arg(4), true);
        f++;
      } else {
        prec = 0;
        while (u8[f] >= 48 && u8[f] <= 57) prec = prec * 10 + u8[f++] - 48;
      }
    }
    let lng = 0; // 0 int, 1 long, 2 long long, 3 size_t
    if (u8[f] === 122 /* z */) (lng = 3), f++;
    while (u8[f] === 108 /* l */) lng++, f++;
    const c = String.fromCharCode(u8[f]);
    if (c === 's') {
      const s = dv.getUint32(arg(4), true);
      if (s === 0) out.push(...NULL_TEXT.slice(0, prec < 0 ? 6 : prec));
      else for (let k = s; (prec < 0 || k - s < prec) && k < u8.length && u8[k] !== 0; k++) out.push(u8[k]);
    } else if (c === 'c') {
      out.push(dv.getInt32(arg(4), true) & 255);
    } else if (c === 'd' || c === 'i' || c === 'u') {
      const v = lng === 2 ? (c === 'u' ? dv.getBigUint64(arg(8), true) : dv.getBigInt64(arg(8), true))
        : c === 'u' ? dv.getUint32(arg(4), true) : dv.getInt32(arg(4), true);
      for (const ch of String(v)) out.push(ch.charCodeAt(0));
    } else if (c === '%') {
      out.push(37);
    } else if (c === '\0') {
      f--;
    } else {
      out.push(63 /* ? */);
    }
  }
  if (n > 0) {
    const k = Math.min(out.length, n - 1);
    u8.set(out.slice(0, k), buf);
    u8[buf + k] = 0;
  }
  return out.length;
}
