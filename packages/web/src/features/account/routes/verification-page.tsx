import { Link } from 'react-router';
import { buttonClass } from '#web/components/ui/button.tsx';
import { useSelfServiceFlow } from '../api/use-flow.ts';
import { AuthCard, FlowPending, linkClass } from '../components/auth-card.tsx';
import { FlowForm } from '../components/flow-form.tsx';
import { FlowMessages, noticeText } from '../components/flow-messages.tsx';

export const VERIFICATION_TITLE = 'Verify your account';

/**
 * /verification: proves an email address with a code sent to it. Reached after registration (the
 * code is already on its way) or directly, signed in or not.
 */
export function VerificationPage() {
  const { flow, failure, notice, submit } = useSelfServiceFlow('verification');
  const done = flow?.state === 'passed_challenge';
  return (
    <AuthCard
      title={VERIFICATION_TITLE}
      subtitle={
        done
          ? undefined
          : flow?.state === 'sent_email'
            ? 'Enter the code from the email we sent you.'
            : 'Enter your email address and we will send you a verification code.'
      }
      footer={
        !done && (
          <Link to="/login" className={linkClass}>
            Sign in
          </Link>
        )
      }
    >
      <FlowMessages messages={noticeText(notice)} className="mb-4" />
      {!flow ? (
        <FlowPending failure={failure} />
      ) : (
        <>
          <FlowMessages messages={flow.ui.messages} className="mb-4" />
          {done ? (
            // a full load: the app behind it reads the session afresh
            <a href={flow.return_to ?? '/'} className={buttonClass('primary')}>
              Continue
            </a>
          ) : (
            <FlowForm
              key={flow.state}
              flow={flow}
              groups={['code']}
              onSubmit={submit}
              autoFocus
              data-testid="verification-form"
            />
          )}
        </>
      )}
    </AuthCard>
  );
}
