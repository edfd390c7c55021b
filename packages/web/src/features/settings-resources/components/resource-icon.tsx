import {
  Activity,
  Boxes,
  Cloud,
  Database,
  FileText,
  GitBranch,
  Globe,
  HeartPulse,
  Network,
  Server,
  Shield,
  Users,
  type LucideIcon,
} from 'lucide-react';

/**
 * Resource icons are free-form names in the data (kubernetes, aws, postgres, ...). The app has one
 * icon set (lucide); the names map to the nearest glyph, anything unknown to a neutral one.
 */
const ICONS: Record<string, LucideIcon> = {
  kubernetes: Boxes,
  aws: Cloud,
  azure: Cloud,
  'azure-devops': Cloud,
  cloud: Cloud,
  database: Database,
  postgres: Database,
  mysql: Database,
  file: FileText,
  git: GitBranch,
  github: GitBranch,
  http: Globe,
  trivy: Shield,
  network: Network,
  'heart-pulse': HeartPulse,
  team: Users,
  server: Server,
};

export function ResourceIcon({ name, size = 15 }: { name: string | null | undefined; size?: number }) {
  if (!name) return null;
  const Icon = ICONS[name] ?? Activity;
  return <Icon size={size} aria-hidden className="shrink-0 text-gray-500" data-icon={name} />;
}
