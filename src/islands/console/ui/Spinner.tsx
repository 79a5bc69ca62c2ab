import { t } from '../i18n.ts';

export function Spinner({ label }: { label?: string }) {
  return (
    <div className="sw-center" role="status" aria-live="polite">
      <span className="sw-spinner" aria-hidden="true" />
      <span className="sw-spinner-label">{label ?? t('ui.spinner.loading')}</span>
    </div>
  );
}
