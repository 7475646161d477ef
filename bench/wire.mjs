// The HTTP/1.1 subset the bench's stand-ins for a model server and a pipeline service need, over
// node:net: keep-alive, Content-Length or chunked bodies, nothing else. Node's http module costs
// ~0.5 ms of CPU per message while its JIT is cold; on a 2-core runner that CPU competes with
// saboteur for the same cores, so the stand-ins would measure themselves instead of the harness.
// Bench-only: saboteur itself speaks through node:http.
import net from 'node:net';

const CRLF2 = Buffer.from('\r\n\r\n');

/** Parses one message at the start of `buf`: undefined until it is whole. */
function parseMessage(buf) {
  const end = buf.indexOf(CRLF2);
  if (end < 0) return undefined;
  const head = buf.toString('latin1', 0, end);
  const lines = head.split('\r\n');
  const headers = {};
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    if (colon > 0) headers[lines[i].slice(0, colon).trim().toLowerCase()] = lines[i].slice(colon + 1).trim();
  }
  let offset = end + 4;
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', offset);
      if (lineEnd < 0) return undefined;
      const size = parseInt(buf.toString('latin1', offset, lineEnd), 16);
      if (buf.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
      if (size === 0) return { start: lines[0], headers, body: Buffer.concat(parts), rest: buf.subarray(offset) };
    }
  }
  const length = Number(headers['content-length'] ?? 0);
  if (buf.length < offset + length) return undefined;
  return { start: lines[0], headers, body: buf.subarray(offset, offset + length), rest: buf.subarray(offset + length) };
}

/** Feeds socket data to `onMessage` one whole message at a time. */
function messages(socket, onMessage) {
  let buf = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (let m = parseMessage(buf); m; m = parseMessage(buf)) {
      buf = m.rest;
      onMessage(m);
    }
  });
}

const REASONS = { 200: 'OK', 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed', 500: 'Internal Server Error' };

/** A keep-alive server: `handler({method, path, headers, body}, send)`; `send(status, jsonText)`. */
export function createServer(handler) {
  return net.createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('error', () => socket.destroy());
    messages(socket, (m) => {
      const [method, path] = m.start.split(' ');
      handler({ method, path, headers: m.headers, body: m.body }, (status, text) => {
        if (socket.destroyed) return;
        socket.write(
          `HTTP/1.1 ${status} ${REASONS[status] ?? 'Status'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
        );
      });
    });
  });
}

/** A keep-alive client for one host:port; `post(path, headers, text)` resolves to {status, body}. */
export function createClient(host, port) {
  const idle = [];
  return {
    post(path, headers, text) {
      return new Promise((resolve, reject) => {
        const socket = idle.pop() ?? net.connect(port, host).setNoDelay(true);
        const fail = (err) => {
          socket.destroy();
          reject(err);
        };
        socket.once('error', fail);
        socket.once('message', (m) => {
          socket.off('error', fail);
          idle.push(socket);
          resolve({ status: Number(m.start.split(' ')[1]), body: m.body.toString('utf8') });
        });
        if (!socket.wired) {
          socket.wired = true;
          messages(socket, (m) => socket.emit('message', m));
          socket.on('close', () => idle.includes(socket) && idle.splice(idle.indexOf(socket), 1));
        }
        const extra = Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('');
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
        );
      });
    },
  };
}
