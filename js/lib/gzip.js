// gzip.js — gzip-compressed documents.  The WebAssembly module has no zlib
// (there is none for wasm32 in Debian, and the platform has one already):
// Node decompresses with its zlib, browsers with DecompressionStream.
// Both stop at a size limit, like the C library's readers (SPEC.md,
// section 5), with its messages.

import { JJError } from './errors.js';

const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);
const zlib = isNode ? await import('node:zlib') : null;

// The default limit of decompressed bytes: 1 GiB, as the SQLite extension.
export const DEFAULT_MAX_SIZE = 1073741824;

export function isGzip(bytes) {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function limitError(max) {
  return new JJError(`decompressed size exceeds the limit of ${max} bytes`, 'limit');
}

function zlibError(e, max) {
  if (e.code === 'ERR_BUFFER_TOO_LARGE' || /Cannot create a Buffer larger/.test(e.message)) return limitError(max);
  if (e.code === 'Z_BUF_ERROR') return new JJError('gzip stream is truncated', 'compression');
  return new JJError(`gzip data is corrupt (${e.message})`, 'compression');
}

function maxOf(options) {
  const max = options && options.maxSize !== undefined ? options.maxSize : DEFAULT_MAX_SIZE;
  if (!Number.isSafeInteger(max) || max < 0) throw new TypeError('option maxSize: expected a non-negative integer');
  return max === 0 ? Number.MAX_SAFE_INTEGER : max;
}

// Synchronously, where the platform can (Node); null elsewhere.
export function gunzipSync(bytes, options) {
  if (!zlib) return null;
  const max = maxOf(options);
  try {
    // maxOutputLength may not exceed Node's largest Buffer (2^31 - 1 is
    // below it everywhere); a larger limit is no limit in practice
    const out = zlib.gunzipSync(bytes, max <= 0x7fffffff ? { maxOutputLength: max } : {});
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  } catch (e) {
    throw zlibError(e, max);
  }
}

// Decompress gzip bytes: a Uint8Array.  options.maxSize caps the output
// (default 1 GiB; 0: no cap).
export async function gunzip(bytes, options) {
  const max = maxOf(options);
  if (zlib) return gunzipSync(bytes, options);
  if (typeof DecompressionStream !== 'function')
    throw new JJError('gzip is not supported here (no DecompressionStream)', 'compression');
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  const parts = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) {
        reader.cancel().catch(() => {});
        throw limitError(max);
      }
      parts.push(value);
    }
  } catch (e) {
    if (e instanceof JJError) throw e;
    throw new JJError(`gzip data is corrupt or truncated (${e.message})`, 'compression');
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
