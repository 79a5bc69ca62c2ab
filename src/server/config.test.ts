import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ConfigError, parseConfig } from './config.ts';
import { FLAG_NAMES } from '../lib/flags.ts';
import { tempDir } from '../../tests/support/test-db.ts';

const base = () => ({ DATA_DIR: tempDir() });

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = parseConfig(base());
    expect(c.port).toBe(4321);
    expect(c.host).toBe('127.0.0.1');
    expect(c.databaseKind).toBe('sqlite');
    expect(c.productDomain).toBe('localhost');
    expect(c.sessionSecret.length).toBeGreaterThanOrEqual(43);
    expect(c.alertGrouping).toEqual({ windowMs: 15_000, maxMs: 120_000 });
  });

  it('reads the vulnerability scans settings: rate, web ports, risky service ports, retire.js repository file', () => {
    const d = parseConfig(base());
    expect([d.scanRatePerSecond, d.scanWebPorts, d.scanServicePorts, d.retireRepositoryFile]).toEqual([
      5,
      [
        { scheme: 'https', port: 443 },
        { scheme: 'http', port: 80 },
      ],
      undefined,
      undefined,
    ]);
    const c = parseConfig({
      ...base(),
      SCAN_RATE_PER_SECOND: '2',
      SCAN_WEB_PORTS: 'https:8443',
      SCAN_SERVICE_PORTS: 'redis:6380,mysql:3306',
    });
    expect([c.scanRatePerSecond, c.scanWebPorts, c.scanServicePorts]).toEqual([
      2,
      [{ scheme: 'https', port: 8443 }],
      { redis: 6380, mysql: 3306 },
    ]);
    expect(() => parseConfig({ ...base(), SCAN_WEB_PORTS: 'ftp:21' })).toThrow('Invalid SCAN_WEB_PORTS');
    expect(() => parseConfig({ ...base(), SCAN_SERVICE_PORTS: 'quake:27960' })).toThrow('Invalid SCAN_SERVICE_PORTS');
    expect(() => parseConfig({ ...base(), SCAN_RATE_PER_SECOND: '100' })).toThrow('Invalid SCAN_RATE_PER_SECOND');
    expect(() => parseConfig({ ...base(), RETIREJS_REPOSITORY_FILE: '/nonexistent/jsrepository.json' })).toThrow(
      'Invalid RETIREJS_REPOSITORY_FILE',
    );
  });

  it('reads the alert grouping window and its maximum in seconds (0 holds nothing)', () => {
    const c = parseConfig({ ...base(), ALERT_GROUP_WINDOW_SECONDS: '0', ALERT_GROUP_MAX_SECONDS: '600' });
    expect(c.alertGrouping).toEqual({ windowMs: 0, maxMs: 600_000 });
  });

  it('keeps the generated secret across restarts', () => {
    const env = base();
    expect(parseConfig(env).sessionSecret).toBe(parseConfig(env).sessionSecret);
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid PORT="abc": expected a whole number from 0 to 65535'],
    [{ PORT: '70000' }, 'Invalid PORT="70000"'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid DATABASE_URL="mysql://x": expected unset (SQLite file in DATA_DIR) or a postgres:// URL'],
    [{ PRODUCT_DOMAIN: 'not a domain' }, 'Invalid PRODUCT_DOMAIN'],
    [{ NODE_ENV: 'staging' }, 'Invalid NODE_ENV="staging": expected one of development, production, test'],
    [{ NODE_ENV: 'production' }, 'Invalid SESSION_SECRET=""'],
    [{ NODE_ENV: 'production', SESSION_SECRET: 'changeme' }, 'Invalid SESSION_SECRET'],
    [{ ADMIN_EMAIL: 'root@example.com' }, 'Invalid ADMIN_PASSWORD'],
    [
      { ALLOW_PRIVATE_TARGETS: 'maybe' },
      'Invalid ALLOW_PRIVATE_TARGETS="maybe": expected true, false, or comma-separated CIDRs such as 10.0.0.0/8,192.168.1.0/24',
    ],
    [{ DNS_RESOLVERS: 'dns.example.com' }, 'Invalid DNS_RESOLVERS="dns.example.com": expected comma-separated DNS server addresses'],
    [{ DNS_RESOLVERS: '1.1.1.1:99999' }, 'Invalid DNS_RESOLVERS'],
    [
      { CANARY_TARGETS: 'example.com' },
      'Invalid CANARY_TARGETS="example.com": expected up to 10 comma-separated http(s) URLs or host:port such as https://example.com,1.1.1.1:53',
    ],
    [{ CANARY_TARGETS: 'https://1.1.1.1,ftp://example.com' }, 'Invalid CANARY_TARGETS'],
    [
      { RDAP_BASE_URLS: 'com' },
      'Invalid RDAP_BASE_URLS="com": expected comma-separated suffix=URL pairs such as com=https://rdap.example.net/com/v1/',
    ],
    [{ RDAP_BASE_URLS: 'com=ftp://rdap.example.net/' }, 'Invalid RDAP_BASE_URLS'],
    [
      { RDAP_BOOTSTRAP_FILE: '/nonexistent/dns.json' },
      'Invalid RDAP_BOOTSTRAP_FILE="/nonexistent/dns.json": expected a readable RDAP bootstrap file',
    ],
    [{ CANARY_TARGETS: '1.1.1.1:70000' }, 'Invalid CANARY_TARGETS'],
    [{ CANARY_INTERVAL_SECONDS: '1' }, 'Invalid CANARY_INTERVAL_SECONDS="1": expected a whole number from 5 to 3600'],
    [{ CHECK_LEASE_MARGIN_SECONDS: '1' }, 'Invalid CHECK_LEASE_MARGIN_SECONDS="1": expected a whole number from 2 to 600'],
    [
      { PAGERDUTY_EVENTS_URL: 'events.pagerduty.com' },
      'Invalid PAGERDUTY_EVENTS_URL="events.pagerduty.com": expected an http(s) URL such as https://events.pagerduty.com',
    ],
    [{ OPSGENIE_API_URL: 'ftp://api.opsgenie.com' }, 'Invalid OPSGENIE_API_URL'],
    [{ TELEGRAM_API_URL: 'https://user:pw@api.telegram.org' }, 'Invalid TELEGRAM_API_URL'],
    [{ TWILIO_API_URL: 'https://api.twilio.com/?x=1' }, 'Invalid TWILIO_API_URL'],
    [{ ALERT_GROUP_WINDOW_SECONDS: '301' }, 'Invalid ALERT_GROUP_WINDOW_SECONDS="301": expected a whole number from 0 to 300'],
    [{ ALERT_GROUP_MAX_SECONDS: '0' }, 'Invalid ALERT_GROUP_MAX_SECONDS="0": expected a whole number from 1 to 3600'],
    [{ FLAG_ENABLE_GLOBAL_EXPORT: 'maybe' }, 'Invalid FLAG_ENABLE_GLOBAL_EXPORT="maybe": expected true or false'],
    [
      { FLAG_ENABLE_GLOBL_EXPORT: 'true' },
      'Unknown feature flag FLAG_ENABLE_GLOBL_EXPORT: expected FLAG_ followed by one of ENABLE_TENANT_SWITCH, ENABLE_USER_MGMT,',
    ],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => parseConfig({ ...base(), ...env })).toThrow(ConfigError);
    expect(() => parseConfig({ ...base(), ...env })).toThrow(message);
  });

  it('reads DNS_RESOLVERS as a list of servers, unset meaning the system resolver', () => {
    expect(parseConfig(base()).dnsResolvers).toBeUndefined();
    expect(parseConfig({ ...base(), DNS_RESOLVERS: '1.1.1.1, 10.0.0.2:5353,[2606:4700::1111]:53, ::1' }).dnsResolvers).toEqual([
      '1.1.1.1',
      '10.0.0.2:5353',
      '[2606:4700::1111]:53',
      '::1',
    ]);
  });

  it('reads RDAP_BASE_URLS as suffix → base URL, unset meaning the bootstrap file only', () => {
    expect(parseConfig(base()).rdapBaseUrls).toEqual({});
    expect(parseConfig(base()).rdapBootstrapFile).toBeUndefined();
    expect(
      parseConfig({ ...base(), RDAP_BASE_URLS: '.COM=https://rdap.example.net/com/v1/, example=http://127.0.0.1:8080/' }).rdapBaseUrls,
    ).toEqual({
      com: 'https://rdap.example.net/com/v1/',
      example: 'http://127.0.0.1:8080/',
    });
  });

  it('reads CHECK_LEASE_MARGIN_SECONDS, 30 s unless set', () => {
    expect(parseConfig(base()).checkLeaseMarginSeconds).toBe(30);
    expect(parseConfig({ ...base(), CHECK_LEASE_MARGIN_SECONDS: '2' }).checkLeaseMarginSeconds).toBe(2);
  });

  it('reads CANARY_TARGETS as URLs and host:port, unset meaning no canary', () => {
    expect(parseConfig(base()).canaryTargets).toEqual([]);
    expect(parseConfig(base()).canaryIntervalSeconds).toBe(30);
    expect(
      parseConfig({ ...base(), CANARY_TARGETS: 'https://example.com/ping, 1.1.1.1:53,[::1]:8080,dns.google:443' }).canaryTargets,
    ).toEqual(['https://example.com/ping', '1.1.1.1:53', '[::1]:8080', 'dns.google:443']);
  });

  it("takes the alert services' API hosts from the environment, the real ones by default", () => {
    expect(parseConfig(base()).channelApis).toEqual({
      pagerduty: 'https://events.pagerduty.com',
      opsgenie: 'https://api.opsgenie.com',
      telegram: 'https://api.telegram.org',
      twilio: 'https://api.twilio.com',
      pushover: 'https://api.pushover.net',
      splunkOncall: 'https://alert.victorops.com',
      zenduty: 'https://www.zenduty.com',
      linear: 'https://api.linear.app/graphql',
    });
    const c = parseConfig({
      ...base(),
      PAGERDUTY_EVENTS_URL: 'https://events.eu.pagerduty.com/',
      OPSGENIE_API_URL: 'https://api.eu.opsgenie.com',
      TELEGRAM_API_URL: 'http://127.0.0.1:8081',
      TWILIO_API_URL: 'http://127.0.0.1:9000/twilio/',
      PUSHOVER_API_URL: 'http://127.0.0.1:9001/',
      SPLUNK_ONCALL_API_URL: 'http://127.0.0.1:9002',
      ZENDUTY_API_URL: 'http://127.0.0.1:9003/zenduty/',
      LINEAR_API_URL: 'http://127.0.0.1:9001/graphql',
    });
    expect(c.channelApis).toEqual({
      pagerduty: 'https://events.eu.pagerduty.com',
      opsgenie: 'https://api.eu.opsgenie.com',
      telegram: 'http://127.0.0.1:8081',
      twilio: 'http://127.0.0.1:9000/twilio',
      pushover: 'http://127.0.0.1:9001',
      splunkOncall: 'http://127.0.0.1:9002',
      zenduty: 'http://127.0.0.1:9003/zenduty',
      linear: 'http://127.0.0.1:9001/graphql',
    });
  });

  it('takes operator overrides for the known feature flags', () => {
    const c = parseConfig({ ...base(), FLAG_ENABLE_GLOBAL_EXPORT: 'true', FLAG_ENABLE_USER_MGMT: 'off' });
    expect(c.flagOverrides).toEqual({ ENABLE_GLOBAL_EXPORT: true, ENABLE_USER_MGMT: false });
  });

  it('stops the process with one line naming an unknown feature flag', () => {
    const r = spawnSync(process.execPath, ['src/server/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: tempDir(), FLAG_ENABLE_NOPE: 'true' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      `Configuration error: Unknown feature flag FLAG_ENABLE_NOPE: expected FLAG_ followed by one of ${FLAG_NAMES.join(', ')}`,
    ]);
    expect(r.stdout).toBe('');
  });

  it.each([
    ['forty times the same letter', 'a'.repeat(40)],
    ['the placeholder of a sample .env', 'change-me-to-a-long-random-secret-please'],
    ['a placeholder in other words', 'REPLACE_WITH_YOUR_OWN_SESSION_SECRET_VALUE'],
    ['a repeated short pattern', 'abc123'.repeat(7)],
    ['a repeated pattern with a tail', 'Secr3t!'.repeat(5) + 'Se'],
    ['the alphabet and digits in order', 'abcdefghijklmnopqrstuvwxyz0123456789'],
    ['a keyboard row walk', 'qwertyuiopasdfghjklzxcvbnmqwertyuiop'],
    ['two letters alternating', 'ab'.repeat(20)],
  ])('refuses %s as SESSION_SECRET in one line naming the variable', (_what, secret) => {
    for (const NODE_ENV of ['production', 'development']) {
      const run = () => parseConfig({ ...base(), NODE_ENV, SESSION_SECRET: secret });
      expect(run).toThrow(ConfigError);
      expect(run).toThrow(/^Invalid SESSION_SECRET="\*\*\*": expected a random secret of 32\+ characters/);
    }
  });

  it.each([
    ['openssl rand -base64 32', 'q3J9x0mB1r7Wc2pLzT8vYk4uHs6dNf5aGe0iRt1oPjQ='],
    ['openssl rand -hex 16', '9f86d081884c7d659a2feaa0c55ad015'],
    ['openssl rand -hex 32', '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae'],
    ['base64url of 32 random bytes', 'Xx4T1x-pD2_kZr9QmV0bNc7LsY3wEa8HfJ6uGi5oKqA'],
  ])('accepts a random secret made with %s', (_how, secret) => {
    expect(parseConfig({ ...base(), NODE_ENV: 'production', SESSION_SECRET: secret }).sessionSecret).toBe(secret);
  });

  it.each(['password', '12345678', 'iloveyou1'])('refuses the common password %j as ADMIN_PASSWORD', (pw) => {
    const run = () => parseConfig({ ...base(), ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: pw });
    expect(run).toThrow('Invalid ADMIN_PASSWORD="***": expected a password of 8+ characters that is not a common password');
  });

  it('accepts a strong production secret and postgres URL', () => {
    const c = parseConfig({
      ...base(),
      NODE_ENV: 'production',
      SESSION_SECRET: 'Xx4T1x-pD2_kZr9QmV0bNc7LsY3wEa8HfJ6uGi5oKqA',
      DATABASE_URL: 'postgres://u@h/db',
    });
    expect(c.databaseKind).toBe('postgres');
    expect(c.publicScheme).toBe('https');
  });

  it('takes a random METRICS_TOKEN, unset by default, and refuses a weak one without echoing it', () => {
    expect(parseConfig(base()).metricsToken).toBeUndefined();
    const token = '9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a1c3e5b';
    expect(parseConfig({ ...base(), METRICS_TOKEN: token }).metricsToken).toBe(token);
    for (const weak of ['metrics', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', `${token} ${token}`]) {
      expect(() => parseConfig({ ...base(), METRICS_TOKEN: weak })).toThrow('Invalid METRICS_TOKEN="***"');
    }
  });

  it('reads the public port browsers use, 1 to 65535, unset by default', () => {
    expect(parseConfig(base()).publicPort).toBeUndefined();
    expect(parseConfig({ ...base(), PUBLIC_PORT: '8443' }).publicPort).toBe(8443);
    for (const bad of ['0', '65536', 'https', '-1']) {
      expect(() => parseConfig({ ...base(), PUBLIC_PORT: bad }), bad).toThrow(ConfigError);
    }
  });
});
