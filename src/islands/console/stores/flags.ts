// Feature flags: loaded once, cached for the page's life; the defaults of spec section 9 apply
// when the call fails (and fill any flag the server does not name).
import { atom } from 'nanostores';
import { DEFAULT_FLAGS as SPEC_DEFAULT_FLAGS } from '../../../lib/flags.ts';
import { api } from '../api.ts';

export const DEFAULT_FLAGS: Readonly<Record<string, boolean>> = SPEC_DEFAULT_FLAGS;

export const $flags = atom<Record<string, boolean>>({ ...DEFAULT_FLAGS });
export const $flagsLoaded = atom(false);
let loading: Promise<void> | null = null;

export function loadFlags(): Promise<void> {
  loading ??= api
    .GET('/api/v1/admin/flags')
    .then(({ data }) => {
      if (data) $flags.set({ ...DEFAULT_FLAGS, ...data });
    })
    .catch(() => undefined)
    .finally(() => $flagsLoaded.set(true));
  return loading;
}

export function flagOn(name: string): boolean {
  return $flags.get()[name] ?? DEFAULT_FLAGS[name] ?? false;
}
