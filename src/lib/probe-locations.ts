// Probe locations (issue 27), the rules shared by the server and the console: what a slug may be,
// the built-in location, when a probe counts as online, and which probe versions are too old.
// Pure; imports nothing.

/** The built-in engine's location: on every install, public, never stored, deleted or given tokens. */
export const LOCAL_LOCATION = { id: 'local', slug: 'local', name: 'Built-in engine' } as const;

export const SLUG_MIN = 2;
export const SLUG_MAX = 32;
export const LOCATION_NAME_MAX = 100;
/** lower-case letters, digits and hyphens; no hyphen first or last, so `eu-west` but not `-eu` */
const SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** Slugs a location may not take: `local` names the built-in engine in every company's list. */
export const RESERVED_SLUGS: readonly string[] = [LOCAL_LOCATION.slug];

/** Why a slug is refused, in words for the form, or null when it is fine. */
export function slugProblem(slug: string): string | null {
  if (slug.length < SLUG_MIN || slug.length > SLUG_MAX) return `A slug has ${SLUG_MIN} to ${SLUG_MAX} characters.`;
  if (!SLUG.test(slug)) return 'A slug has lower-case letters, digits and hyphens, and starts and ends with a letter or digit.';
  if (RESERVED_SLUGS.includes(slug)) return `"${slug}" is reserved for the built-in engine.`;
  return null;
}

/**
 * A probe is online while its latest call is at most this old. Probes call at least every 30 s
 * (hello now, assignments and results later), so three missed calls mark one offline.
 */
export const PROBE_ONLINE_MS = 90_000;

export function isProbeOnline(lastSeenAt: number, now: number): boolean {
  return now - lastSeenAt <= PROBE_ONLINE_MS;
}

/**
 * Capabilities a probe reports at hello beyond the network kinds: `browser` when its machine has
 * Chromium (CHROMIUM_PATH) and browser checks are not switched off (PROBE_BROWSER_CHECKS=false).
 */
export const PROBE_CAPABILITIES = ['browser'] as const;
export type ProbeCapability = (typeof PROBE_CAPABILITIES)[number];

/**
 * A location takes browser monitors while one of its probes that runs browsers was seen within
 * this time: a day, so a probe restarting or a short outage does not make saving a monitor fail.
 */
export const BROWSER_PROBE_SEEN_MS = 24 * 3600_000;

/** The oldest probe version the platform serves; an older probe is told to upgrade. */
export const PROBE_MIN_VERSION = '0.1.0';

const VERSION = /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})(?:[-+][0-9A-Za-z.-]+)?$/;

export function isProbeVersion(v: string): boolean {
  return VERSION.test(v);
}

/**
 * Compares two `major.minor.patch` versions by their numbers (a pre-release or build suffix is
 * not ranked): negative when a is older, 0 when equal, positive when newer.
 */
export function compareVersions(a: string, b: string): number {
  const pa = VERSION.exec(a);
  const pb = VERSION.exec(b);
  if (!pa || !pb) throw new Error(`not a version: ${pa ? b : a}`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return d;
  }
  return 0;
}

/** The command that starts a probe for a location, shown once with its new token. */
export function probeInstallCommand(baseUrl: string, token: string): string {
  return `PROBE_URL=${baseUrl} PROBE_TOKEN=${token} npm run probe`;
}
