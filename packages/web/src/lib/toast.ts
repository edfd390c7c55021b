import { toast } from 'sonner';
import { errorMessage } from './http.ts';

/** General toasts last 5 seconds (seed 000 section 9). */
export const TOAST_DURATION_MS = 5000;

/** Shows a failure toast with the message the error catalogue prescribes; returns that message. */
export function toastError(err: unknown): string {
  const message = errorMessage(err);
  toast.error(message, { duration: TOAST_DURATION_MS });
  return message;
}

export function toastSuccess(message: string): void {
  toast.success(message, { duration: TOAST_DURATION_MS });
}

/**
 * A failure with a fixed message of the error catalogue (e.g. 'Evidence delete failed'), the
 * server's reason underneath so the person learns why.
 */
export function toastFailure(message: string, err: unknown): void {
  toast.error(message, { description: err ? errorMessage(err) : undefined, duration: TOAST_DURATION_MS });
}

/**
 * For a modal's onInteractOutside: a click on a toast (its link, its close button) is not a click
 * away from the modal, so the modal stays open and the toast's own action runs.
 */
export function ignoreToastInteraction(e: { target: EventTarget | null; preventDefault(): void }): void {
  if (e.target instanceof Element && e.target.closest('[data-sonner-toaster]')) e.preventDefault();
}
