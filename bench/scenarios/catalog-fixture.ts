import {
  freshPostgresDb,
  loadCatalog,
  sharedFixture,
  startServer,
  type BenchDb,
  type BenchServer,
} from '../support.ts';

export const CATALOG_ITEMS = 100_000;

export interface CatalogFixture {
  bench: BenchDb;
  server: BenchServer;
  ids: string[];
}

/** 100,000 config items on PostgreSQL behind a running server; shared by the /api/db scenarios. */
export function catalogFixture(): Promise<CatalogFixture> {
  return sharedFixture(
    'catalog',
    async () => {
      const bench = await freshPostgresDb();
      await loadCatalog(bench.db, CATALOG_ITEMS);
      const server = await startServer(bench);
      const ids = (
        await bench.db.query<{ id: string }>(`SELECT id FROM config_items ORDER BY random() LIMIT 2000`)
      ).rows.map((r) => r.id);
      return { bench, server, ids };
    },
    async ({ bench, server }) => {
      await server.stop();
      await bench.dispose();
    },
  );
}
