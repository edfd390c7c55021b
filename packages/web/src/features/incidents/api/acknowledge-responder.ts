import { db, unwrap } from '#web/lib/api.ts';

export async function acknowledgeResponder(id: string) {
  unwrap(await db.from('responders').update({ acknowledge_time: new Date().toISOString() }).eq('id', id));
}
