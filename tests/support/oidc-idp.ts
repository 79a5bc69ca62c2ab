// A real OpenID provider on loopback for the single sign-on tests: `oidc-provider` (the certified
// Node implementation) with one confidential client registered for the test, PKCE required, and
// accounts whose claims the test sets. Its own login (devInteractions) is driven over HTTP as a
// browser would: follow the redirects, post the login form, and stop at our callback.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface IdpAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, IdpAccount>;
  /** Signs `login` in at the provider from `authorizationUrl`; answers our callback URL (with code and state). */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  /** A genuine ID token of this provider for `login`, issued to `clientId` (a hostile token endpoint's material). */
  idTokenFor(login: string, opts: { clientId: string; nonce: string; redirectUri: string }): Promise<string>;
  /** When set, rewrites the token endpoint's JSON answers on their way to the client (a hostile provider). */
  tamperTokens: ((answer: Record<string, unknown>) => Promise<Record<string, unknown>>) | null;
  close(): Promise<void>;
}

/** The second client every test provider has, for tokens issued to another application. */
export const OTHER_CLIENT = { id: 'another-application', secret: 'another-application-secret-0123456789' };

export async function startTestIdp(opts: { redirectUris: string[]; clientId?: string; clientSecret?: string }): Promise<TestIdp> {
  // The provider listens behind a small front server that can rewrite token answers.
  const inner = http.createServer();
  await new Promise<void>((r) => inner.listen(0, '127.0.0.1', r));
  const innerPort = (inner.address() as AddressInfo).port;
  const server = http.createServer((req, res) => {
    const tamper = idp.tamperTokens;
    const up = http.request({ host: '127.0.0.1', port: innerPort, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      if (!tamper || req.method !== 'POST' || req.url !== '/token') {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', async () => {
        const body = Buffer.from(JSON.stringify(await tamper(JSON.parse(Buffer.concat(chunks).toString('utf8')))));
        const { 'content-length': _drop, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': body.length });
        res.end(body);
      });
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = opts.clientId ?? 'statuswatch-test';
  const clientSecret = opts.clientSecret ?? 'a-client-secret-for-the-test-0123456789';
  const accounts = new Map<string, IdpAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
      {
        client_id: OTHER_CLIENT.id,
        client_secret: OTHER_CLIENT.secret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    // Claims in the ID token itself (as Okta, Entra ID and Keycloak can be set up to send them).
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    cookies: { keys: ['statuswatch-test-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const a = accounts.get(id);
      if (!a) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...a }) };
    },
    // Consent is the provider's business, not what these tests check: grant what is asked.
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
  });
  inner.on('request', provider.callback());

  async function signIn(authorizationUrl: string, login: string): Promise<URL> {
    const jar = new Map<string, string>();
    const keep = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
    };
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let url = new URL(authorizationUrl);
    let body: URLSearchParams | undefined;
    for (let hop = 0; hop < 10; hop++) {
      if (url.origin !== issuer) return url;
      const res = await fetch(url, {
        method: body ? 'POST' : 'GET',
        headers: { cookie: cookie(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        body,
        redirect: 'manual',
      });
      keep(res);
      body = undefined;
      const location = res.headers.get('location');
      if (location) {
        url = new URL(location, url);
        continue;
      }
      const html = await res.text();
      if (res.status !== 200 || !html.includes('name="login"')) throw new Error(`provider answered ${res.status}: ${html.slice(0, 300)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error('no login form');
      url = new URL(action, url);
      body = new URLSearchParams({ prompt: 'login', login, password: 'any' });
    }
    throw new Error('too many redirects at the provider');
  }

  async function idTokenFor(login: string, o: { clientId: string; nonce: string; redirectUri: string }): Promise<string> {
    const verifier = randomBytes(32).toString('base64url');
    const auth = new URL(`${issuer}/auth`);
    auth.search = new URLSearchParams({
      client_id: o.clientId,
      redirect_uri: o.redirectUri,
      response_type: 'code',
      scope: 'openid email profile groups',
      state: 'x',
      nonce: o.nonce,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    const back = await signIn(auth.href, login);
    const secret = o.clientId === clientId ? clientSecret : OTHER_CLIENT.secret;
    const res = await fetch(`http://127.0.0.1:${innerPort}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: o.redirectUri,
        code_verifier: verifier,
        client_id: o.clientId,
        client_secret: secret,
      }),
    });
    const json = (await res.json()) as { id_token?: string };
    if (!json.id_token) throw new Error(`no ID token: ${JSON.stringify(json)}`);
    return json.id_token;
  }

  const idp: TestIdp = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signIn,
    idTokenFor,
    tamperTokens: null,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => inner.close(() => r()));
    },
  };
  return idp;
}
