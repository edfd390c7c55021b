import type { ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';
import { ignoreToastInteraction } from '#web/lib/toast.ts';

/** Modal sizes of seed 000 section 9. */
type ModalSize = 'very-small' | 'small' | 'medium' | 'large' | 'full';

const sizeClass: Record<ModalSize, string> = {
  'very-small': 'w-[calc(100vw-2rem)] max-w-sm',
  small: 'w-[calc(100vw-2rem)] max-w-lg',
  medium: 'w-[calc(100vw-2rem)] max-w-2xl',
  large: 'w-[calc(100vw-2rem)] max-w-5xl',
  full: 'w-[calc(100vw-4rem)] h-[calc(100vh-4rem)]',
};

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Read by screen readers under the title; visible when given. */
  description?: ReactNode;
  size?: ModalSize;
  children?: ReactNode;
  /** Buttons, right-aligned in a footer bar. */
  footer?: ReactNode;
  className?: string;
  /** Whether a click outside closes it (Escape always does). */
  dismissOnOutsideClick?: boolean;
}

/**
 * A modal dialog on Radix Dialog: focus is trapped inside, Escape closes it, focus returns to the
 * control that opened it, and the title labels it for assistive technology.
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  size = 'medium',
  children,
  footer,
  className,
  dismissOnOutsideClick = true,
}: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-gray-900/40 backdrop-blur-[1px]" />
        <Dialog.Content
          className={cn(
            'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100vh-4rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-xl focus:outline-none',
            sizeClass[size],
            className,
          )}
          data-size={size}
          onPointerDownOutside={(e) => {
            if (!dismissOnOutsideClick) e.preventDefault();
          }}
          onInteractOutside={ignoreToastInteraction}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="flex items-start justify-between gap-4 border-b border-gray-200 px-5 py-3.5">
            <div className="min-w-0">
              <Dialog.Title className="text-base font-semibold text-gray-900">{title}</Dialog.Title>
              {description && (
                <Dialog.Description className="mt-0.5 text-sm text-gray-500">{description}</Dialog.Description>
              )}
            </div>
            <Dialog.Close
              className="-mr-1.5 rounded-md p-1.5 text-gray-400 hover:bg-gray-100 hover:text-gray-600 focus-visible:outline-2 focus-visible:outline-blue-600"
              aria-label="Close"
            >
              <X size={18} aria-hidden />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-auto px-5 py-4">{children}</div>
          {footer && (
            <div className="flex items-center justify-end gap-2 rounded-b-lg border-t border-gray-200 bg-gray-50 px-5 py-3">
              {footer}
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
