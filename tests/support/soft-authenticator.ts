// A software WebAuthn authenticator for server tests: an ES256 (P-256) key pair per credential,
// 'none' attestation encoded in CBOR, and assertions signed over authenticatorData ||
// SHA-256(clientDataJSON), as a platform authenticator answers navigator.credentials. The
// browser part (clientDataJSON with the challenge and origin) is built here too, so tests can
// answer with a wrong origin, a wrong RP ID or an old counter on purpose.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

/** The CBOR (RFC 8949) subset attestation needs: unsigned/negative ints, byte and text strings, maps. */
function cbor(v: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof v === 'number') return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === 'string') {
    const t = Buffer.from(v, 'utf8');
    return Buffer.concat([head(3, t.length), t]);
  }
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), v]);
  if (v instanceof Map) {
    return Buffer.concat([head(5, v.size), ...[...v.entries()].flatMap(([k, x]) => [cbor(k), cbor(x)])]);
  }
  throw new Error(`cbor: unsupported ${typeof v}`);
}

export interface SoftCredential {
  id: Buffer;
  key: KeyObject;
  /** the signature counter the next assertion reports (tests may set it back) */
  counter: number;
  /** the user handle the authenticator keeps (discoverable credential) */
  userHandle: string;
}

export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  challenge?: string;
  type?: string;
  userVerified?: boolean;
}

function flags(uv: boolean, attested: boolean): number {
  return 0x01 | (uv ? 0x04 : 0) | (attested ? 0x40 : 0);
}

/** Answers registration options as navigator.credentials.create() would. */
export function createCredential(
  options: { challenge: string; rp: { id?: string }; user: { id: string } },
  origin: string,
  over: CeremonyOverrides = {},
): { credential: SoftCredential; response: Record<string, unknown> } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const cose = cbor(
    new Map<number, unknown>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  const id = randomBytes(16);
  const counterBytes = Buffer.alloc(4);
  const idLen = Buffer.alloc(2);
  idLen.writeUInt16BE(id.length);
  const authData = Buffer.concat([
    sha256(over.rpId ?? options.rp.id!),
    Buffer.from([flags(over.userVerified ?? true, true)]),
    counterBytes,
    Buffer.alloc(16), // AAGUID: none
    idLen,
    id,
    cose,
  ]);
  const clientDataJSON = Buffer.from(
    JSON.stringify({
      type: over.type ?? 'webauthn.create',
      challenge: over.challenge ?? options.challenge,
      origin: over.origin ?? origin,
      crossOrigin: false,
    }),
  );
  const attestationObject = cbor(
    new Map<string, unknown>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]),
  );
  return {
    credential: { id, key: privateKey, counter: 1, userHandle: options.user.id },
    response: {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
    },
  };
}

/** Answers authentication options as navigator.credentials.get() would, with this credential. */
export function getAssertion(
  credential: SoftCredential,
  options: { challenge: string; rpId?: string },
  origin: string,
  over: CeremonyOverrides = {},
): Record<string, unknown> {
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(credential.counter);
  credential.counter += 1;
  const authenticatorData = Buffer.concat([
    sha256(over.rpId ?? options.rpId!),
    Buffer.from([flags(over.userVerified ?? true, false)]),
    counter,
  ]);
  const clientDataJSON = Buffer.from(
    JSON.stringify({
      type: over.type ?? 'webauthn.get',
      challenge: over.challenge ?? options.challenge,
      origin: over.origin ?? origin,
      crossOrigin: false,
    }),
  );
  const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.key); // DER, as WebAuthn wants
  return {
    id: b64url(credential.id),
    rawId: b64url(credential.id),
    type: 'public-key',
    authenticatorAttachment: 'platform',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authenticatorData),
      signature: b64url(signature),
      userHandle: credential.userHandle,
    },
  };
}
