import { useEffect, useRef, useState, type ReactNode } from 'react';
import * as Popover from '@radix-ui/react-popover';

/**
 * A card that opens when the pointer rests on (or keyboard focus reaches) its trigger for
 * `openDelay` ms and closes shortly after both are left. Built on Radix Popover.
 */
export function HoverCard({
  trigger,
  children,
  openDelay = 1000,
  closeDelay = 150,
}: {
  trigger: ReactNode;
  children: ReactNode;
  openDelay?: number;
  closeDelay?: number;
}) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const later = (next: boolean, ms: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(next), ms);
  };
  const handlers = {
    onPointerEnter: () => later(true, openDelay),
    onPointerLeave: () => later(false, closeDelay),
    onFocus: () => later(true, openDelay),
    onBlur: () => later(false, closeDelay),
  };
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Anchor asChild>
        <span {...handlers} className="inline-flex min-w-0">
          {trigger}
        </span>
      </Popover.Anchor>
      <Popover.Portal>
        <Popover.Content
          side="left"
          align="start"
          sideOffset={8}
          collisionPadding={8}
          onOpenAutoFocus={(e) => e.preventDefault()}
          onPointerEnter={() => clearTimeout(timer.current)}
          onPointerLeave={() => later(false, closeDelay)}
          className="z-50 w-72 rounded-lg border border-gray-200 bg-white p-3 text-sm shadow-lg"
        >
          {children}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
