import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useRouteExists } from '#web/lib/route-registry.tsx';

/**
 * A link to `to` when that screen exists in this build, else its content as plain text
 * (`textClassName`): resource names stay readable without leading to "Page not found".
 */
export function RouteLink({
  to,
  className,
  textClassName,
  children,
}: {
  to: string | undefined;
  className?: string;
  textClassName?: string;
  children: ReactNode;
}) {
  const exists = useRouteExists();
  if (to && exists(to))
    return (
      <Link to={to} className={className}>
        {children}
      </Link>
    );
  return <span className={textClassName}>{children}</span>;
}
