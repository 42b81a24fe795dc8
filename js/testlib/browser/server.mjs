// server.mjs — the browser test's HTTP server on 127.0.0.1: the page, the
// module (js/) and one gzip-compressed document, nothing else.
//
//   /             index.html          /test/NAME   js/testlib/browser/NAME
//   /js/PATH      js/PATH (the module and its .wasm)
//   /data.jj.gz   the document, as gzip bytes (no Content-Encoding: the
//                 page decompresses it itself)

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const JS = path.resolve(HERE, '../..');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm' };

// A file under root, or null (no way out of root).
function under(root, rel) {
  const file = path.resolve(root, '.' + path.posix.normalize('/' + rel));
  return file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile() ? file : null;
}

// Serve until close(); resolves to {url, close}.
export function serve(gz) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file = null;
    if (url.pathname === '/') file = path.join(HERE, 'index.html');
    else if (url.pathname.startsWith('/test/')) file = under(HERE, url.pathname.slice(6));
    else if (url.pathname.startsWith('/js/')) file = under(JS, url.pathname.slice(4));
    if (url.pathname === '/data.jj.gz') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(gz);
    } else if (file) {
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
      fs.createReadStream(file).pipe(res);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}
