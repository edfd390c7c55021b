import { useState } from 'react';
import { Copy } from 'lucide-react';
import type { AgentForm, GeneratedAgent } from '@watchdeck/core';
import { Modal } from '#web/components/ui/modal.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ShownOnce } from '#web/components/ui/shown-once.tsx';
import { copyToClipboard } from '#web/lib/clipboard.ts';
import { currentBackend } from '#web/lib/backend.ts';
import { installVariants } from './install-instructions.ts';

/**
 * After create: the installation instructions with the access token, shown this once (the
 * server keeps only its hash). Closing drops the token from memory.
 */
export function InstallDialog({
  agent,
  form,
  onClose,
}: {
  agent: GeneratedAgent;
  form: Pick<AgentForm, 'kubernetes' | 'pushTelemetry'>;
  onClose: () => void;
}) {
  const variants = installVariants({
    // hosted mode: the agent pushes to the organisation's backend, where its token lives
    upstream: currentBackend()?.url ?? window.location.origin,
    token: agent.access_token,
    name: agent.name,
    form,
  });
  const [tab, setTab] = useState(variants[0].id);
  const current = variants.find((v) => v.id === tab) ?? variants[0];
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Install agent ${agent.name}`}
      size="large"
      dismissOnOutsideClick={false}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="space-y-4" data-testid="install-instructions">
        <ShownOnce value={agent.access_token} />
        <div role="tablist" aria-label="Installation method" className="flex gap-1 border-b border-gray-200">
          {variants.map((v) => (
            <button
              key={v.id}
              role="tab"
              type="button"
              aria-selected={v.id === tab}
              onClick={() => setTab(v.id)}
              className={
                v.id === tab
                  ? '-mb-px border-b-2 border-blue-600 px-3 py-1.5 text-sm font-medium text-blue-700'
                  : 'px-3 py-1.5 text-sm text-gray-600 hover:text-gray-900'
              }
            >
              {v.label}
            </button>
          ))}
        </div>
        <div className="relative" role="tabpanel" aria-label={current.label}>
          <pre
            data-testid={`install-${current.id}`}
            className="max-h-80 overflow-auto rounded-md bg-gray-900 p-3 font-mono text-xs whitespace-pre text-gray-100"
          >
            {current.text}
          </pre>
          <Button
            size="sm"
            className="absolute top-2 right-2"
            aria-label={`Copy the ${current.label} instructions`}
            onClick={() => void copyToClipboard(current.text)}
          >
            <Copy size={14} aria-hidden /> Copy
          </Button>
        </div>
      </div>
    </Modal>
  );
}
