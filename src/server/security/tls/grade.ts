// The TLS grade, modelled on SSL Labs' rating guide (docs/features/ssl-tls-monitoring.md has the
// rubric in words). Pure: a probe in, a letter out. A score from protocols (30 %), key (30 %)
// and cipher strength (40 %) gives a letter; caps then lower it for known weaknesses; trust
// problems (untrusted chain, expired, wrong host) turn it into T; HSTS of 180 days or more
// lifts an uncapped A to A+.
import type { TlsProbe } from './probe.ts';

export type Grade = 'A+' | 'A' | 'A-' | 'B' | 'C' | 'D' | 'E' | 'F' | 'T';

/** Best first; a cap keeps the worse of two letters. */
const ORDER: readonly Grade[] = ['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F'];

export interface GradeResult {
  /** null when no handshake was possible */
  grade: Grade | null;
  /** The letter if trust problems were fixed (what SSL Labs shows beside a T) */
  gradeIfTrusted: Grade | null;
  score: number;
  /** Every cap that applies, in words (the lowest one sets the letter) */
  caps: string[];
}

/** HSTS max-age that earns A+ (SSL Labs: at least six months) */
export const HSTS_A_PLUS_SECONDS = 180 * 86_400;

const PROTOCOL_SCORE = { TLSv1: 90, 'TLSv1.1': 95, 'TLSv1.2': 100, 'TLSv1.3': 100 } as const;

/** Key strength as RSA-equivalent bits: EC 256 ≈ RSA 3072, EC 384 ≈ RSA 7680. */
function keyScore(type: string, bits: number | null): number {
  const rsaBits =
    type === 'RSA'
      ? (bits ?? 0)
      : type === 'EC' || type === 'Ed25519'
        ? (bits ?? 0) >= 384
          ? 7680
          : (bits ?? 0) >= 256
            ? 3072
            : 1024
        : 2048;
  if (rsaBits < 512) return 20;
  if (rsaBits < 1024) return 40;
  if (rsaBits < 2048) return 80;
  if (rsaBits < 4096) return 90;
  return 100;
}

/** A suite's symmetric strength from its OpenSSL or IANA name. */
export function cipherBits(name: string): number {
  const n = name.toUpperCase();
  if (n.includes('NULL')) return 0;
  // The cipher's own size, not the MAC's (AES128-GCM-SHA256 is 128 bits).
  if (/(AES|CAMELLIA|ARIA)_?256|CHACHA20/.test(n)) return 256;
  return 128;
}

function cipherStrengthScore(bits: number): number {
  if (bits === 0) return 0;
  if (bits < 128) return 20;
  if (bits < 256) return 80;
  return 100;
}

function letterOf(score: number): Grade {
  if (score >= 80) return 'A';
  if (score >= 65) return 'B';
  if (score >= 50) return 'C';
  if (score >= 35) return 'D';
  if (score >= 20) return 'E';
  return 'F';
}

const worse = (a: Grade, b: Grade): Grade => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);

/** The seconds of a Strict-Transport-Security header's max-age, 0 when absent or malformed. */
export function hstsMaxAge(header: string | null): number {
  const m = /(?:^|;)\s*max-age\s*=\s*"?(\d{1,12})"?\s*(?:;|$)/i.exec(header ?? '');
  return m ? Number(m[1]) : 0;
}

export function gradeTls(p: TlsProbe, now: number): GradeResult {
  const offered = (Object.keys(p.protocols) as Array<keyof typeof PROTOCOL_SCORE>).filter((v) => p.protocols[v]);
  if (p.error !== null || !p.cert || offered.length === 0) return { grade: null, gradeIfTrusted: null, score: 0, caps: [] };
  const protocolScores = offered.map((v) => PROTOCOL_SCORE[v]);
  const protocol = (Math.max(...protocolScores) + Math.min(...protocolScores)) / 2;
  const key = keyScore(p.cert.keyType, p.cert.keyBits);
  const bits = p.ciphersSeen.map(cipherBits);
  const cipher = bits.length ? (cipherStrengthScore(Math.max(...bits)) + cipherStrengthScore(Math.min(...bits))) / 2 : 0;
  const score = Math.round(0.3 * protocol + 0.3 * key + 0.4 * cipher);

  let grade = letterOf(score);
  const caps: string[] = [];
  const cap = (to: Grade, why: string) => {
    grade = worse(grade, to);
    caps.push(why);
  };
  const rsaBits = p.cert.keyType === 'RSA' ? (p.cert.keyBits ?? 0) : null;
  if (p.weakCiphers.null) cap('F', 'NULL cipher suites (no encryption) accepted');
  if (p.weakCiphers.anonymous) cap('F', 'Anonymous cipher suites (no authentication) accepted');
  if (rsaBits !== null && rsaBits < 1024) cap('F', `RSA key of ${rsaBits} bits`);
  if (!p.protocols['TLSv1.2'] && !p.protocols['TLSv1.3']) cap('C', 'Neither TLS 1.2 nor TLS 1.3 offered');
  if (/sha1|md5/i.test(p.cert.signatureAlgorithm)) cap('C', `Certificate signed with ${p.cert.signatureAlgorithm}`);
  if (p.protocols.TLSv1 || p.protocols['TLSv1.1']) cap('B', 'TLS 1.0 or 1.1 offered');
  if (rsaBits !== null && rsaBits >= 1024 && rsaBits < 2048) cap('B', `RSA key of ${rsaBits} bits (under 2048)`);
  if (!p.protocols['TLSv1.3']) cap('A-', 'TLS 1.3 not offered');
  if (grade === 'A' && hstsMaxAge(p.hsts) >= HSTS_A_PLUS_SECONDS) grade = 'A+';

  const untrusted = !p.trusted || p.cert.expiresAt <= now || !p.hostnameMatch;
  return { grade: untrusted ? 'T' : grade, gradeIfTrusted: grade, score, caps };
}
