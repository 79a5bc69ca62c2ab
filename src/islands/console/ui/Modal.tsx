// A modal dialog: labelled, Escape closes it, focus moves in, Tab and Shift+Tab cycle inside it
// (never into the page behind), and focus returns to the opener when it closes.
import { useEffect, useRef, type ReactNode } from 'react';
import { t } from '../i18n.ts';

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab inside the dialog: from the last element to the first and back. */
function trapTab(dialog: HTMLElement, e: KeyboardEvent): void {
  const items = [...dialog.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => el.getClientRects().length > 0);
  if (!items.length) return;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const active = document.activeElement;
  const outside = !dialog.contains(active);
  if (e.shiftKey && (outside || active === first || active === dialog)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (outside || active === last)) {
    e.preventDefault();
    first.focus();
  }
}

export function Modal(props: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>('input, select, textarea, button:not(.sw-modal-x)');
    (first ?? ref.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') props.onClose();
      else if (e.key === 'Tab' && ref.current) trapTab(ref.current, e);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      before?.focus?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const id = 'modal-' + props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <div className="sw-modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div
        ref={ref}
        className={props.wide ? 'sw-modal sw-modal-wide' : 'sw-modal'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        tabIndex={-1}
      >
        <header className="sw-modal-head">
          <h2 id={id}>{props.title}</h2>
          <button type="button" className="sw-modal-x" aria-label={t('ui.modal.close')} onClick={props.onClose}>
            ×
          </button>
        </header>
        {props.children}
      </div>
    </div>
  );
}

export function Confirm(props: {
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  danger?: boolean;
}) {
  return (
    <Modal title={props.title} onClose={props.onCancel}>
      <p className="sw-confirm-text">{props.text}</p>
      <div className="sw-modal-actions">
        <button type="button" className="sw-btn" onClick={props.onCancel}>
          {t('ui.modal.cancel')}
        </button>
        <button type="button" className={props.danger ? 'sw-btn sw-btn-danger' : 'sw-btn sw-btn-primary'} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
