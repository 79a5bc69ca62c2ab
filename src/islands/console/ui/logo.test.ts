import { describe, expect, it } from 'vitest';
import { logoProblem } from './logo.ts';

describe('logoProblem', () => {
  it("logo files: PNG, JPEG or WebP of 512 KB at most, in the server's words", () => {
    expect(logoProblem({ type: 'image/png', size: 1000 }, 'Logo')).toBeNull();
    expect(logoProblem({ type: 'image/webp', size: 512 * 1024 }, 'Logo')).toBeNull();
    expect(logoProblem({ type: 'image/svg+xml', size: 1000 }, 'Logo')).toBe('Logo must be a PNG, JPEG or WebP image.');
    expect(logoProblem({ type: 'image/jpeg', size: 512 * 1024 + 1 }, 'Horizontal logo')).toBe('Horizontal logo must be at most 512 KB.');
  });
});
