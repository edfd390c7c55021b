import type { ComponentProps, ReactNode } from 'react';
import * as Menu from '@radix-ui/react-dropdown-menu';
import { cn } from '#web/lib/cn.ts';

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;

export function DropdownMenuContent({ className, children, ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={6}
        collisionPadding={8}
        className={cn('z-50 min-w-48 rounded-md border border-gray-200 bg-white p-1 text-sm shadow-lg', className)}
        {...props}
      >
        {children}
      </Menu.Content>
    </Menu.Portal>
  );
}

export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof Menu.Item>) {
  return (
    <Menu.Item
      className={cn(
        'flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-gray-700 outline-none select-none data-[disabled]:cursor-default data-[disabled]:opacity-50 data-[highlighted]:bg-gray-100 data-[highlighted]:text-gray-900',
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Menu.Label>) {
  return <Menu.Label className={cn('px-2 py-1.5 text-xs font-medium text-gray-500', className)} {...props} />;
}

export function DropdownMenuSeparator() {
  return <Menu.Separator className="my-1 h-px bg-gray-200" />;
}

/** A non-interactive row of text (versions, hints). */
export function DropdownMenuText({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('px-2 py-1 text-xs text-gray-500', className)}>{children}</div>;
}
