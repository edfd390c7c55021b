/**
 * `npm run bench`: runs every scenario in bench/scenarios against a real server and database and
 * prints one table. The HTTP scenarios run on PostgreSQL (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres) in a database of their
 * own that is dropped afterwards. Numbers compare commits on the same machine.
 */
import { scenarios } from './scenarios/index.ts';
import { disposeSharedFixtures } from './support.ts';

// name filters: a scenario runs when its name contains any of them (all run without one)
const only = process.argv.slice(2);
const rows: Record<string, string | number>[] = [];
try {
  for (const scenario of scenarios) {
    if (only.length && !only.some((f) => scenario.name.includes(f))) continue;
    process.stderr.write(`running ${scenario.name}…\n`);
    const result = await scenario.run();
    rows.push({ scenario: scenario.name, ...result });
  }
} finally {
  await disposeSharedFixtures();
}
console.table(rows);
process.exit(0);
