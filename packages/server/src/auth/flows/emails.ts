/** The account emails. Plain text: they must survive every mail client and the server log. */
import type { Mail } from '#server/mail/index.ts';

export function recoveryMail(to: string, code: string): Mail {
  return {
    to,
    subject: 'Recover access to your Watchdeck account',
    text: [
      'Hi,',
      '',
      'please recover access to your Watchdeck account by entering the following code:',
      '',
      code,
      '',
      'The code expires in 15 minutes. If you did not ask for this, you can ignore this email.',
    ].join('\n'),
  };
}

export function verificationMail(to: string, code: string): Mail {
  return {
    to,
    subject: 'Please verify your email address',
    text: [
      'Hi,',
      '',
      'please verify your Watchdeck account by entering the following code:',
      '',
      code,
      '',
      'The code expires in 15 minutes.',
    ].join('\n'),
  };
}
