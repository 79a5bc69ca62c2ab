// Pieces the on-call screens share: who is on call now and next with the hand-off in the
// schedule's zone and the viewer's, and a private calendar address (shown once, since the server
// keeps only a hash of its token; a new one revokes the old).
import { useState } from 'react';
import { CopyValue } from '../../ui/CopyValue.tsx';
import { t, tr } from '../../i18n.ts';
import type { Outcome, Shift } from './store.ts';
import { formatInZone, viewerZone } from '../../../../lib/zoned-time.ts';

/** 'Mon 2026-12-07 09:00 CET (Europe/Berlin) · Mon 2026-12-07 03:00 EST (your time)'; once when both zones agree. */
export function BothZones({ at, zone }: { at: string; zone: string }) {
  const ms = Date.parse(at);
  const mine = viewerZone();
  const there = formatInZone(ms, zone);
  const here = formatInZone(ms, mine);
  return (
    <span className="sw-oncall-when">
      <time dateTime={at}>{there}</time> <span className="sw-muted">({zone})</span>
      {here !== there && (
        <>
          {' · '}
          <span>{here}</span> <span className="sw-muted">{t('onCall.zones.yourTime')}</span>
        </>
      )}
    </span>
  );
}

export function NowCell({ shift, zone }: { shift: Shift | null; zone: string }) {
  if (!shift) return <span className="sw-muted">{t('onCall.cell.nobody')}</span>;
  return (
    <div>
      <strong>{shift.user_name}</strong>
      <div className="sw-small">{tr('onCall.cell.until', { when: <BothZones at={shift.end} zone={zone} /> })}</div>
    </div>
  );
}

export function NextCell({ shift, zone }: { shift: Shift | null; zone: string }) {
  if (!shift) return <span className="sw-muted">{t('onCall.cell.nobodyNext')}</span>;
  return (
    <div>
      <strong>{shift.user_name}</strong>
      <div className="sw-small">{tr('onCall.cell.from', { when: <BothZones at={shift.start} zone={zone} /> })}</div>
    </div>
  );
}

export function FeedControls(props: { id: string; label: string; issue: () => Promise<Outcome<string>>; revoke: () => Promise<Outcome> }) {
  const [url, setUrl] = useState<string | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function run<T>(call: () => Promise<Outcome<T>>, done: (data: T) => void) {
    setBusy(true);
    const o = await call();
    setBusy(false);
    if (o.ok) done(o.data);
    else setNote({ ok: false, text: o.text });
  }
  return (
    <div className="sw-oncall-stack">
      {url && <CopyValue id={props.id} label={props.label} value={url} />}
      {note && (
        <div className={note.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="status">
          {note.text}
        </div>
      )}
      <div className="sw-row">
        <button
          type="button"
          className="sw-btn sw-btn-small"
          disabled={busy}
          onClick={() =>
            void run(props.issue, (u) => {
              setUrl(u);
              setNote({ ok: true, text: t('onCall.feed.issued') });
            })
          }
        >
          {url ? t('onCall.feed.regenerate') : t('onCall.feed.get')}
        </button>
        <button
          type="button"
          className="sw-btn sw-btn-small"
          disabled={busy}
          onClick={() =>
            void run(props.revoke, () => {
              setUrl(null);
              setNote({ ok: true, text: t('onCall.feed.revoked') });
            })
          }
        >
          {t('onCall.feed.revoke')}
        </button>
      </div>
    </div>
  );
}
