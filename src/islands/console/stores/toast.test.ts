import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toasts, showToast, TOAST_MS } from './toast.ts';

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    $toasts.set([]);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stay 3.2 seconds (spec section 9)', () => {
    expect(TOAST_MS).toBe(3_200);
    showToast('Saved');
    expect($toasts.get().map((t) => t.text)).toEqual(['Saved']);
    vi.advanceTimersByTime(3_199);
    expect($toasts.get().map((t) => t.text)).toEqual(['Saved']);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toEqual([]);
  });

  it('each toast keeps its own 3.2 seconds', () => {
    showToast('First');
    vi.advanceTimersByTime(2_000);
    showToast('Second', 'error');
    expect($toasts.get().map((t) => [t.text, t.tone])).toEqual([
      ['First', 'success'],
      ['Second', 'error'],
    ]);
    vi.advanceTimersByTime(1_200);
    expect($toasts.get().map((t) => t.text)).toEqual(['Second']);
    vi.advanceTimersByTime(1_999);
    expect($toasts.get().map((t) => t.text)).toEqual(['Second']);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toEqual([]);
  });
});
