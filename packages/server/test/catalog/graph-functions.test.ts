/* eslint-disable @typescript-eslint/no-explicit-any -- rows are inspected loosely */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDrivers } from '../support/db.ts';

/**
 * The relationship walk (catalog/sql/31-catalog-graph.sql) on a small graph with cycles:
 *
 *   hard (parent -> child):  A -> B -> C -> D,  A -> E
 *   soft (config_relationships): C -> A (a cycle back to the root), D -> F, F -> D (a 2-cycle),
 *                                G -> A (points at the root), B -> H (deleted item), E -> I (deleted link)
 */
for (const driver of testDrivers()) {
  describe(`relationship functions (${driver.name})`, () => {
    let db: Awaited<ReturnType<typeof driver.open>>;
    const id: Record<string, string> = {};
    const name = (uuid: string) => Object.keys(id).find((k) => id[k] === uuid);

    beforeAll(async () => {
      db = await driver.open();
      for (const n of ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I']) {
        const r = await db.query<{ id: string }>(
          `INSERT INTO config_items (type, config_class, name, deleted_at) VALUES ($1, 'T', $2, $3) RETURNING id`,
          [`Type::${n === 'F' || n === 'G' ? 'Soft' : 'Hard'}`, n, n === 'H' ? new Date() : null],
        );
        id[n] = r.rows[0].id;
      }
      for (const [p, c] of [
        ['A', 'B'],
        ['B', 'C'],
        ['C', 'D'],
        ['A', 'E'],
      ])
        await db.query(`UPDATE config_items SET parent_id = $1 WHERE id = $2`, [id[p], id[c]]);
      for (const [a, b, del] of [
        ['C', 'A', false],
        ['D', 'F', false],
        ['F', 'D', false],
        ['G', 'A', false],
        ['B', 'H', false],
        ['E', 'I', true],
      ] as const)
        await db.query(
          `INSERT INTO config_relationships (config_id, related_id, relation, selector_id, deleted_at) VALUES ($1, $2, 'uses', 'rule', $3)`,
          [id[a], id[b], del ? new Date() : null],
        );
    }, 300_000);
    afterAll(async () => db?.dispose());

    const walk = async (dir: string, mode: string, depth = 5, deleted = false) =>
      (
        await db.query<any>(
          `SELECT id, depth, direction, related_ids, links FROM related_configs_recursive($1, $2, $3, $4, $5)`,
          [id.A, dir, mode, depth, deleted],
        )
      ).rows;
    const names = (rows: any[]) => rows.map((r) => name(r.id)).sort();

    it('walks the tree outgoing (hard), with depths and the root as depth 0', async () => {
      const rows = await walk('outgoing', 'hard');
      expect(names(rows)).toEqual(['A', 'B', 'C', 'D', 'E']);
      const depth = Object.fromEntries(rows.map((r) => [name(r.id), r.depth]));
      expect(depth).toEqual({ A: 0, B: 1, E: 1, C: 2, D: 3 });
      const a = rows.find((r) => r.id === id.A);
      expect(a.direction).toBe('self');
      expect([...a.related_ids].map(name).sort()).toEqual(['B', 'E']);
    });

    it('follows soft links through cycles without repeating items (mode both)', async () => {
      const rows = await walk('outgoing', 'both');
      // F via D's link; C -> A leads back to the root, D <-> F is a 2-cycle; H is deleted; E -> I is a deleted link
      expect(names(rows)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      const c = rows.find((r) => r.id === id.C);
      // the edge back to the root is listed (the graph draws it), as a soft link
      expect(c.links).toEqual(
        expect.arrayContaining([{ related_id: id.A, relation: 'uses', relation_type: 'soft', selector_id: 'rule' }]),
      );
      const f = rows.find((r) => r.id === id.F);
      expect(f.depth).toBe(4);
      expect([...f.related_ids].map(name)).toEqual(['D']);
    });

    it('walks incoming: parents and what links to the item', async () => {
      expect(names(await walk('incoming', 'hard'))).toEqual(['A']);
      // C links to A (and C's ancestors B, A reach back); G links to A
      expect(names(await walk('incoming', 'both'))).toEqual(['A', 'B', 'C', 'G']);
      expect(names(await walk('incoming', 'soft'))).toEqual(['A', 'C', 'G']);
    });

    it('walks both ways and honours max depth', async () => {
      expect(names(await walk('all', 'both', 1))).toEqual(['A', 'B', 'C', 'E', 'G']);
      expect(names(await walk('all', 'hard', 2))).toEqual(['A', 'B', 'C', 'E']);
      expect(names(await walk('outgoing', 'hard', 0))).toEqual(['A']);
    });

    it('includes deleted items and links when asked', async () => {
      expect(names(await walk('outgoing', 'both', 5, true))).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'H', 'I']);
    });

    it('refuses unknown arguments with a clear message', async () => {
      await expect(walk('sideways', 'hard')).rejects.toThrow(/type_filter must be all, incoming or outgoing/);
      await expect(walk('all', 'firm')).rejects.toThrow(/mode must be hard, soft or both/);
      await expect(walk('all', 'hard', 99)).rejects.toThrow(/max_depth must be from 0 to 20/);
    });

    it('keeps the older functions: related_config_ids, related_configs, related_changes', async () => {
      const ids = (await db.query<any>(`SELECT id, depth FROM related_config_ids($1, 'outgoing', true)`, [id.A])).rows;
      expect(ids.map((r) => name(r.id)).sort()).toEqual(['B', 'C', 'D', 'E', 'F']);
      const rc = (await db.query<any>(`SELECT id FROM related_configs($1, 'incoming', true)`, [id.A])).rows;
      expect(names(rc)).toEqual(['B', 'C', 'G']);
      await db.query(
        `INSERT INTO config_changes (config_id, change_type, summary) VALUES ($1, 'diff', 'a'), ($2, 'diff', 'c'), ($3, 'diff', 'g')`,
        [id.A, id.C, id.G],
      );
      const ch = async (f: string, soft = false) =>
        (
          await db.query<any>(`SELECT summary FROM related_changes_recursive($1, $2, false, 5, $3) ORDER BY 1`, [
            id.A,
            f,
            soft,
          ])
        ).rows.map((r) => r.summary);
      expect(await ch('none')).toEqual(['a']);
      expect(await ch('downstream')).toEqual(['a', 'c']);
      expect(await ch('upstream')).toEqual(['a']);
      expect(await ch('upstream', true)).toEqual(['a', 'c', 'g']);
      expect(await ch('all', true)).toEqual(['a', 'c', 'g']);
      expect(
        (await db.query<any>(`SELECT count(*)::int AS n FROM related_changes($1, 'downstream')`, [id.A])).rows[0].n,
      ).toBe(2);
    });
  });
}
