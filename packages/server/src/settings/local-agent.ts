import { LOCAL_AGENT_ID } from '@watchdeck/core';
import type { Db } from '../db/index.ts';
import type { JobSource } from '../jobs/index.ts';

/**
 * The local agent is this server's own engines (the nil-UUID row of `agents`). A console calls
 * an agent online when it was seen within the last 61 seconds, so a process that runs the
 * engines marks the local agent seen when they start and every 30 seconds after (a scheduled
 * job, claimed once per slot across replicas). A process with WATCHDECK_ROLE=api runs no engines
 * and does not count.
 */
const LOCAL_AGENT_HEARTBEAT = '@every 30s';

export async function markLocalAgentSeen(db: Db): Promise<void> {
  await db.query(`UPDATE agents SET last_seen = now() WHERE id = $1`, [LOCAL_AGENT_ID]);
}

export function localAgentJobSource(db: Db): JobSource {
  return {
    name: 'local-agent',
    list: async () => [
      { key: 'agents:local-heartbeat', schedule: LOCAL_AGENT_HEARTBEAT, run: () => markLocalAgentSeen(db) },
    ],
  };
}
