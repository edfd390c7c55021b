import { execFile } from 'node:child_process';
import { num, str, type CheckContext, type CheckOutcome } from './types.ts';

/**
 * ICMP check (seed 002: endpoint required, packetCount, packetLossThreshold, thresholdMillis).
 * Node has no raw sockets, and unprivileged ICMP sockets depend on net.ipv4.ping_group_range, so
 * the check runs the system `ping` (iputils), which holds the capability it needs. Packet loss
 * and the average round trip are read from its summary lines.
 */
export async function icmpCheck(spec: Record<string, unknown>, ctx: CheckContext): Promise<CheckOutcome> {
  const endpoint = str(spec, 'endpoint') ?? str(spec, 'host');
  if (!endpoint) throw new Error('endpoint is required');
  if (!/^[A-Za-z0-9.:_-]+$/.test(endpoint)) throw new Error(`endpoint "${endpoint}" is not a host name or address`);
  const count = Math.max(1, Math.min(100, Math.floor(num(spec, 'packetCount') ?? 3)));
  const waitS = Math.max(1, Math.min(10, Math.floor(ctx.timeoutMs / 1000 / (count + 1)) || 1));
  const args = ['-n', '-c', String(count), '-i', '0.2', '-W', String(waitS), endpoint];
  const output = await new Promise<string>((resolve, reject) => {
    execFile('ping', args, { signal: ctx.signal, timeout: ctx.timeoutMs }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(
          new Error(
            'ICMP checks need the system ping binary (Debian package iputils-ping), which is not installed on this server',
          ),
        );
      }
      // exit 1: no reply at all; the summary still says so
      if (err && !/packets transmitted/.test(stdout))
        return reject(new Error(`ping ${endpoint} failed: ${(stderr || err.message).trim()}`));
      resolve(stdout);
    });
  });
  const stats = /(\d+) packets transmitted, (\d+) (?:packets )?received.*?([\d.]+)% packet loss/s.exec(output);
  if (!stats) throw new Error(`cannot read the output of ping: ${output.trim().split('\n').pop()}`);
  const sent = Number(stats[1]);
  const received = Number(stats[2]);
  const loss = Number(stats[3]);
  const rtt = /= [\d.]+\/([\d.]+)\/([\d.]+)/.exec(output);
  const avg = rtt ? Number(rtt[1]) : undefined;
  const vars = { sent, received, loss, avg: avg ?? null, max: rtt ? Number(rtt[2]) : null };
  const message = `${sent} packets, ${received} received, ${loss}% loss${avg !== undefined ? `, avg ${avg}ms` : ''}`;
  const lossThreshold = num(spec, 'packetLossThreshold') ?? (received === 0 ? 0 : 100);
  if (received === 0) return { pass: false, message, error: `${endpoint} did not answer: 100% packet loss`, vars };
  if (loss > lossThreshold) {
    return {
      pass: false,
      message,
      error: `${loss}% packet loss to ${endpoint}, above the ${lossThreshold}% threshold`,
      vars,
    };
  }
  const threshold = num(spec, 'thresholdMillis');
  if (threshold && avg !== undefined && avg > threshold) {
    return {
      pass: false,
      message,
      error: `average round trip ${avg}ms to ${endpoint}, above the ${threshold}ms threshold`,
      vars,
    };
  }
  return { pass: true, message, vars };
}
