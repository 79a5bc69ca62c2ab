// The shop's journeys as api_flow steps (tests and bench/synthetic): sign in, list products, fill
// a cart, pay, read the order back; `base` makes each path a URL of the shop under test.
import { SHOP_EMAIL, SHOP_PASSWORD } from './shop.ts';

/** The shop's journey: sign in, list products, fill a cart, pay, read the order back. */
export function shopFlow(base: (path: string) => string, opts: { password?: string } = {}) {
  return [
    {
      name: 'Sign in',
      method: 'POST',
      url: base('/api/login'),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: SHOP_EMAIL, password: opts.password ?? SHOP_PASSWORD }),
      assertions: [{ source: 'status', comparison: 'equals', target: '200' }],
      extract: [{ variable: 'token', source: 'json', property: '$.token' }],
    },
    {
      name: 'List products',
      url: base('/api/products'),
      assertions: [
        { source: 'status', comparison: 'equals', target: '200' },
        { source: 'json', property: '$.products[0].sku', comparison: 'equals', target: 'mug' },
        { source: 'header', property: 'content-type', comparison: 'contains', target: 'json' },
      ],
    },
    {
      name: 'Add to cart',
      method: 'POST',
      url: base('/api/cart'),
      headers: { authorization: 'Bearer {{token}}', 'content-type': 'application/json' },
      body: '{"items":["mug","tee"]}',
      assertions: [
        { source: 'status', comparison: 'equals', target: '201' },
        { source: 'json', property: '$.total', comparison: 'equals', target: '42' },
      ],
      extract: [{ variable: 'cart_id', source: 'json', property: '$.cart_id' }],
    },
    {
      name: 'Pay',
      method: 'POST',
      url: base('/api/checkout'),
      headers: { authorization: 'Bearer {{token}}' },
      body: '{"cart_id":"{{cart_id}}"}',
      assertions: [
        { source: 'status', comparison: 'equals', target: '201' },
        { source: 'json', property: "$['status']", comparison: 'equals', target: 'paid' },
      ],
      extract: [{ variable: 'order_id', source: 'body_regex', property: '"order_id":"([0-9a-f]+)"' }],
    },
    {
      name: 'Read the order',
      url: base('/api/orders/{{order_id}}'),
      headers: { authorization: 'Bearer {{token}}' },
      assertions: [
        { source: 'json', property: '$.order_id', comparison: 'equals', target: '{{order_id}}' },
        { source: 'response_time', comparison: 'less_than', target: '5000' },
        { source: 'body', comparison: 'not_contains', target: 'error' },
      ],
    },
  ];
}
