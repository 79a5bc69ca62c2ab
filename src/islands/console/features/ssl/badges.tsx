// The grade badge and the expiry text of a TLS target: colour and words together.
import { expiryTone, gradeTone } from '../../../../lib/tls-display.ts';
import { t } from '../../i18n.ts';

export function GradeBadge({ grade }: { grade: string | null }) {
  const label = grade === null ? t('ssl.gradeNotAnalysed') : grade === 'T' ? t('ssl.gradeNotTrusted') : grade;
  return (
    <span className={`sw-pill sw-${gradeTone(grade)}`} aria-label={t('ssl.gradeAria', { label })}>
      {grade === null ? t('ssl.pending') : grade}
    </span>
  );
}

export function Expiry({ daysLeft }: { daysLeft: number | null }) {
  return <span className={`sw-pill sw-${expiryTone(daysLeft)}`}>{expiryLabel(daysLeft)}</span>;
}

/** "12 days left", "Expired 3 days ago", in the reader's language (the words of lib/tls-display's expiryText). */
function expiryLabel(daysLeft: number | null): string {
  if (daysLeft === null) return t('ssl.expiry.unknown');
  if (daysLeft < 0) return t('ssl.expiry.expired', { days: -daysLeft });
  if (daysLeft === 0) return t('ssl.expiry.today');
  return t('ssl.expiry.left', { days: daysLeft });
}
