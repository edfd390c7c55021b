import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for connection secrets: AES-256-GCM with a key derived from
 * WATCHDECK_SECRET_KEY. Stored form: `enc:v1:<iv>:<tag>:<ciphertext>` (base64url pieces), so a
 * value can be recognised as encrypted and the scheme can change later without guessing.
 */
const PREFIX = 'enc:v1:';

export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (!secret) throw new Error('a secret key is required to encrypt connection secrets');
    // A passphrase of any length becomes a 32-byte key.
    this.key = createHash('sha256').update(secret, 'utf8').digest();
  }

  static isEncrypted(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith(PREFIX);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return PREFIX + [iv, tag, data].map((b) => b.toString('base64url')).join(':');
  }

  decrypt(stored: string): string {
    if (!SecretBox.isEncrypted(stored)) return stored;
    const [iv, tag, data] = stored
      .slice(PREFIX.length)
      .split(':')
      .map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }
}
