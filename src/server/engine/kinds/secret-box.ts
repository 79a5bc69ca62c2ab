// Monitors' credentials at rest (database and mail passwords): each field a kind names in
// `secretFields` is stored sealed with AES-256-GCM, and opened only by the engine just before a
// check (and for a probe's assignments, sent over its authenticated channel). The key comes from
// MONITOR_SECRETS_KEY, else from SESSION_SECRET under its own HKDF label, so it is never the key
// that signs sessions or seals two-factor secrets.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { STORED_SECRET } from '../../../lib/monitor-kinds.ts';

const SEALED = 'sealed:v1:';
const LABEL = 'statuswatch monitor credentials v1';
/** The check's error when a stored credential does not open (the key changed): the user's way out. */
export const UNREADABLE_SECRET =
  'The saved password cannot be decrypted with this server’s MONITOR_SECRETS_KEY (was the key changed?). Enter the password again.';

export type SecretsKey = Buffer;

const keys = new Map<string, SecretsKey>();
export function monitorSecretsKey(config: { monitorSecretsKey?: string; sessionSecret: string }): SecretsKey {
  const material = config.monitorSecretsKey ? `key:${config.monitorSecretsKey}` : `session:${config.sessionSecret}`;
  let key = keys.get(material);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', material, '', LABEL, 32));
    keys.set(material, key);
  }
  return key;
}

export const isSealed = (v: unknown): v is string => typeof v === 'string' && v.startsWith(SEALED);

export function seal(key: SecretsKey, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return SEALED + [iv, c.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** The plain text, or null when it does not open with this key (another key, or tampered). */
export function open(key: SecretsKey, sealed: string): string | null {
  try {
    const [iv, tag, body] = sealed
      .slice(SEALED.length)
      .split('.')
      .map((p) => Buffer.from(p, 'base64url'));
    const d = createDecipheriv('aes-256-gcm', key, iv);
    d.setAuthTag(tag);
    return Buffer.concat([d.update(body), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * The config to store: each secret field sealed. The stored value comes back through the kind's
 * validation when an update leaves the field out (or sends the view's mask back): kept as it is.
 */
export function sealSecrets(
  fields: readonly string[],
  config: Record<string, unknown>,
  prev: Record<string, unknown>,
  key: SecretsKey,
): Record<string, unknown> {
  const out = { ...config };
  for (const f of fields) {
    const v = out[f];
    if (v === STORED_SECRET || (isSealed(v) && v === prev[f])) out[f] = prev[f] ?? null;
    else if (v === undefined || v === null || v === '') out[f] = null;
    else out[f] = seal(key, String(v));
  }
  return out;
}

/** The key of a process's settings; null when they name no secret (an engine built by a bench). */
export function hostSecretsKey(config: { monitorSecretsKey?: string; sessionSecret?: string }): SecretsKey | null {
  return config.monitorSecretsKey || config.sessionSecret
    ? monitorSecretsKey({ monitorSecretsKey: config.monitorSecretsKey, sessionSecret: config.sessionSecret ?? '' })
    : null;
}

/** The config a checker uses: every sealed value opened; `error` when one does not open. */
export function openSecrets<C extends object>(config: C, key: SecretsKey | null): { config: C; error: string | null } {
  let out: Record<string, unknown> | null = null;
  for (const [f, v] of Object.entries(config)) {
    if (!isSealed(v)) continue;
    const plain = key ? open(key, v) : null;
    if (plain === null) return { config, error: UNREADABLE_SECRET };
    out ??= { ...(config as Record<string, unknown>) };
    out[f] = plain;
  }
  return { config: (out ?? config) as C, error: null };
}

/** The view of a secret field: the mask when one is stored, never the value. */
export const presentSecret = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : STORED_SECRET);
