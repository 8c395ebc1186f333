// Secrets at rest (AI keys, bot tokens, webhook signing secrets) are sealed with AES-256-GCM under
// the master key. The sealed form is "v1:<iv>:<tag>:<ciphertext>", all base64url.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The master key must be 32 bytes');
  }

  seal(plaintext: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Not a sealed secret');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** "sk-a****wxyz": first 4 + **** + last 4; all "****" when shorter than 12 characters. */
export function maskSecret(secret: string): string {
  if (secret.length < 12) return '****';
  return `${secret.slice(0, 4)}****${secret.slice(-4)}`;
}

/**
 * The master key from INSIGHTS_MASTER_KEY, or else one generated into the data dir (0600) on first
 * start. Returns whether it was generated, so the caller can warn.
 */
export function loadOrCreateMasterKey(configured: Buffer | undefined, dataDir: string): { key: Buffer; generated: boolean } {
  if (configured) return { key: configured, generated: false };
  const file = path.join(dataDir, 'master.key');
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return { key, generated: false };
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = crypto.randomBytes(32);
  fs.writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  return { key, generated: true };
}

// The one-shot form: no Hash object per call (an API token is hashed on every request, docs/performance.md §16).
export const sha256 = (text: string): string => crypto.hash('sha256', text, 'hex');
