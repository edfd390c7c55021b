import { useSearchParams } from 'react-router';
import { CircleAlert } from 'lucide-react';
import { ErrorLayout } from './error-layout.tsx';

const BAD_SESSION_MESSAGE =
  'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.';
const UNKNOWN_ERROR_MESSAGE = 'Unknown error';

/** /error?error_code=...: BAD_SESSION has its own message, anything else is 'Unknown error'. */
export function ErrorPage() {
  const [params] = useSearchParams();
  const message = params.get('error_code') === 'BAD_SESSION' ? BAD_SESSION_MESSAGE : UNKNOWN_ERROR_MESSAGE;
  return <ErrorLayout icon={<CircleAlert size={24} aria-hidden />} title={message} />;
}
