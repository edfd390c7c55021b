import { useState } from 'react';
import { Link, useLocation, useMatch } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import { aboutQuery } from '#web/lib/about.ts';
import { useSession } from '#web/lib/session.tsx';
import { Tooltip } from '#web/components/ui/tooltip.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '#web/components/ui/dropdown-menu.tsx';
import {
  BRAND_ICON,
  ENGINES_NOT_BUILT,
  isNavGroup,
  visibleNavigation,
  type Engine,
  type NavGroup,
  type NavItem,
} from '../navigation.ts';
import { isRegisteredPath } from '../routes.ts';

const itemClass = (active: boolean, collapsed: boolean) =>
  cn(
    'flex h-9 items-center gap-3 rounded-md text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-400',
    collapsed ? 'w-10 justify-center' : 'px-3',
    active ? 'bg-white/10 text-white' : 'text-slate-400 hover:bg-white/5 hover:text-slate-100',
  );

function NavItemLink({ item, collapsed, nested }: { item: NavItem; collapsed: boolean; nested?: boolean }) {
  const Icon = item.icon;
  // The active state is computed here (not with NavLink's className function) because the
  // tooltip's Slot merges class names as strings.
  const isActive = useMatch({ path: item.to, end: false }) !== null;
  return (
    <Tooltip content={item.label} side="right" disabled={!collapsed}>
      <Link
        to={item.to}
        aria-label={collapsed ? item.label : undefined}
        aria-current={isActive ? 'page' : undefined}
        className={cn(itemClass(isActive, collapsed), nested && !collapsed && 'h-8 pl-9 text-[13px]')}
      >
        {!nested || collapsed ? (
          <Icon size={18} aria-hidden className={cn('shrink-0', isActive && 'text-blue-400')} />
        ) : null}
        {!collapsed && <span className="truncate">{item.label}</span>}
      </Link>
    </Tooltip>
  );
}

function NavGroupSection({ group, collapsed }: { group: NavGroup; collapsed: boolean }) {
  const { pathname } = useLocation();
  const containsActive = group.children.some((c) => pathname === c.to || pathname.startsWith(`${c.to}/`));
  const [open, setOpen] = useState(containsActive);
  // Opening a settings page (from anywhere) unfolds the submenu.
  const [wasActive, setWasActive] = useState(containsActive);
  if (wasActive !== containsActive) {
    setWasActive(containsActive);
    if (containsActive) setOpen(true);
  }
  const Icon = group.icon;
  if (collapsed) {
    return (
      <DropdownMenu>
        <Tooltip content={group.label} side="right">
          <DropdownMenuTrigger className={itemClass(containsActive, true)} aria-label={group.label}>
            <Icon size={18} aria-hidden className={containsActive ? 'text-blue-400' : ''} />
          </DropdownMenuTrigger>
        </Tooltip>
        <DropdownMenuContent side="right" align="start" className="max-h-[80vh] overflow-auto">
          <DropdownMenuLabel>{group.label}</DropdownMenuLabel>
          {group.children.map((c) => (
            <DropdownMenuItem key={c.to} asChild>
              <Link to={c.to}>
                <c.icon size={15} aria-hidden className="text-gray-500" /> {c.label}
              </Link>
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
    );
  }
  return (
    <div>
      <button
        type="button"
        onClick={() => setOpen(!open)}
        aria-expanded={open}
        className={cn(itemClass(false, false), 'w-full', containsActive && 'text-slate-100')}
      >
        <Icon size={18} aria-hidden className={cn('shrink-0', containsActive && 'text-blue-400')} />
        <span className="flex-1 text-left">{group.label}</span>
        <ChevronDown size={15} aria-hidden className={cn('transition-transform', open ? 'rotate-180' : '')} />
      </button>
      {open && (
        <ul className="mt-0.5 space-y-0.5" aria-label={group.label}>
          {group.children.map((c) => (
            <li key={c.to}>
              <NavItemLink item={c} collapsed={false} nested />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export interface SidebarProps {
  collapsed: boolean;
  onToggle: () => void;
  /** Which paths lead to a screen (defaults to the route table). */
  isRegistered?: (path: string) => boolean;
  /** Areas whose screens stay out of the nav (defaults to ENGINES_NOT_BUILT). */
  enginesNotBuilt?: ReadonlySet<Engine>;
}

/** The collapsible sidebar: brand, main navigation, Settings submenu, version and collapse control. */
export function Sidebar({
  collapsed,
  onToggle,
  isRegistered = isRegisteredPath,
  enginesNotBuilt = ENGINES_NOT_BUILT,
}: SidebarProps) {
  const session = useSession();
  const about = useQuery(aboutQuery);
  const nav = visibleNavigation({ isRegistered, session, enginesNotBuilt });
  const Brand = BRAND_ICON;
  const ToggleIcon = collapsed ? PanelLeftOpen : PanelLeftClose;
  return (
    <aside
      data-testid="sidebar"
      data-collapsed={collapsed}
      className={cn(
        'flex h-full shrink-0 flex-col border-r border-slate-800 bg-slate-900 transition-[width] duration-200',
        collapsed ? 'w-16' : 'w-60',
      )}
    >
      <Link
        to="/"
        className={cn(
          'flex h-14 shrink-0 items-center gap-2.5 border-b border-white/5',
          collapsed ? 'justify-center' : 'px-4',
        )}
        aria-label="Watchdeck home"
      >
        <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-blue-600 text-white shadow-sm">
          <Brand size={18} aria-hidden />
        </span>
        {!collapsed && <span className="text-[15px] font-semibold tracking-tight text-white">Watchdeck</span>}
      </Link>
      <nav aria-label="Main navigation" className={cn('flex-1 overflow-y-auto py-3', collapsed ? 'px-3' : 'px-3')}>
        <ul className="space-y-0.5">
          {nav.map((entry) => (
            <li key={entry.label}>
              {isNavGroup(entry) ? (
                <NavGroupSection group={entry} collapsed={collapsed} />
              ) : (
                <NavItemLink item={entry} collapsed={collapsed} />
              )}
            </li>
          ))}
        </ul>
      </nav>
      <div className={cn('shrink-0 border-t border-white/5 py-2', collapsed ? 'px-3' : 'px-3')}>
        <div
          data-testid="version"
          className={cn('px-3 pb-1 text-[11px] text-slate-500', collapsed && 'sr-only')}
          title="Backend version"
        >
          {about.data ? `Version ${about.data.Version}` : ' '}
        </div>
        <Tooltip content="Expand sidebar" side="right" disabled={!collapsed}>
          <button
            type="button"
            onClick={onToggle}
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            aria-expanded={!collapsed}
            className={itemClass(false, collapsed) + (collapsed ? '' : ' w-full')}
          >
            <ToggleIcon size={18} aria-hidden className="shrink-0" />
            {!collapsed && <span>Collapse</span>}
          </button>
        </Tooltip>
      </div>
    </aside>
  );
}
