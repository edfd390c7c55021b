import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { uuidField } from '@watchdeck/core';
import { noBody, noQuery, typed } from '../http/validation.ts';
import type { Db } from '../db/index.ts';
import { needs } from '../auth/index.ts';
import { SecretBox } from './secret-box.ts';
import { NotImplementedError, redactSecrets, testConnection, type PlainConnection } from './testers/index.ts';

export interface ConnectionsDeps {
  db: Db;
  box: SecretBox;
}

/**
 * POST /api/connection/test/:id really connects with the stored (decrypted) settings.
 * Answers 200 {message:'ok'}, 400 {error} when the peer refused, 501 {error} for types without a
 * tester (or values kept in a Kubernetes secret), 404 {error} for an unknown connection, as the
 * web's test button reads them; a malformed id is a 400 in the app's one error shape. Testing acts
 * with the stored credentials (chat services get a visible message), so it needs write access,
 * like saving. The secret never leaves the server: error texts are redacted before they are
 * answered or logged.
 */
export const connectionRoutes: FastifyPluginAsync<ConnectionsDeps> = async (app, { db, box }) => {
  const schema = { params: z.object({ id: uuidField('the connection id') }), querystring: noQuery, body: noBody };
  typed(app).post(
    '/api/connection/test/:id',
    { config: needs('connections', 'write', { feature: 'settings.connections' }), schema },
    async (req, reply) => {
      const { id } = req.params;
      const { rows } = await db.query<PlainConnection>(
        `SELECT type, url, username, password, certificate, insecure_tls, properties
         FROM connections WHERE id = $1 AND deleted_at IS NULL`,
        [id],
      );
      const stored = rows[0];
      if (!stored) return reply.code(404).send({ error: 'connection not found' });
      let plain: PlainConnection;
      try {
        plain = {
          ...stored,
          url: stored.url && box.decrypt(stored.url),
          password: stored.password && box.decrypt(stored.password),
          certificate: stored.certificate && box.decrypt(stored.certificate),
        };
      } catch {
        // GCM refuses a value encrypted under another WATCHDECK_SECRET_KEY
        req.log.warn({ connection: id }, 'connection secret cannot be decrypted with the current key');
        return reply.code(400).send({
          error:
            'the stored secret cannot be decrypted with the current WATCHDECK_SECRET_KEY; save the connection again',
        });
      }
      try {
        await testConnection(plain);
        return { message: 'ok' };
      } catch (err) {
        const message = redactSecrets((err as Error).message || String(err), plain);
        if (err instanceof NotImplementedError) return reply.code(501).send({ error: message });
        req.log.info({ connection: id, type: stored.type, reason: message }, 'connection test failed');
        return reply.code(400).send({ error: message });
      }
    },
  );
};
