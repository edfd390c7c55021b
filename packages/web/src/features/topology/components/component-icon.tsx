import { Box, Boxes, Cloud, Database, Globe, Layers, Server, type LucideIcon } from 'lucide-react';

/** A component's icon name (from its spec) drawn with the app's one icon set. */
const ICONS: Record<string, LucideIcon> = {
  cloud: Cloud,
  kubernetes: Boxes,
  namespace: Layers,
  server: Server,
  database: Database,
  postgres: Database,
  http: Globe,
};

export function ComponentIcon({ icon, size = 16 }: { icon: string | null | undefined; size?: number }) {
  const Icon = (icon && ICONS[icon.toLowerCase()]) || Box;
  return <Icon size={size} aria-hidden className="shrink-0 text-gray-500" />;
}
