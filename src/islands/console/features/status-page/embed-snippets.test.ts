import { describe, expect, it } from 'vitest';
import { DEFAULT_EMBED_CHOICE, cspSnippet, frameSnippet, frameUrl, originOf, scriptSnippet } from './embed-snippets.ts';

const ORIGIN = originOf('https://acme.status.example.com/');

describe('embed snippets', () => {
  it('the default script is the shortest one', () => {
    expect(scriptSnippet(ORIGIN, DEFAULT_EMBED_CHOICE)).toBe('<script src="https://acme.status.example.com/embed.js" async></script>');
  });

  it('a banner with every option says each of them', () => {
    const c = { style: 'banner', theme: 'dark', lang: 'de', position: 'top', accent: '#FF6600' } as const;
    expect(scriptSnippet(ORIGIN, c)).toBe(
      '<script src="https://acme.status.example.com/embed.js" async data-style="banner" data-theme="dark" data-position="top" data-lang="de" data-accent="#ff6600"></script>',
    );
    // the accent travels without '#' (it would start a fragment), and & is escaped in the attribute
    expect(frameUrl(ORIGIN, c)).toBe('https://acme.status.example.com/embed/banner?theme=dark&lang=de&accent=ff6600');
    expect(frameSnippet(ORIGIN, c, 'Status')).toContain(
      'src="https://acme.status.example.com/embed/banner?theme=dark&amp;lang=de&amp;accent=ff6600"',
    );
  });

  it('an accent that is not #rrggbb is left out', () => {
    expect(scriptSnippet(ORIGIN, { ...DEFAULT_EMBED_CHOICE, accent: 'red' })).not.toContain('accent');
  });

  it('the CSP lines name the page origin for scripts, fetches and frames', () => {
    expect(cspSnippet(ORIGIN)).toBe(
      'script-src https://acme.status.example.com\nconnect-src https://acme.status.example.com\nframe-src https://acme.status.example.com',
    );
  });
});
