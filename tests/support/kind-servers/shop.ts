// A small shop on loopback for the synthetic kinds' tests and bench/synthetic: a JSON API for
// api_flow (sign in, products, cart, checkout, order) and server-rendered pages for browser
// journeys (/, /login, /cart, /checkout, the confirmation), sessions by cookie. It can be broken
// one step at a time (`start({ broken })` or `shop.set({ broken })` while it runs), made slow, made
// to load a subresource from or redirect to an address of the test's choosing, and it has hostile
// endpoints (a hanging answer, a huge one, one that never ends, garbage). node:http only.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export type ShopBreak =
  /** POST /api/login answers 401 and the /login form refuses every password */
  | 'login'
  /** the cart's total is one less than its items' prices add up to (API and /cart) */
  | 'cart'
  /** POST /api/checkout and the Pay form answer 500 */
  | 'checkout'
  /** /checkout has no Pay button */
  | 'pay_button'
  /** every page loads an image (/assets/hang.png) that never answers: the page never finishes loading */
  | 'hang'
  /** every page runs a script that throws (a console error) */
  | 'script_error';

export interface ShopOptions {
  broken?: ShopBreak | null;
  /** The account that signs in (default shopper@example.com / correct-horse) */
  email?: string;
  password?: string;
  /** Every page also loads this URL as an image (a subresource from an address the test chooses) */
  subresource?: string | null;
  /** Where GET /go and GET /api/go redirect (302); null: to / */
  redirectTo?: string | null;
  /** Every answer waits this long first (slow but up) */
  delayMs?: number;
  /** Serve https with this key and certificate (tests/fixtures/targets/tls-targets.ts makeCerts) */
  tls?: { key: string; cert: string } | null;
}

export interface ShopRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Shop {
  host: string;
  port: number;
  /** http://127.0.0.1:port + path (https:// when started with tls) */
  url(path?: string): string;
  /** Changes the options while it runs (e.g. breaks the checkout between two checks) */
  set(opts: Partial<ShopOptions>): void;
  /** What it was sent, oldest first (the last 500): tests see a secret arrived */
  requests: ShopRequest[];
  /** Orders paid since the start */
  orders(): number;
  close(): Promise<void>;
}

export const SHOP_PRODUCTS = [
  { sku: 'mug', name: 'Mug', price: 12 },
  { sku: 'tee', name: 'T-shirt', price: 30 },
  { sku: 'cap', name: 'Cap', price: 15 },
] as const;
export const SHOP_EMAIL = 'shopper@example.com';
export const SHOP_PASSWORD = 'correct-horse';

interface Cart {
  id: string;
  items: string[];
}
interface Session {
  user: string | null;
  cart: Cart;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const id = () => randomBytes(8).toString('hex');

export async function startShop(initial: ShopOptions = {}): Promise<Shop> {
  const opts: Required<ShopOptions> = {
    broken: null,
    email: SHOP_EMAIL,
    password: SHOP_PASSWORD,
    subresource: null,
    redirectTo: null,
    delayMs: 0,
    tls: null,
    ...initial,
  };
  const tokens = new Map<string, string>();
  const carts = new Map<string, Cart>();
  const sessions = new Map<string, Session>();
  const orders = new Map<string, { total: number }>();
  const requests: ShopRequest[] = [];
  const sockets = new Set<Socket>();

  const total = (cart: Cart) =>
    cart.items.reduce((sum, sku) => sum + (SHOP_PRODUCTS.find((p) => p.sku === sku)?.price ?? 0), 0) - (opts.broken === 'cart' ? 1 : 0);
  const newCart = (): Cart => {
    const cart = { id: id(), items: [] };
    carts.set(cart.id, cart);
    return cart;
  };

  const handler: http.RequestListener = async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop.test');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size <= 256 * 1024) chunks.push(c as Buffer);
    }
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers, body });
    if (requests.length > 500) requests.shift();
    if (opts.delayMs > 0) await new Promise((r) => setTimeout(r, opts.delayMs));
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    const key = `${req.method} ${url.pathname}`;

    // Hostile endpoints, never broken, never slow on purpose.
    if (url.pathname === '/api/hang' || url.pathname === '/assets/hang.png') return; // never answers
    if (url.pathname === '/api/huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(`{"pad":"${'x'.repeat(3 * 1024 * 1024)}"}`);
    }
    if (url.pathname === '/api/endless') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      return pump();
    }
    if (url.pathname === '/api/garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(Buffer.from([0, 255, 254, 123, 34, 10, 13, 0]));
    }
    if (url.pathname === '/go' || url.pathname === '/api/go') {
      res.writeHead(302, { location: opts.redirectTo ?? '/' });
      return res.end();
    }
    if (url.pathname === '/api/echo') return json(200, { method: req.method, headers: req.headers, body });

    if (url.pathname.startsWith('/api/')) {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const user = bearer ? tokens.get(bearer) : undefined;
      const input = parseJson(body);
      switch (key) {
        case 'POST /api/login': {
          if (opts.broken === 'login' || input?.email !== opts.email || input?.password !== opts.password)
            return json(401, { error: 'wrong email or password' });
          const token = id();
          tokens.set(token, opts.email);
          return json(200, { token });
        }
        case 'GET /api/products':
          return json(200, { products: SHOP_PRODUCTS });
        case 'POST /api/cart': {
          if (!user) return json(401, { error: 'sign in first' });
          const skus: unknown[] = Array.isArray(input?.items) ? input.items : input?.sku ? [input.sku] : [];
          const unknown = skus.find((s) => !SHOP_PRODUCTS.some((p) => p.sku === s));
          if (skus.length === 0 || unknown !== undefined) return json(400, { error: 'unknown product' });
          const cart = newCart();
          cart.items.push(...(skus as string[]));
          return json(201, { cart_id: cart.id, items: cart.items, total: total(cart) });
        }
        case 'POST /api/checkout': {
          if (!user) return json(401, { error: 'sign in first' });
          const cart = carts.get(String(input?.cart_id ?? ''));
          if (!cart) return json(404, { error: 'no such cart' });
          if (opts.broken === 'checkout') return json(500, { error: 'payment provider unavailable' });
          const orderId = id();
          orders.set(orderId, { total: total(cart) });
          carts.delete(cart.id);
          return json(201, { order_id: orderId, status: 'paid', total: total(cart) });
        }
      }
      const order = /^GET \/api\/orders\/([0-9a-f]+)$/.exec(key);
      if (order) {
        if (!user) return json(401, { error: 'sign in first' });
        const o = orders.get(order[1]);
        return o ? json(200, { order_id: order[1], status: 'paid', total: o.total }) : json(404, { error: 'no such order' });
      }
      return json(404, { error: 'not found' });
    }

    // Pages: a session per browser (cookie sid), made at the first visit.
    const sid = /(?:^|;\s*)sid=([0-9a-f]+)/.exec(req.headers.cookie ?? '')?.[1];
    let session = sid ? sessions.get(sid) : undefined;
    const cookie: Record<string, string> = {};
    if (!session) {
      const fresh = id();
      session = { user: null, cart: newCart() };
      sessions.set(fresh, session);
      cookie['set-cookie'] = `sid=${fresh}; Path=/; HttpOnly; SameSite=Lax`;
    }
    const s = session;
    const page = (status: number, title: string, main: string) => {
      const extra = [
        opts.subresource ? `<img src="${esc(opts.subresource)}" alt="" width="1" height="1">` : '',
        opts.broken === 'hang' ? '<img src="/assets/hang.png" alt="" width="1" height="1">' : '',
        opts.broken === 'script_error' ? "<script>throw new Error('shop script failed')</script>" : '',
      ].join('');
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...cookie });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
          '<link rel="stylesheet" href="/assets/shop.css"></head><body>' +
          `<header><a href="/">Shop</a> <a href="/cart">Cart (<span id="cart-count">${s.cart.items.length}</span>)</a> ` +
          `${s.user ? `<span id="user">${esc(s.user)}</span>` : '<a href="/login">Sign in</a>'}</header>` +
          `<main><h1>${esc(title)}</h1>${main}</main>${extra}</body></html>`,
      );
    };
    const redirect = (to: string) => {
      res.writeHead(303, { location: to, ...cookie });
      res.end();
    };
    const form = new URLSearchParams(body);
    switch (key) {
      case 'GET /assets/shop.css':
        res.writeHead(200, { 'content-type': 'text/css' });
        return res.end('body{font-family:sans-serif;margin:2rem}li{margin:.5rem 0}button{padding:.3rem .8rem}');
      case 'GET /':
        return page(
          200,
          'Shop',
          `<ul id="products">${SHOP_PRODUCTS.map(
            (p) =>
              `<li class="product"><span class="name">${p.name}</span> <span class="price">${p.price}</span> ` +
              `<form method="post" action="/cart/add"><input type="hidden" name="sku" value="${p.sku}">` +
              `<button type="submit" aria-label="Add ${p.name} to cart">Add to cart</button></form></li>`,
          ).join('')}</ul>`,
        );
      case 'GET /login':
        return page(
          200,
          'Sign in',
          '<form method="post" action="/login"><label>Email <input name="email" type="email" id="email"></label>' +
            '<label>Password <input name="password" type="password" id="password"></label>' +
            '<button type="submit">Sign in</button></form>',
        );
      case 'POST /login':
        if (opts.broken === 'login' || form.get('email') !== opts.email || form.get('password') !== opts.password)
          return page(401, 'Sign in', '<p role="alert">Wrong email or password</p><a href="/login">Try again</a>');
        s.user = opts.email;
        return redirect('/');
      case 'POST /cart/add':
        if (SHOP_PRODUCTS.some((p) => p.sku === form.get('sku'))) s.cart.items.push(String(form.get('sku')));
        return redirect('/cart');
      case 'GET /cart':
        return page(
          200,
          'Cart',
          `<ul id="cart">${s.cart.items.map((sku) => `<li class="item">${esc(SHOP_PRODUCTS.find((p) => p.sku === sku)?.name ?? sku)}</li>`).join('')}</ul>` +
            `<p>Total: <span id="total">${total(s.cart)}</span></p><a href="/checkout" id="checkout">Checkout</a>`,
        );
      case 'GET /checkout':
        if (!s.user) return redirect('/login');
        return page(
          200,
          'Checkout',
          `<p>Total: <span id="total">${total(s.cart)}</span></p>` +
            (opts.broken === 'pay_button'
              ? ''
              : '<form method="post" action="/checkout"><button type="submit" id="pay">Pay</button></form>'),
        );
      case 'POST /checkout': {
        if (!s.user) return redirect('/login');
        if (opts.broken === 'checkout') return page(500, 'Payment failed', '<p role="alert">The payment provider is unavailable</p>');
        const orderId = id();
        orders.set(orderId, { total: total(s.cart) });
        s.cart = newCart();
        return redirect(`/order/${orderId}`);
      }
    }
    const order = /^GET \/order\/([0-9a-f]+)$/.exec(key);
    if (order && orders.has(order[1]))
      return page(
        200,
        'Order confirmed',
        `<p id="confirmation">Thank you for your order</p><p>Order <span id="order">${order[1]}</span></p>`,
      );
    return page(404, 'Not found', '<p>There is no such page.</p>');
  };
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : http.createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    url: (path = '/') => `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}${path}`,
    set: (o) => Object.assign(opts, o),
    requests,
    orders: () => orders.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function parseJson(text: string): Record<string, any> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' ? (v as Record<string, any>) : null;
  } catch {
    return null;
  }
}
