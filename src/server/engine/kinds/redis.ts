// Redis monitors: connect (rediss:// is TLS), log in when a password is stored, PING; slow
// answers are degraded. The password is stored sealed.
import { DEFAULT_REDIS_PORT, REDIS_FIELDS } from '../../../lib/monitor-kinds.ts';
import { redisChecker, type RedisConfig } from '../checkers/redis.ts';
import { certificateExpiring } from './certificate-warnings.ts';
import { dbUrlParts, validateDbUrl } from './db-url.ts';
import type { Kind } from './kind.ts';
import { presentSecret } from './secret-box.ts';

export const redisKind: Kind<RedisConfig> = {
  fields: REDIS_FIELDS,
  secretFields: ['password'],
  validate(pick) {
    const { config, problems, target } = validateDbUrl(pick, ['redis', 'rediss'], 'redis://cache.example.com:6379');
    return { config: { ...config, degraded_threshold_ms: pick('degraded_threshold_ms') ?? null }, problems, target };
  },
  check: redisChecker,
  async afterResult(r) {
    if (r.outcome.status !== 'down') await certificateExpiring(r, undefined);
  },
  present: (config) => ({
    url: config.url ?? null,
    password: presentSecret(config.password),
    degraded_threshold_ms: config.degraded_threshold_ms ?? null,
  }),
  publicTarget: (config) => dbUrlParts(config.url, DEFAULT_REDIS_PORT)?.host || null,
  // rediss:// talks TLS from the first byte: the security suite's TLS analysis can grade it.
  tlsEndpoint(config) {
    const parts = dbUrlParts(config.url, DEFAULT_REDIS_PORT);
    return parts && parts.url.protocol === 'rediss:' ? { host: parts.host.toLowerCase(), port: parts.port } : null;
  },
};
