// Toast messages; each stays 3.2 seconds (spec section 9).
import { atom } from 'nanostores';

export const TOAST_MS = 3_200;
export interface Toast {
  id: number;
  text: string;
  tone: 'success' | 'error' | 'info';
}

export const $toasts = atom<Toast[]>([]);
let seq = 0;

export function showToast(text: string, tone: Toast['tone'] = 'success'): void {
  const toast = { id: ++seq, text, tone };
  $toasts.set([...$toasts.get(), toast]);
  setTimeout(() => $toasts.set($toasts.get().filter((t) => t.id !== toast.id)), TOAST_MS);
}
