import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { buttonClass } from '#web/components/ui/button.tsx';
import { PageTitle } from '#web/components/ui/page-title.tsx';
import { useWhoami } from '#web/lib/session.tsx';
import type { Flow } from '../api/flow-types.ts';
import { useSelfServiceFlow } from '../api/use-flow.ts';
import { AccessTokensSection } from '../components/access-tokens-section.tsx';
import { FlowPending } from '../components/auth-card.tsx';
import { FlowMessages, noticeText } from '../components/flow-messages.tsx';
import {
  LookupSecretSection,
  PasswordSection,
  ProfileSection,
  SETTINGS_SECTIONS,
  SocialSignInSection,
  TotpSection,
  WebauthnSection,
  type SettingsGroup,
} from '../components/settings-sections.tsx';

/** Messages after a change clear after 10 seconds (seed 002 section 9). */
const PROFILE_MESSAGE_MS = 10_000;

/** /profile-settings, inside the shell: the signed-in person's profile, password and factors. */
export function ProfileSettingsPage() {
  const whoami = useWhoami();
  const navigate = useNavigate();
  const location = useLocation();
  // back where the user came from in the app; home when the page was opened directly
  const goBack = () => (location.key === 'default' ? navigate('/') : navigate(-1));
  return (
    <div className="mx-auto max-w-3xl space-y-6 p-6">
      <PageTitle documentTitle={SETTINGS_SECTIONS.profile}>
        <span className="truncate text-base font-semibold text-gray-900">{SETTINGS_SECTIONS.profile}</span>
      </PageTitle>
      <button type="button" onClick={() => void goBack()} className={buttonClass('secondary', 'sm')}>
        <ArrowLeft size={14} aria-hidden /> Go back
      </button>
      {whoami.authMode === 'none' ? (
        <FlowMessages
          messages={noticeText(
            'Sign-in is switched off on this server (AUTH=none), so there is no account to manage.',
            'info',
          )}
        />
      ) : whoami.authMode === 'oidc' ? (
        <>
          <FlowMessages
            messages={noticeText(
              'Your name, email address, password and second factors are managed by your sign-in provider.',
              'info',
            )}
          />
          <AccessTokensSection />
        </>
      ) : (
        <>
          <SettingsFlow />
          <AccessTokensSection />
        </>
      )}
    </div>
  );
}

function SettingsFlow() {
  const { flow, failure, notice, submit } = useSelfServiceFlow('settings');
  const [lastGroup, setLastGroup] = useState<SettingsGroup | null>(null);
  // the flow whose messages have been on screen long enough
  const [expired, setExpired] = useState<Flow | null>(null);
  useEffect(() => {
    if (!flow?.ui.messages.length) return;
    const t = setTimeout(() => setExpired(flow), PROFILE_MESSAGE_MS);
    return () => clearTimeout(t);
  }, [flow]);

  if (!flow) return <FlowPending failure={failure} />;

  const messages = expired === flow ? [] : flow.ui.messages;
  const onSubmit = async (group: SettingsGroup, body: Record<string, unknown>) => {
    setLastGroup(group);
    await submit(body);
  };
  const props = (group: SettingsGroup) => ({ flow, onSubmit, messages: lastGroup === group ? messages : [] });

  return (
    <>
      <FlowMessages messages={noticeText(notice)} />
      {/* messages not caused by a section's change (e.g. on arrival) */}
      {!lastGroup && <FlowMessages messages={messages} />}
      <ProfileSection {...props('profile')} />
      <PasswordSection {...props('password')} />
      <SocialSignInSection {...props('oidc')} />
      <LookupSecretSection {...props('lookup_secret')} />
      <TotpSection {...props('totp')} />
      <WebauthnSection {...props('webauthn')} />
    </>
  );
}
