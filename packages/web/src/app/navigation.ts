import {
  Activity,
  Bell,
  Bot,
  Boxes,
  Cable,
  Flag,
  HeartPulse,
  History,
  Inbox,
  LayoutDashboard,
  Network,
  Plug,
  ScrollText,
  Settings,
  ShieldCheck,
  Siren,
  UserRound,
  Users,
  Workflow,
  FileCode2,
  FolderGit2,
  Radar,
  type LucideIcon,
} from 'lucide-react';
import type { Session } from '../lib/session.tsx';

/**
 * The navigation of seed 000 ("Sidebar shell") and seed 002 section 2.1. Every item names the
 * resource the user must be able to read and the feature flag(s) that hide it. What is shown is
 * derived from this list and the registered routes: an item whose route isn't registered yet is
 * left out, so the sidebar never links to a screen that doesn't exist; nor does it show a screen
 * whose engine is not built (ENGINES_NOT_BUILT).
 */
export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  resource: string;
  /** Hidden when any of these features is disabled. */
  features: readonly string[];
  /** The engine the screen shows the work of; hidden while it is in ENGINES_NOT_BUILT. */
  engine?: Engine;
}

/**
 * Areas whose engine does not exist yet. A screen whose engine does not exist is not in the nav:
 * it could only show rows nobody's engine produced (or offer actions nothing carries out). Its
 * route may stay registered, reachable by URL for its own tests. Take an area out of this list
 * when its engine lands and its items come back.
 */
export type Engine = 'topology' | 'catalog' | 'logs' | 'playbooks' | 'notifications' | 'agents';
export const ENGINES_NOT_BUILT: ReadonlySet<Engine> = new Set<Engine>([]);

export interface NavGroup {
  label: string;
  icon: LucideIcon;
  /** Only editors and admins see it (the displayed role is not 'viewer'). */
  hiddenFromViewers: boolean;
  features: readonly string[];
  children: readonly NavItem[];
}

export type NavEntry = NavItem | NavGroup;
export const isNavGroup = (e: NavEntry): e is NavGroup => 'children' in e;

const byLabel = (a: NavItem, b: NavItem) => a.label.localeCompare(b.label);

/** Settings: Connections, the resource tables, Jobs History, Feature Flags, Log Backends, Event Queue, Agents, Integrations, Users; sorted by name. */
export const SETTINGS_ITEMS: readonly NavItem[] = (
  [
    {
      label: 'Connections',
      to: '/settings/connections',
      icon: Cable,
      resource: 'connections',
      features: ['settings.connections'],
    },
    {
      label: 'Canaries',
      to: '/settings/canaries',
      icon: Activity,
      resource: 'canaries',
      features: ['settings.health'],
    },
    {
      label: 'Config Scrapers',
      to: '/catalog/scrapers',
      icon: FileCode2,
      resource: 'config_scrapers',
      features: ['settings.config_scraper'],
      engine: 'catalog',
    },
    {
      label: 'Topologies',
      to: '/settings/topologies',
      icon: Network,
      resource: 'topologies',
      features: ['settings.topology'],
      engine: 'topology',
    },
    { label: 'Teams', to: '/settings/teams', icon: Users, resource: 'database', features: ['settings.teams'] },
    {
      label: 'Incident Rules',
      to: '/settings/incident_rules',
      icon: ShieldCheck,
      resource: 'incident',
      features: ['settings.rules', 'incidents'],
    },
    {
      label: 'Notifications',
      // the notification screens (send history, rules, silences), not the generic settings table
      to: '/notifications',
      icon: Bell,
      resource: 'notifications',
      features: ['settings.notifications'],
      engine: 'notifications',
    },
    {
      label: 'Jobs History',
      to: '/settings/jobs',
      icon: History,
      resource: 'database',
      features: ['settings.job_history'],
    },
    {
      label: 'Feature Flags',
      to: '/settings/feature-flags',
      icon: Flag,
      resource: 'properties',
      features: ['settings.feature_flags'],
    },
    {
      label: 'Log Backends',
      to: '/settings/logging_backends',
      icon: ScrollText,
      resource: 'logging_backends',
      features: ['settings.logging_backends', 'logs'],
      engine: 'logs',
    },
    {
      label: 'Event Queue',
      to: '/settings/event-queue-status',
      icon: Inbox,
      resource: 'database',
      features: ['settings.event_queue_status'],
    },
    { label: 'Agents', to: '/settings/agents', icon: Bot, resource: 'agents', features: ['agents'], engine: 'agents' },
    {
      label: 'Integrations',
      to: '/settings/integrations',
      icon: Plug,
      resource: 'integrations',
      features: ['settings.integrations'],
    },
    { label: 'Users', to: '/settings/users', icon: UserRound, resource: 'identities', features: ['settings.users'] },
    {
      label: 'Playbook Sources',
      to: '/settings/playbook-sources',
      icon: FolderGit2,
      resource: 'playbooks',
      features: ['playbooks'],
      engine: 'playbooks',
    },
  ] satisfies NavItem[]
).sort(byLabel);

/** Main navigation, in the seed's order: Dashboard, Health, Incidents, Catalog, Logs, Playbooks, Settings. */
const NAVIGATION: readonly NavEntry[] = [
  {
    label: 'Dashboard',
    to: '/topology',
    icon: LayoutDashboard,
    resource: 'topologies',
    features: ['topology'],
    engine: 'topology',
  },
  { label: 'Health', to: '/health', icon: HeartPulse, resource: 'canaries', features: ['health'] },
  { label: 'Incidents', to: '/incidents', icon: Siren, resource: 'incident', features: ['incidents'] },
  { label: 'Catalog', to: '/catalog', icon: Boxes, resource: 'database', features: ['config'], engine: 'catalog' },
  { label: 'Logs', to: '/logs', icon: ScrollText, resource: 'logging_backends', features: ['logs'], engine: 'logs' },
  {
    label: 'Playbooks',
    to: '/playbooks',
    icon: Workflow,
    resource: 'playbooks',
    features: ['playbooks'],
    engine: 'playbooks',
  },
  { label: 'Settings', icon: Settings, hiddenFromViewers: true, features: ['settings'], children: SETTINGS_ITEMS },
];

export const BRAND_ICON = Radar;

export interface NavContext {
  isRegistered: (path: string) => boolean;
  session: Pick<Session, 'can' | 'isFeatureEnabled' | 'displayedRole'>;
  /** defaults to ENGINES_NOT_BUILT */
  enginesNotBuilt?: ReadonlySet<Engine>;
}

function itemVisible(
  item: NavItem,
  { isRegistered, session, enginesNotBuilt = ENGINES_NOT_BUILT }: NavContext,
): boolean {
  return (
    !(item.engine && enginesNotBuilt.has(item.engine)) &&
    isRegistered(item.to) &&
    item.features.every((f) => session.isFeatureEnabled(f)) &&
    session.can(item.resource, 'read')
  );
}

/** The entries this user sees: disabled features, unreadable resources and unbuilt routes drop out. */
export function visibleNavigation(ctx: NavContext, nav: readonly NavEntry[] = NAVIGATION): NavEntry[] {
  const out: NavEntry[] = [];
  for (const entry of nav) {
    if (isNavGroup(entry)) {
      if (entry.hiddenFromViewers && ctx.session.displayedRole === 'viewer') continue;
      if (!entry.features.every((f) => ctx.session.isFeatureEnabled(f))) continue;
      const children = entry.children.filter((c) => itemVisible(c, ctx));
      if (children.length) out.push({ ...entry, children });
    } else if (itemVisible(entry, ctx)) out.push(entry);
  }
  return out;
}

/**
 * Where / goes: the first screen of the navigation this user sees: the topology Dashboard (seed
 * 002 section 2.1: / redirects to /topology), else the next screen this user may open.
 */
export function homePath(ctx: NavContext, nav: readonly NavEntry[] = NAVIGATION): string {
  for (const entry of visibleNavigation(ctx, nav)) {
    const first = isNavGroup(entry) ? entry.children[0] : entry;
    if (first) return first.to;
  }
  return '/profile-settings';
}

/** The nav item for a path (longest matching prefix), for the top bar's fallback title. */
export function navItemFor(
  pathname: string,
  nav: readonly NavEntry[] = NAVIGATION,
): { item: NavItem; group?: NavGroup } | undefined {
  let best: { item: NavItem; group?: NavGroup } | undefined;
  const consider = (item: NavItem, group?: NavGroup) => {
    if (
      (pathname === item.to || pathname.startsWith(`${item.to}/`)) &&
      (!best || item.to.length > best.item.to.length)
    ) {
      best = { item, group };
    }
  };
  for (const e of nav) {
    if (isNavGroup(e)) e.children.forEach((c) => consider(c, e));
    else consider(e);
  }
  return best;
}
