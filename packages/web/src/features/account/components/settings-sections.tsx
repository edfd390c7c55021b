import type { ReactNode } from 'react';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { Copy, KeyRound } from 'lucide-react';
import { Button, type ButtonVariant } from '#web/components/ui/button.tsx';
import { copyToClipboard } from '#web/lib/clipboard.ts';
import { hasGroup, inputNode, textNode } from '../api/flow-nodes.ts';
import { isInputNode, type Flow, type InputNode, type UiGroup, type UiText } from '../api/flow-types.ts';
import { FlowForm } from './flow-form.tsx';
import { FlowMessages } from './flow-messages.tsx';
import { QrCode } from './qr-code.tsx';

/** The section titles of /profile-settings (seed 002 section 2.19). */
export const SETTINGS_SECTIONS = {
  profile: 'Profile Settings',
  password: 'Change Password',
  oidc: 'Manage Social Sign In',
  lookup_secret: '2FA backup recovery codes',
  totp: '2FA TOTP authenticator',
  webauthn: 'Hardware tokens and biometrics',
} as const satisfies Partial<Record<UiGroup, string>>;

export type SettingsGroup = keyof typeof SETTINGS_SECTIONS;

export interface SectionProps {
  flow: Flow;
  /** the flow's messages when this section made the last change */
  messages: UiText[];
  onSubmit: (group: SettingsGroup, body: Record<string, unknown>) => Promise<unknown>;
}

/** Removing things is red, the section's main action blue. */
const variantOf = (n: InputNode): ButtonVariant => {
  if (/remove|unlink|disable/.test(n.attributes.name)) return 'danger';
  return n.attributes.name === 'method' || n.attributes.name.endsWith('_confirm') ? 'primary' : 'secondary';
};

function Section({
  group,
  description,
  children,
}: {
  group: SettingsGroup;
  description: ReactNode;
  children: ReactNode;
}) {
  const id = `settings-${group}`;
  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid={id}
      className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm"
    >
      <h2 id={`${id}-title`} className="text-base font-semibold text-gray-900">
        {SETTINGS_SECTIONS[group]}
      </h2>
      <p className="mt-1 mb-4 text-sm text-gray-500">{description}</p>
      {children}
    </section>
  );
}

export function ProfileSection({ flow, messages, onSubmit }: SectionProps) {
  return (
    <Section group="profile" description="Your name and the email address you sign in with.">
      <FlowMessages messages={messages} className="mb-4" />
      <FlowForm flow={flow} groups={['profile']} onSubmit={(b) => onSubmit('profile', b)} className="max-w-md" />
    </Section>
  );
}

export function PasswordSection({ flow, messages, onSubmit }: SectionProps) {
  return (
    <Section group="password" description="Choose a new password. Your other sessions are signed out.">
      <FlowMessages messages={messages} className="mb-4" />
      <FlowForm flow={flow} groups={['password']} onSubmit={(b) => onSubmit('password', b)} className="max-w-md" />
    </Section>
  );
}

export function SocialSignInSection({ flow, messages, onSubmit }: SectionProps) {
  const available = hasGroup(flow, 'oidc');
  return (
    <Section group="oidc" description="Link or unlink accounts of external sign-in providers.">
      <FlowMessages messages={messages} className="mb-4" />
      {available ? (
        <FlowForm flow={flow} groups={['oidc']} onSubmit={(b) => onSubmit('oidc', b)} buttonVariant={variantOf} />
      ) : (
        <p className="text-sm text-gray-600" data-testid="social-sign-in-none">
          No social sign-in providers are configured on this server.
        </p>
      )}
    </Section>
  );
}

export function LookupSecretSection({ flow, messages, onSubmit }: SectionProps) {
  const codesNode = textNode(flow, 'lookup_secret_codes');
  const secrets = (codesNode?.attributes.text.context?.secrets as string[] | undefined) ?? [];
  const remaining = textNode(flow, 'lookup_secret_remaining')?.attributes.text.text;
  return (
    <Section
      group="lookup_secret"
      description="One-time codes that stand in for your second factor when your device is not at hand."
    >
      <FlowMessages messages={messages} className="mb-4" />
      {secrets.length > 0 && (
        <div className="mb-4">
          <ul
            className="grid grid-cols-2 gap-2 rounded-md bg-gray-50 p-4 font-mono text-sm text-gray-800 sm:grid-cols-3"
            data-testid="lookup-codes"
          >
            {secrets.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
          <Button size="sm" className="mt-2" onClick={() => void copyToClipboard(secrets.join('\n'))}>
            <Copy size={14} aria-hidden /> Copy codes
          </Button>
        </div>
      )}
      {remaining && <p className="mb-4 text-sm text-gray-700">{remaining}</p>}
      <FlowForm
        flow={flow}
        groups={['lookup_secret']}
        onSubmit={(b) => onSubmit('lookup_secret', b)}
        buttonVariant={variantOf}
      />
    </Section>
  );
}

export function TotpSection({ flow, messages, onSubmit }: SectionProps) {
  const linked = !!inputNode(flow, 'totp_unlink');
  const url = textNode(flow, 'totp_url')?.attributes.text.text;
  const secret = textNode(flow, 'totp_secret_key')?.attributes.text.text;
  return (
    <Section group="totp" description="Codes from an authenticator app on your phone as a second factor.">
      <FlowMessages messages={messages} className="mb-4" />
      {linked ? (
        <p className="mb-4 text-sm text-gray-700" data-testid="totp-linked">
          An authenticator app is linked to your account.
        </p>
      ) : (
        url && (
          <div className="mb-4 flex flex-wrap items-start gap-6">
            <QrCode value={url} label="Authenticator app QR code" />
            <div className="min-w-0 flex-1 space-y-2 text-sm text-gray-600">
              <p>Scan the QR code with your authenticator app, then enter the code it shows.</p>
              {secret && (
                <p>
                  Can&apos;t scan it? Enter this secret instead:
                  <code
                    className="mt-1 block rounded bg-gray-50 px-2 py-1 font-mono text-sm break-all text-gray-900"
                    data-testid="totp-secret"
                  >
                    {secret}
                  </code>
                </p>
              )}
            </div>
          </div>
        )
      )}
      <FlowForm
        flow={flow}
        groups={['totp']}
        onSubmit={(b) => onSubmit('totp', b)}
        buttonVariant={variantOf}
        className="max-w-md"
      />
    </Section>
  );
}

/** The name a key was given, from its remove button's label (`Remove security key "name"`). */
const keyName = (n: InputNode) => /"(.*)"$/.exec(n.meta.label?.text ?? '')?.[1] ?? n.attributes.value ?? '';
const isRemoval = (n: InputNode) => n.attributes.name === 'webauthn_remove';
const notRemoval = (n: InputNode) => !isRemoval(n);

export function WebauthnSection({ flow, messages, onSubmit }: SectionProps) {
  const keys = flow.ui.nodes.filter((n): n is InputNode => isInputNode(n) && isRemoval(n));
  const submit = (b: Record<string, unknown>) => onSubmit('webauthn', b);
  return (
    <Section
      group="webauthn"
      description="Security keys, or your device's fingerprint or face sign-in, as a second factor."
    >
      <FlowMessages messages={messages} className="mb-4" />
      {keys.length > 0 && (
        <ul className="mb-4 divide-y divide-gray-100 rounded-md border border-gray-200" data-testid="security-keys">
          {keys.map((k) => (
            <li key={k.attributes.value} className="flex items-center justify-between gap-3 px-3 py-2">
              <span className="flex min-w-0 items-center gap-2 text-sm text-gray-800">
                <KeyRound size={15} className="shrink-0 text-gray-400" aria-hidden />
                <span className="truncate">{keyName(k) || 'Security key'}</span>
              </span>
              <FlowForm
                flow={flow}
                groups={['webauthn']}
                include={(n) => n === k}
                buttonText={() => 'Remove'}
                onSubmit={submit}
                buttonVariant={() => 'danger'}
              />
            </li>
          ))}
        </ul>
      )}
      {!browserSupportsWebAuthn() && (
        <p className="mb-4 text-sm text-amber-700">This browser does not support security keys.</p>
      )}
      <FlowForm
        flow={flow}
        groups={['webauthn']}
        include={notRemoval}
        onSubmit={submit}
        buttonVariant={variantOf}
        className="max-w-md"
      />
    </Section>
  );
}
