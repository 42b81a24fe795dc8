// number.js — the correctly rounded double of a JSON number's text, for
// the reader-only WebAssembly module, which leaves to it the numbers its
// fast path does not take (js/wasm_numparse.c says why).
//
// Number() is exactly right for up to 20 significant digits (ECMA-262,
// StringToNumber); for more, the standard lets it round the number cut to
// 20 digits, or that plus one in the 20th digit, instead.  Both bracket the
// true value and lie within 10^-19 of each other relatively, far less
// than a double's spacing, so Number() is then the right double or one of
// its neighbours: exact BigInt comparisons with the halfway points to the
// neighbours settle which (ties to the even significand, as IEEE rounds).

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const INF = 0x7ff0000000000000n;

// x * 2^1074 as a BigInt, for x >= 0 given by its bits (Infinity counts as
// 2^1024, the next step after the largest double).
function scaled(bits) {
  const e = bits >> 52n;
  const frac = bits & 0xfffffffffffffn;
  return e === 0n ? frac : (frac | 0x10000000000000n) << (e - 1n);
}

// Compare the decimal digits * 10^exp with the halfway point between the
// doubles of bits a and a + 1: -1, 0 or 1.
function vsHalfway(digits, exp, a) {
  let left = digits * 2n; // 2v * 2^1074 vs scaled(a) + scaled(a + 1)
  let right = scaled(a) + scaled(a + 1n);
  if (exp >= 0) left *= 10n ** BigInt(exp);
  else right *= 10n ** BigInt(-exp);
  left <<= 1074n;
  return left < right ? -1 : left > right ? 1 : 0;
}

// s: a JSON number (its grammar checked by the caller).
export function parseNumber(s) {
  return s.length <= 20 ? Number(s) : nearest(s, Number(s)); // short: at most 20 digits
}

// The double nearest to s, given x, Number(s) or a neighbour of it (the
// tests give neighbours, to check the corrections Node never needs).
export function nearest(s, x) {
  const m = /^-?(\d+)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(s);
  const frac = m[2] || '';
  // the value is digits * 10^exp, digits without leading or trailing zeros
  let digits = (m[1] + frac).replace(/^0+/, '');
  const trimmed = digits.replace(/0+$/, '');
  let exp = Number(m[3] || 0) - frac.length + (digits.length - trimmed.length);
  digits = trimmed;
  if (digits.length <= 20) return x;
  // from 10^310 up it is infinite, below 10^-325 zero (whatever the
  // exponent's digits, exp is then far beyond these)
  const top = exp + digits.length; // the value is below 10^top
  if (top > 310) return s[0] === '-' ? -Infinity : Infinity;
  if (top < -325) return s[0] === '-' ? -0 : 0;
  // beyond 800 digits only "is one of them nonzero" matters (halfway
  // points have at most 767 significant digits): a 1 stands for them
  if (digits.length > 800) {
    exp += digits.length - 801;
    digits = digits.slice(0, 800) + '1';
  }
  const d = BigInt(digits);
  f64[0] = Math.abs(x);
  let a = u64[0];
  const up = a < INF ? vsHalfway(d, exp, a) : -1; // against a's upper halfway point
  if (up > 0 || (up === 0 && a & 1n)) a++;
  else if (up < 0 && a > 0n) {
    const down = vsHalfway(d, exp, a - 1n); // against its lower one
    if (down < 0 || (down === 0 && a & 1n)) a--;
  }
  u64[0] = a;
  return s[0] === '-' ? -f64[0] : f64[0];
}
