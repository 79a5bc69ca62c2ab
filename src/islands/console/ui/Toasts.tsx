import { useStore } from '@nanostores/react';
import { $toasts } from '../stores/toast.ts';

export function Toasts() {
  const toasts = useStore($toasts);
  return (
    <div className="sw-toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`sw-toast sw-toast-${t.tone}`}>
          {t.text}
        </div>
      ))}
    </div>
  );
}
