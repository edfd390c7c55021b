import pg from 'pg';
import mysql from 'mysql2/promise';
import { createClient as createRedisClient } from 'redis';
import { TIMEOUT_MS, requireUrl, prop, withCredentials, type PlainConnection } from './common.ts';

/** Databases and caches: connect with the stored credentials and ask the simplest question. */
export async function testPostgres(c: PlainConnection) {
  const client = new pg.Client({
    connectionString: withCredentials(requireUrl(c), c),
    connectionTimeoutMillis: TIMEOUT_MS,
  });
  // a server that drops the connection makes the client emit 'error' (besides failing the query):
  // without a listener that crashed the whole process
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => {});
  }
}

export async function testMysql(c: PlainConnection) {
  const conn = await mysql.createConnection({ uri: withCredentials(requireUrl(c), c), connectTimeout: TIMEOUT_MS });
  conn.on('error', () => {}); // a dropped connection fails the query; unheard, the event would crash the process
  try {
    await conn.query('SELECT 1');
  } finally {
    await conn.end().catch(() => {});
  }
}

export async function testRedis(c: PlainConnection) {
  const db = Number(prop(c, 'db') || 0);
  const client = createRedisClient({
    url: requireUrl(c),
    username: c.username || undefined,
    password: c.password || undefined,
    database: Number.isInteger(db) && db >= 0 ? db : 0,
    socket: { connectTimeout: TIMEOUT_MS, reconnectStrategy: false },
  });
  client.on('error', () => {}); // surfaced by connect() instead
  try {
    await client.connect();
    const pong = await client.ping();
    if (pong !== 'PONG') throw new Error(`unexpected reply to PING: ${pong}`);
  } finally {
    if (client.isOpen) await client.quit().catch(() => {});
  }
}
