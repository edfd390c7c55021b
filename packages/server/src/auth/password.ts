import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane). Kept explicit so a library default
 * change cannot silently weaken stored hashes; verify() reads the parameters from the hash itself,
 * so raising them later still verifies old hashes.
 */
const OPTIONS = { algorithm: 2 as Algorithm /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false; // malformed hash in the database: treat as a mismatch, never as a crash
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the same time as a real verification when the identifier is unknown, so response times
 * do not reveal which email addresses have accounts.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('watchdeck-dummy-password');
  await verifyPassword(await dummy, password);
}

/**
 * The ~49,000 most common passwords of public breach lists (zxcvbn-ts' common dictionary, MIT,
 * all lower case). Built on first use: a Set answers in constant time and costs a few MB.
 */
let common: Set<string> | undefined;
function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.toLowerCase());
}

// \s covers Unicode spaces (NBSP, ideographic space, ...); \p{C} control, format and unassigned
// code points: a password of only these looks empty and is easily lost or mistyped
const BLANK = /^[\s\p{C}]*$/u;

/** Returns the reason a new password is refused, or undefined when it is acceptable. */
export function passwordPolicyViolation(password: string, identifier?: string): string | undefined {
  if (BLANK.test(password)) {
    return 'The password can not be used because it consists only of spaces or control characters.';
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long, but got ${password.length}.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`;
  }
  if (identifier) {
    const id = identifier.toLowerCase();
    const pw = password.toLowerCase();
    const local = id.split('@')[0];
    if (pw === id || (local.length >= 4 && pw.includes(local))) {
      return 'The password can not be used because it is too similar to the identifier.';
    }
  }
  // Kratos' wording for a password found in breach lists
  if (isCommonPassword(password)) {
    return 'The password can not be used because it is one of the most common passwords and is easily guessed.';
  }
  return undefined;
}
