import { toast } from 'sonner';
import { TOAST_DURATION_MS } from './toast.ts';

const CLIPBOARD_MESSAGES = {
  unavailable: 'Clipboard not available',
  failed: 'Failed to copy to clipboard',
  copied: 'Copied to clipboard',
} as const;

/**
 * Copies text and says so in a toast. `successMessage` lets callers use their own wording
 * (e.g. 'Copied {id} to clipboard', 'Link copied to clipboard'). Resolves to whether it worked.
 */
export async function copyToClipboard(
  text: string,
  successMessage: string = CLIPBOARD_MESSAGES.copied,
): Promise<boolean> {
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (!clipboard?.writeText) {
    toast.error(CLIPBOARD_MESSAGES.unavailable, { duration: TOAST_DURATION_MS });
    return false;
  }
  try {
    await clipboard.writeText(text);
    toast.success(successMessage, { duration: TOAST_DURATION_MS });
    return true;
  } catch {
    toast.error(CLIPBOARD_MESSAGES.failed, { duration: TOAST_DURATION_MS });
    return false;
  }
}
