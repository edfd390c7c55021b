import { Link } from 'react-router';
import { isFlow } from '../api/flow-types.ts';
import { followUpOf, redirectOf } from '../api/redirects.ts';
import { useSelfServiceFlow } from '../api/use-flow.ts';
import { AuthCard, FlowPending, linkClass } from '../components/auth-card.tsx';
import { FlowForm } from '../components/flow-form.tsx';
import { FlowMessages, noticeText } from '../components/flow-messages.tsx';

export const REGISTRATION_TITLE = 'Create account';

/**
 * /registration: email, name and password make an account (a viewer), signed in at once; then the
 * verification page, since a code to prove the address is already on its way.
 */
export function RegistrationPage() {
  const { flow, failure, notice, submit, go } = useSelfServiceFlow('registration');

  const onSubmit = async (body: Record<string, unknown>) => {
    const res = await submit(body);
    if (!res || isFlow(res)) return;
    go(followUpOf(res.continue_with, 'show_verification_ui') ?? redirectOf(res.continue_with) ?? '/');
  };

  return (
    <AuthCard
      title={REGISTRATION_TITLE}
      footer={
        <span>
          Already have an account?{' '}
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
          <FlowForm flow={flow} groups={['password']} onSubmit={onSubmit} autoFocus data-testid="registration-form" />
        </>
      )}
    </AuthCard>
  );
}
