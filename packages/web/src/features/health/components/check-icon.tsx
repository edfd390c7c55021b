import {
  Activity,
  BellRing,
  Database,
  Flame,
  Folder,
  Globe,
  Lock,
  Network,
  Radio,
  Search,
  Terminal,
  type LucideIcon,
} from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import { HEALTH_DOT_CLASS, healthColour } from '../lib/status.ts';

const ICONS: Record<string, LucideIcon> = {
  http: Globe,
  https: Globe,
  tcp: Network,
  dns: Search,
  icmp: Radio,
  tls: Lock,
  exec: Terminal,
  postgres: Database,
  mysql: Database,
  mongodb: Database,
  mongo: Database,
  redis: Database,
  elasticsearch: Database,
  prometheus: Flame,
  alertmanager: BellRing,
  folder: Folder,
};

/** The check's icon (its `icon`, else its type). */
export function CheckIcon({
  icon,
  type,
  size = 16,
  className,
}: {
  icon?: string | null;
  type?: string | null;
  size?: number;
  className?: string;
}) {
  const key = (icon || type || '').toLowerCase();
  const Icon = ICONS[key] ?? ICONS[(type ?? '').toLowerCase()] ?? Activity;
  return <Icon size={size} className={cn('shrink-0 text-gray-500', className)} aria-hidden />;
}

/** A coloured dot and the status word. */
export function HealthBadge({ status, className }: { status: string | null | undefined; className?: string }) {
  const colour = healthColour(status);
  return (
    <span className={cn('inline-flex items-center gap-1.5 text-sm', className)} data-health={status ?? 'unknown'}>
      <span className={cn('h-2.5 w-2.5 shrink-0 rounded-full', HEALTH_DOT_CLASS[colour])} aria-hidden />
      <span className="capitalize">{status ?? 'unknown'}</span>
    </span>
  );
}
