import {
  Boxes,
  FileDiff,
  HeartPulse,
  Lightbulb,
  MessageSquare,
  Network,
  ScrollText,
  type LucideIcon,
} from 'lucide-react';
import type { EvidenceType } from '@watchdeck/core';
import { cn } from '#web/lib/cn.ts';

const ICONS: Record<EvidenceType, LucideIcon> = {
  log: ScrollText,
  topology: Network,
  config: Boxes,
  check: HeartPulse,
  config_change: FileDiff,
  config_analysis: Lightbulb,
  comment: MessageSquare,
};

export function EvidenceIcon({ type, className }: { type: EvidenceType; className?: string }) {
  const Icon = ICONS[type] ?? ScrollText;
  return <Icon size={14} className={cn('shrink-0 text-gray-400', className)} aria-hidden />;
}

/** green / red / grey dot for a resource's health */
export function HealthDot({ health }: { health: string | null }) {
  if (!health) return null;
  const good = ['healthy', 'resolved'].includes(health);
  const bad = ['unhealthy', 'open', 'degraded', 'missing'].includes(health);
  return (
    <span
      data-health={health}
      title={health}
      className={cn(
        'inline-block h-2 w-2 shrink-0 rounded-full',
        good ? 'bg-green-500' : bad ? 'bg-red-500' : health === 'warning' ? 'bg-orange-400' : 'bg-gray-300',
      )}
    />
  );
}
