import { Link } from 'react-router';
import { useSelfServiceFlow } from '../api/use-flow.ts';
import { AuthCard, FlowPending, linkClass } from '../components/auth-card.tsx';
import { FlowForm } from '../components/flow-form.tsx';
import { FlowMessages, noticeText } from '../components/flow-messages.tsx';

export const RECOVERY_TITLE = 'Recover account';

/**
 * /recovery: an email address, then the code emailed to it. A right code signs the person in and
 * the server sends the browser on (422 browser_location_change_required) to /profile-settings to
 * choose a new password.
 */
export function RecoveryPage() {
  const { flow, failure, notice, submit } = useSelfServiceFlow('recovery');
  const sent = flow?.state === 'sent_email';
  return (
    <AuthCard
      title={RECOVERY_TITLE}
      subtitle={
        sent
          ? 'Enter the code from the email we sent you.'
          : 'Enter the email address of your account and we will send you a recovery code.'
      }
      footer={
        <span>
          Remembered it?{' '}
          <Link to="/login" className={linkClass}>
            Sign in
          </Link>
        </span>
      }
    >
      <FlowMessages messages={noticeText(notice)} className="mb-4" />
      {!flow ? (
        <FlowPending failure={failure} />
      ) : (
        <>
          <FlowMessages messages={flow.ui.messages} className="mb-4" />
          <FlowForm
            key={flow.state}
            flow={flow}
            groups={['code']}
            onSubmit={submit}
            autoFocus
            data-testid="recovery-form"
          />
        </>
      )}
    </AuthCard>
  );
}
