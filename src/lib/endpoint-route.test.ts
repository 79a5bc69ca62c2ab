import { describe, expect, it } from 'vitest';
import { MAX_ROUTE, endpointOf, normalisePath } from './endpoint-route.ts';

describe('endpoint route normaliser', () => {
  it.each([
    ['/users/42/orders', '/users/{id}/orders'],
    ['/users/42/orders/', '/users/{id}/orders'],
    ['/orders/7f1c2a9e-5b3d-4c8e-9f10-1234567890ab', '/orders/{id}'],
    ['/commits/9fceb02d0ae598e95dc970b74767f19372d61af8', '/commits/{id}'],
    ['/objects/507f1f77bcf86cd799439011/meta', '/objects/{id}/meta'],
    ['/reset/eyJhbGciOiJIUzI1NiJ9xYz12', '/reset/{id}'],
    ['/files/aGVsbG8gd29ybGQgdGhpcyBpcyBsb25n0', '/files/{id}'],
    ['/price/19.99', '/price/{id}'],
    ['/search?q=42&page=3', '/search'],
    ['/docs/getting-started-guide', '/docs/getting-started-guide'],
    ['/api/v1/status', '/api/v1/status'],
    ['/api/v2/items', '/api/v2/items'],
    ['/deadbeef', '/deadbeef'],
    ['//a//b#frag', '/a/b'],
    ['', '/'],
    ['/', '/'],
    ['/users/%34%32', '/users/{id}'],
    ['/bad/%E0%A4%A', '/bad/%E0%A4%A'],
  ])('%s → %s', (path, route) => {
    expect(normalisePath(path)).toBe(route);
  });

  it('bounds what a hostile path can make of a route', () => {
    const deep = normalisePath(`/${Array.from({ length: 50 }, (_, i) => `s${i}x`).join('/')}`);
    expect(deep.split('/')).toHaveLength(22);
    expect(deep.endsWith('/…')).toBe(true);
    expect(normalisePath(`/${'a'.repeat(5000)}`).length).toBe(MAX_ROUTE);
  });

  it('prefers http.route, then url.template, then the normalised path', () => {
    expect(endpointOf({ 'http.request.method': 'get', 'http.route': '/users/:id', 'url.path': '/users/1' })).toEqual({
      method: 'GET',
      route: '/users/:id',
    });
    expect(endpointOf({ 'http.request.method': 'POST', 'url.template': '/carts/{cartId}' })).toEqual({
      method: 'POST',
      route: '/carts/{cartId}',
    });
    expect(endpointOf({ 'http.method': 'DELETE', 'http.target': '/carts/981?x=1' })).toEqual({ method: 'DELETE', route: '/carts/{id}' });
    expect(endpointOf({ 'http.method': 'PUT', 'http.url': 'https://shop.test/carts/12/items/3' })).toEqual({
      method: 'PUT',
      route: '/carts/{id}/items/{id}',
    });
    expect(endpointOf({ 'http.request.method': 'BREW', 'url.path': '/pot' })).toEqual({ method: '_OTHER', route: '/pot' });
  });

  it('is null for spans that are not HTTP requests or name no path', () => {
    expect(endpointOf({ 'db.system': 'postgresql' })).toBeNull();
    expect(endpointOf({ 'http.route': '/x' })).toBeNull();
    expect(endpointOf({ 'http.request.method': 'GET' })).toBeNull();
    expect(endpointOf({ 'http.request.method': 'GET', 'url.full': 'not a url' })).toBeNull();
    expect(endpointOf({ 'http.request.method': 42, 'url.path': '/x' })).toBeNull();
  });
});
