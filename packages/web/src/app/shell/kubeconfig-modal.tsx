import type { ReactNode } from 'react';
import { Copy, Download, ExternalLink } from 'lucide-react';
import { copyToClipboard } from '#web/lib/clipboard.ts';
import { currentBackend, routed } from '#web/lib/backend.ts';
import { ApiError } from '#web/lib/http.ts';
import { toastError } from '#web/lib/toast.ts';
import { KUBECONFIG_DOCS_URL } from '#web/lib/config.ts';
import { Modal } from '#web/components/ui/modal.tsx';
import { Button, buttonClass } from '#web/components/ui/button.tsx';

const KUBECONFIG_TITLE = 'Download and install kubeconfig';
const KUBECONFIG_FILE = 'watchdeck-kubeconfig.yaml';
const APPLY_COMMAND = `export KUBECONFIG=~/Downloads/${KUBECONFIG_FILE}\nkubectl get canaries -A`;

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-blue-50 text-xs font-semibold text-blue-700">
        {n}
      </span>
      <div className="min-w-0 flex-1 space-y-2">
        <p className="text-sm font-medium text-gray-900">{title}</p>
        {children}
      </div>
    </li>
  );
}

/**
 * Hosted mode: the file comes from the organisation's backend, which takes the bearer token only
 * (a plain link cannot send it), so it is fetched and saved through a temporary link.
 */
async function downloadFromBackend(): Promise<void> {
  const target = routed('/api/kubeconfig');
  const res = await fetch(target.url, { headers: target.headers });
  if (!res.ok) {
    const body = (await res.json().catch(() => undefined)) as { message?: string } | undefined;
    throw new ApiError(
      'http',
      body?.message ?? `The kubeconfig could not be downloaded (${res.status}).`,
      res.status,
      body,
    );
  }
  const url = URL.createObjectURL(await res.blob());
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = KUBECONFIG_FILE;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    // the click has handed the blob to the download; free it a moment later
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

/** Steps: download the file, apply it to kubectl, learn more. */
export function KubeconfigModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={KUBECONFIG_TITLE}
      size="small"
      footer={
        <Button onClick={() => onOpenChange(false)} variant="secondary">
          Close
        </Button>
      }
    >
      <ol className="space-y-5">
        <Step n={1} title="Download the kubeconfig file">
          <p className="text-sm text-gray-600">
            It gives kubectl access to the resources this console manages, with a new personal access token (listed on
            your profile page, where you can revoke it).
          </p>
          {currentBackend() ? (
            <Button variant="primary" size="sm" onClick={() => void downloadFromBackend().catch(toastError)}>
              <Download size={14} aria-hidden /> Download kubeconfig
            </Button>
          ) : (
            <a href="/api/kubeconfig" download={KUBECONFIG_FILE} className={buttonClass('primary', 'sm')}>
              <Download size={14} aria-hidden /> Download kubeconfig
            </a>
          )}
        </Step>
        <Step n={2} title="Apply it to kubectl">
          <p className="text-sm text-gray-600">Point kubectl at the downloaded file, then use it as usual:</p>
          <div className="relative">
            <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 pr-10 font-mono text-xs leading-relaxed text-slate-100">
              {APPLY_COMMAND}
            </pre>
            <button
              type="button"
              onClick={() => void copyToClipboard(APPLY_COMMAND)}
              aria-label="Copy commands"
              className="absolute top-2 right-2 rounded p-1 text-slate-400 hover:bg-white/10 hover:text-white"
            >
              <Copy size={14} aria-hidden />
            </button>
          </div>
        </Step>
        <Step n={3} title="Learn more">
          <a
            href={KUBECONFIG_DOCS_URL}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1 text-sm font-medium text-blue-600 hover:underline"
          >
            Learn more about kubeconfig access <ExternalLink size={13} aria-hidden />
          </a>
        </Step>
      </ol>
    </Modal>
  );
}
