import { atom } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Load } from '../ui/load.ts';
import { always, changeThenReload, dataOrLog, inAlert, inToast, loadInto, refreshInto, serverOr, type Alert } from './remote.ts';
import { $toasts } from './toast.ts';

const problem = { type: 'about:blank', title: 'Conflict', status: 409, detail: 'A company with this subdomain already exists' };
const answer =
  <T>(data: T) =>
  async () => ({ data, response: new Response(null, { status: 200 }) });
const refused =
  (status = 409, error: unknown = problem) =>
  async () => ({
    data: undefined,
    error,
    response: new Response(null, { status }),
  });
const broken = async (): Promise<never> => {
  throw new TypeError('Failed to fetch');
};

describe('refreshInto (live updates)', () => {
  it('replaces what is shown only when data comes, never with a spinner or an error', async () => {
    const $list = atom<Load<string[]>>({ status: 'ready', data: ['old'] });
    let finish!: () => void;
    const pending = refreshInto($list, () => new Promise<{ data: string[] }>((r) => (finish = () => r({ data: ['new'] }))));
    expect($list.get()).toEqual({ status: 'ready', data: ['old'] });
    finish();
    await pending;
    expect($list.get()).toEqual({ status: 'ready', data: ['new'] });
    await refreshInto($list, refused(500));
    await refreshInto($list, broken);
    expect($list.get()).toEqual({ status: 'ready', data: ['new'] });
  });

  it('drops an answer the screen no longer wants (it moved to another item)', async () => {
    const $item = atom<Load<string>>({ status: 'ready', data: 'first' });
    await refreshInto($item, answer('stale'), () => false);
    expect($item.get()).toEqual({ status: 'ready', data: 'first' });
  });
});

describe('loadInto', () => {
  it('drops an answer that comes after a later load of the same store began (the later one is shown)', async () => {
    const $chart = atom<Load<string>>({ status: 'loading' });
    let turn = 0;
    const load = (call: () => Promise<{ data: string }>) => {
      const mine = ++turn;
      return loadInto($chart, call, always('Failed to load.'), () => mine === turn);
    };
    let finishSlow!: () => void;
    const slow = load(() => new Promise((r) => (finishSlow = () => r({ data: 'latest checks' }))));
    await load(answer('24 hours'));
    expect($chart.get()).toEqual({ status: 'ready', data: '24 hours' });
    finishSlow();
    await slow;
    expect($chart.get()).toEqual({ status: 'ready', data: '24 hours' });
    const failing = load(broken);
    await load(answer('7 days'));
    await failing;
    expect($chart.get()).toEqual({ status: 'ready', data: '7 days' });
  });

  it('shows loading while the call runs, then the data', async () => {
    const $list = atom<Load<string[]>>({ status: 'error', message: 'old' });
    let finish!: () => void;
    const call = () => new Promise<{ data: string[] }>((r) => (finish = () => r({ data: ['a'] })));
    const pending = loadInto($list, call, always('Failed to load users. Please try again.'));
    expect($list.get()).toEqual({ status: 'loading' });
    finish();
    await pending;
    expect($list.get()).toEqual({ status: 'ready', data: ['a'] });
  });

  it("the spec's fixed text whatever the server says, and the answer's status", async () => {
    const $list = atom<Load<string[]>>({ status: 'loading' });
    await loadInto($list, refused(500), always('Failed to load users. Please try again.'));
    expect($list.get()).toEqual({ status: 'error', message: 'Failed to load users. Please try again.', httpStatus: 500 });
    await loadInto($list, broken, always('Failed to load users. Please try again.'));
    expect($list.get()).toEqual({ status: 'error', message: 'Failed to load users. Please try again.' });
  });

  it("the server's explanation where the spec shows it, else the fallback", async () => {
    const $card = atom<Load<number>>({ status: 'loading' });
    await loadInto($card, refused(404, { ...problem, status: 404, detail: 'Trace not found' }), serverOr('Failed to load data'));
    expect($card.get()).toEqual({ status: 'error', message: 'Trace not found', httpStatus: 404 });
    await loadInto($card, refused(502, '<html>bad gateway</html>'), serverOr('Failed to load data'));
    expect($card.get()).toMatchObject({ message: 'Failed to load data' });
    await loadInto($card, broken, serverOr('Failed to load data'));
    expect($card.get()).toEqual({ status: 'error', message: 'Failed to fetch' });
  });
});

describe('changeThenReload', () => {
  it('a change that went through is reported, then the list reloads', async () => {
    const $alert = atom<Alert | null>(null);
    const order: string[] = [];
    $alert.listen((a) => order.push(`alert ${a?.text}`));
    const report = inAlert($alert, 'Company created successfully!', 'Failed to create company.');
    const ok = await changeThenReload(answer({ id: 'c1' }), report, async () => void order.push('reload'));
    expect(ok).toBe(true);
    expect(order).toEqual(['alert Company created successfully!', 'reload']);
    expect($alert.get()).toEqual({ ok: true, text: 'Company created successfully!' });
  });

  it("a refused change says the spec's text and the server's reason, and does not reload", async () => {
    const $alert = atom<Alert | null>(null);
    const reload = vi.fn(async () => undefined);
    const created = inAlert($alert, 'Company created successfully!', 'Failed to create company.');
    expect(await changeThenReload(refused(), created, reload)).toBe(false);
    expect($alert.get()).toEqual({ ok: false, text: 'Failed to create company. A company with this subdomain already exists' });
    expect(
      await changeThenReload(refused(500, null), inAlert($alert, 'User deleted successfully!', 'Failed to delete user.'), reload),
    ).toBe(false);
    expect($alert.get()).toEqual({ ok: false, text: 'Failed to delete user.' });
    expect(await changeThenReload(broken, inAlert($alert, 'x', 'Failed to reset password.'), reload)).toBe(false);
    expect($alert.get()).toEqual({ ok: false, text: 'Failed to reset password. Failed to fetch' });
    expect(reload).not.toHaveBeenCalled();
  });

  describe('reported as a toast', () => {
    beforeEach(() => {
      vi.useFakeTimers();
      $toasts.set([]);
    });
    afterEach(() => {
      vi.useRealTimers();
      vi.restoreAllMocks();
    });

    it('success shows the toast; a failure is only logged (spec section 8)', async () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const reload = vi.fn(async () => undefined);
      const report = inToast('Notification deleted', 'Failed to delete the notification');
      expect(await changeThenReload(answer({}), report, reload)).toBe(true);
      expect($toasts.get().map((t) => t.text)).toEqual(['Notification deleted']);
      expect(reload).toHaveBeenCalledTimes(1);
      expect(await changeThenReload(refused(), report, reload)).toBe(false);
      expect($toasts.get().map((t) => t.text)).toEqual(['Notification deleted']);
      expect(log).toHaveBeenCalledWith('Failed to delete the notification', problem);
    });
  });
});

describe('dataOrLog', () => {
  afterEach(() => vi.restoreAllMocks());
  it('the data, or null after logging why', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await dataOrLog(answer([1, 2]), 'Failed to load notifications')).toEqual([1, 2]);
    expect(await dataOrLog(refused(), 'Failed to load notifications')).toBeNull();
    expect(log).toHaveBeenLastCalledWith('Failed to load notifications', problem);
    expect(await dataOrLog(broken, 'Failed to load notification counts')).toBeNull();
    expect(log).toHaveBeenLastCalledWith('Failed to load notification counts', expect.any(TypeError));
  });
});
