import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { testConnection } from '#server/connections/testers/index.ts';

/**
 * Issue 12 point 3, outside the pool: a PostgreSQL server that drops the connection in the middle
 * of a connection test. node-postgres then fails the query and also emits 'error' on the client;
 * unheard, that event crashed the process. A minimal server speaking just enough of the protocol
 * (AuthenticationOk, ReadyForQuery) closes the socket when the test's query arrives.
 */
let server: net.Server;
let port: number;
beforeAll(async () => {
  server = net.createServer((socket) => {
    let started = false;
    socket.on('error', () => {});
    socket.on('data', () => {
      if (!started) {
        started = true; // the startup message: authenticated, ready
        const ok = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]);
        const ready = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
        socket.write(Buffer.concat([ok, ready]));
        return;
      }
      socket.destroy(); // the query: gone
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe('a PostgreSQL connection test whose server drops the connection', () => {
  it('fails the test with the reason, and the process lives on', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(
        testConnection({
          type: 'postgres',
          url: `postgres://user@127.0.0.1:${port}/db`,
          username: null,
          password: null,
        }),
      ).rejects.toThrow(/Connection terminated|connection/i);
    }
    // give a stray 'error' event the chance to surface as an uncaught exception
    await new Promise((r) => setTimeout(r, 200));
  });
});
