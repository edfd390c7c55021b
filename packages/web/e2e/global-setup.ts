// Starts one real server with demo data for the browser tests (AUTH=none unless E2E_AUTH says
// otherwise; see server.ts for the database). Stops and cleans up afterwards. Tests that need
// another configuration (account.e2e.ts: sign-in on, an SMTP peer) start their own.
import type { TestProject } from 'vitest/node';
import { startServer } from './server.ts';

export default async function setup(project: TestProject) {
  const server = await startServer({ AUTH: process.env.E2E_AUTH ?? 'none' });
  project.provide('baseUrl', server.baseUrl);
  return () => server.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
