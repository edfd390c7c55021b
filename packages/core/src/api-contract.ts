/**
 * Shapes of the JSON routes outside /api/db that both sides rely on. The server validates its
 * answers against nothing here (it builds them); the web app parses them with these schemas so a
 * drift shows up as a clear error instead of undefined fields.
 */
import { z } from 'zod';

/** GET /api/auth/whoami */
export const whoamiSchema = z.object({
  user: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    avatar: z.string().nullable().optional(),
  }),
  roles: z.array(z.string()),
  /** resource -> allowed actions, from the matrix in rbac.ts */
  permissions: z.record(z.string(), z.array(z.enum(['read', 'write']))),
  /** 'none' when AUTH=none switched session handling off; 'oidc' when an OpenID Connect provider signs users in */
  authMode: z.enum(['kratos', 'none', 'oidc']),
  /** hosted mode, on an organisation's backend: its slug and the backend's URL */
  organization: z.string().optional(),
  backendUrl: z.string().optional(),
  /** hosted mode, on the root backend: the caller picks an organisation (its backend has the data) */
  hosted: z.boolean().optional(),
});
export type Whoami = z.infer<typeof whoamiSchema>;

/** GET /api/properties: feature flags and other settings, local (environment) and database. */
export const propertySchema = z.object({
  name: z.string(),
  value: z.string(),
  source: z.enum(['local', 'db']),
});
export const propertiesSchema = z.array(propertySchema);
export type Property = z.infer<typeof propertySchema>;

/** GET /api/about */
export const aboutSchema = z.object({ Version: z.string() });
