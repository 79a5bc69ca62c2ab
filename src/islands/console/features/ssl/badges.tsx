// The grade badge and the expiry text of a TLS target: colour and words together.
import { expiryText, expiryTone, gradeTone } from '../../../../lib/tls-display.ts';

export function GradeBadge({ grade }: { grade: string | null }) {
  const label = grade === null ? 'Not analysed yet' : grade === 'T' ? 'T (not trusted)' : grade;
  return (
    <span className={`sw-pill sw-${gradeTone(grade)}`} aria-label={`Grade ${label}`}>
      {grade === null ? 'Pending' : grade}
    </span>
  );
}

export function Expiry({ daysLeft }: { daysLeft: number | null }) {
  return <span className={`sw-pill sw-${expiryTone(daysLeft)}`}>{expiryText(daysLeft)}</span>;
}
