import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import { generate } from 'selfsigned';

/**
 * Real peers on loopback for the health engine tests: an HTTP server, an HTTPS server with a
 * self-signed certificate of a chosen lifetime, a TCP listener and a DNS server (dns2) with fixed
 * records. Each answers for real over the network stack; nothing is stubbed inside the engine.
 */
export interface Peer {
  url: string;
  port: number;
  close(): Promise<void>;
}

function closeServer(server: http.Server | net.Server): Promise<void> {
  return new Promise((resolve) => {
    (server as http.Server).closeAllConnections?.();
    server.close(() => resolve());
  });
}

/**
 * /ok (JSON), /slow?ms=, /status/:code, /echo (method, headers, body), /basic (user:secret),
 * /nul and /nul-json (a NUL byte in the body, in a JSON string),
 * and the answer formats of Prometheus' instant query and Alertmanager's v2 alerts APIs (the
 * alerts come from `state`, so a test can make one fire and resolve).
 */
export async function startHttp(state: { alerts: unknown[] } = { alerts: [] }): Promise<Peer> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (url.pathname === '/ok') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-service': 'orders' });
        return res.end(JSON.stringify({ status: 'ok', items: [1, 2, 3] }));
      }
      if (url.pathname === '/slow') {
        return setTimeout(() => res.end('slow but fine'), Number(url.searchParams.get('ms') ?? 300));
      }
      const code = /^\/status\/(\d{3})$/.exec(url.pathname);
      if (code) {
        res.writeHead(Number(code[1]), { 'content-type': 'text/plain' });
        return res.end(`status ${code[1]}`);
      }
      if (url.pathname === '/echo') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            method: req.method,
            body,
            contentType: req.headers['content-type'] ?? null,
            token: req.headers['x-token'] ?? null,
          }),
        );
      }
      if (url.pathname === '/nul') {
        // binary output: a NUL byte in the body (and in a JSON string)
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('bin\u0000ary');
      }
      if (url.pathname === '/nul-json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ value: 'a\u0000b' }));
      }
      if (url.pathname === '/basic') {
        const ok = req.headers.authorization === `Basic ${Buffer.from('user:secret').toString('base64')}`;
        res.writeHead(ok ? 200 : 401);
        return res.end(ok ? 'welcome' : 'who are you');
      }
      if (url.pathname === '/prometheus/api/v1/query') {
        // The answer format of Prometheus' instant query API for the query the test sends.
        const q = url.searchParams.get('query');
        res.writeHead(q === 'bad(' ? 400 : 200, { 'content-type': 'application/json' });
        if (q === 'bad(')
          return res.end(
            JSON.stringify({
              status: 'error',
              errorType: 'bad_data',
              error: 'parse error at char 5: unclosed left parenthesis',
            }),
          );
        return res.end(
          JSON.stringify({
            status: 'success',
            data: {
              resultType: 'vector',
              result: [{ metric: { service: 'payments' }, value: [Date.now() / 1000, '0.002'] }],
            },
          }),
        );
      }
      if (url.pathname === '/alertmanager/api/v2/alerts') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(state.alerts));
      }
      res.writeHead(404);
      res.end('not found');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, close: () => closeServer(server) };
}

/** HTTPS with a fresh self-signed certificate for localhost that expires in `days`. */
export async function startHttps(days: number): Promise<Peer & { cert: string }> {
  const notAfter = new Date(Date.now() + days * 86_400_000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    notBeforeDate: new Date(Date.now() - 86_400_000),
    notAfterDate: notAfter,
    keySize: 2048,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('secure hello'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `https://localhost:${port}`, port, cert: pems.cert, close: () => closeServer(server) };
}

export async function startTcp(): Promise<Peer> {
  const server = net.createServer((s) => s.end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `127.0.0.1:${port}`, port, close: () => closeServer(server) };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const p = await startTcp();
  await p.close();
  return p.port;
}

/** A DNS server on UDP: A records for the given names, a TXT record for txt.test. */
export async function startDns(records: Record<string, string[]>): Promise<Peer> {
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      // dns2's typings ask for toBuffer on answers; the encoder takes plain records (its README's way)
      type Answer = (typeof response.answers)[number];
      const [q] = request.questions;
      if (q.type === Packet.TYPE.A) {
        for (const address of records[q.name] ?? []) {
          response.answers.push({
            name: q.name,
            type: Packet.TYPE.A,
            class: Packet.CLASS.IN,
            ttl: 60,
            address,
          } as Answer);
        }
      }
      if (q.type === Packet.TYPE.TXT && q.name === 'txt.test') {
        response.answers.push({
          name: q.name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 60,
          data: 'v=watchdeck1',
        } as Answer);
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp!.port;
  return { url: `127.0.0.1:${port}`, port, close: () => server.close() };
}
