/**
 * Resources as code (README.md): the console's own resources served as a Kubernetes-style API
 * under /k8s, so kubectl (and GitOps tools that drive it) can list, apply, diff and delete them,
 * and GET /api/kubeconfig, the file that points kubectl at it with a fresh personal token.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import YAML from 'yaml';
import { displayedRole } from '@watchdeck/core';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { WriteRegistration } from '../pgrest/index.ts';
import type { SecretBox } from '../connections/index.ts';
import { issueAccessToken, publicBase, SIGNED_IN, type Caller } from '../auth/index.ts';
import { sendError } from '../http/errors.ts';
import { noReadInput, typed } from '../http/validation.ts';
import { kubeRoutes } from './routes.ts';
import { KubeStore } from './store.ts';

export interface KubeDeps {
  db: Db;
  box?: SecretBox;
  config: Pick<Config, 'publicUrl' | 'allowedHosts' | 'port' | 'authMode' | 'organization'>;
  /** the areas' write checks and effects, as /api/db runs them (app.ts hands both the same list) */
  writes: readonly WriteRegistration[];
  resolveCaller(req: FastifyRequest): Promise<Caller | null>;
  isFeatureDisabled(feature: string): Promise<boolean>;
}

const KUBECONFIG_FILE = 'watchdeck-kubeconfig.yaml';

export async function registerKube(app: FastifyInstance, deps: KubeDeps): Promise<void> {
  const store = new KubeStore({ db: deps.db, box: deps.box, writes: deps.writes });
  await kubeRoutes(app, {
    store,
    resolveCaller: deps.resolveCaller,
    authMode: deps.config.authMode,
    isFeatureDisabled: deps.isFeatureDisabled,
  });

  // The kubeconfig: cluster = this console's public URL + /k8s, user = a new personal access
  // token scoped to the caller's role (named for the download: listed and revocable on the
  // profile page), one context, current. A token cannot mint another (as POST /api/auth/tokens).
  typed(app).get('/api/kubeconfig', { config: SIGNED_IN, schema: noReadInput }, async (req, reply) => {
    const caller = req.caller!;
    if (caller.via === 'token' && !caller.sessionToken)
      return sendError(reply, 403, 'forbidden', 'A kubeconfig can only be downloaded from a signed-in session.');
    // hosted mode: an organisation's backend answers under its prefix (/org/{slug})
    const prefix = deps.config.organization?.prefix ?? '';
    const server = `${publicBase(req, deps.config).replace(/\/+$/, '')}${prefix}/k8s`;
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const token = await issueAccessToken(deps.db, {
      personId: caller.person.id,
      name: `kubeconfig download ${stamp} UTC`,
      role: displayedRole(caller.roles),
    });
    const user = caller.person.email ?? caller.person.name ?? 'watchdeck';
    const doc = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'watchdeck', cluster: { server } }],
      users: [{ name: user, user: { token: token.token } }],
      contexts: [{ name: 'watchdeck', context: { cluster: 'watchdeck', user, namespace: 'default' } }],
      'current-context': 'watchdeck',
      preferences: {},
    };
    return reply
      .type('application/yaml')
      .header('content-disposition', `attachment; filename="${KUBECONFIG_FILE}"`)
      .header('cache-control', 'no-store')
      .send(YAML.stringify(doc));
  });
}
