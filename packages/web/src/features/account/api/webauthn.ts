import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { inputNode } from './flow-nodes.ts';
import type { Flow, InputNode } from './flow-types.ts';

/**
 * The browser half of a security-key step. The flow carries the options the server generated
 * (`webauthn_login_options` when signing in, `webauthn_register_options` when adding a key); the
 * key's answer goes back in `webauthn_login` / `webauthn_register`. Only the "Use security key" /
 * "Add security key" buttons (name `method`) start a ceremony; removing a key does not.
 */
export async function webauthnAnswer(flow: Flow, button: InputNode): Promise<Record<string, string> | undefined> {
  if (button.group !== 'webauthn' || button.attributes.name !== 'method') return undefined;
  const login = inputNode(flow, 'webauthn_login_options')?.attributes.value;
  if (login) {
    const answer = await startAuthentication({ optionsJSON: JSON.parse(login) });
    return { webauthn_login: JSON.stringify(answer) };
  }
  const register = inputNode(flow, 'webauthn_register_options')?.attributes.value;
  if (register) {
    const answer = await startRegistration({ optionsJSON: JSON.parse(register) });
    return { webauthn_register: JSON.stringify(answer) };
  }
  return undefined;
}
