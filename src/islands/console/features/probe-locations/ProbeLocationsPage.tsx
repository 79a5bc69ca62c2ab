// /settings/probe-locations (issue 27): where checks run from. Super admins create public
// locations (offered to every company) and see each company's private ones (their tokens are
// the company's: a super admin may only delete one, the platform's delete right); a company
// admin creates private locations for the company (probes inside its own network) and sees the
// public ones read-only. A location's managers mint tokens (shown once, with the command that
// starts a probe) and revoke them.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { probeInstallCommand, SLUG_MAX, slugProblem } from '../../../../lib/probe-locations.ts';
import { t } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { Card, LoadView } from '../../ui/Card.tsx';
import { CopyValue } from '../../ui/CopyValue.tsx';
import { Field } from '../../ui/Field.tsx';
import { fmtNumber, fmtTime } from '../../ui/format.ts';
import { Confirm } from '../../ui/Modal.tsx';
import type { ScreenProps } from '../../ui/screen-props.ts';
import { Table } from '../../ui/Table.tsx';
import {
  $detail,
  $locations,
  $selectedId,
  createLocation,
  createToken,
  deleteLocation,
  loadLocations,
  type ProbeLocation,
  type ProbeLocationDetail,
  revokeToken,
  select,
} from './store.ts';
import './probe-locations.css';

type Note = { ok: boolean; text: string } | null;

function NoteLine({ note }: { note: Note }) {
  if (!note) return null;
  return (
    <p className={`sw-banner ${note.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role={note.ok ? 'status' : 'alert'}>
      {note.text}
    </p>
  );
}

function kindOf(l: ProbeLocation): string {
  if (l.builtin) return t('probeLocations.kind.builtin');
  if (l.private) return l.company ? `${t('probeLocations.kind.private')} · ${l.company.name}` : t('probeLocations.kind.private');
  return t('probeLocations.kind.public');
}

/** The location's health as the probe-health job last judged it (offline wins: its old checks say nothing). */
function Health({ l }: { l: ProbeLocation }) {
  if (l.builtin) return <span className="sw-muted">{t('probeLocations.health.always')}</span>;
  if (l.offline_since)
    return (
      <span className="sw-pill sw-red" title={t('probeLocations.health.offlineTitle')}>
        {t('probeLocations.health.offlineSince', { at: fmtTime(l.offline_since, '') })}
      </span>
    );
  if (l.flagged_since)
    return (
      <span className="sw-pill sw-amber" title={t('probeLocations.health.flaggedTitle')}>
        {t('probeLocations.health.flaggedSince', { at: fmtTime(l.flagged_since, '') })}
      </span>
    );
  if (l.probes_total === 0) return <span className="sw-muted">{t('probeLocations.health.noProbe')}</span>;
  return <span className="sw-pill sw-green">{t('probeLocations.health.healthy')}</span>;
}

/** Why a location is not counted, in words, above its probes. */
function HealthNote({ l }: { l: ProbeLocation }) {
  if (l.offline_since)
    return (
      <p className="sw-banner sw-banner-error" role="status">
        {t('probeLocations.note.offline', { at: fmtTime(l.offline_since, '') })}
      </p>
    );
  if (l.flagged_since)
    return (
      <p className="sw-banner sw-banner-warn" role="status">
        {t('probeLocations.note.flagged', { at: fmtTime(l.flagged_since, '') })}
      </p>
    );
  return null;
}

const openLabel = (l: ProbeLocation) => (l.can_manage_tokens ? t('probeLocations.probesAndTokens') : t('probeLocations.probes'));

export function ProbeLocationsPage({ title }: ScreenProps) {
  const role = useStore($role);
  const locations = useStore($locations);
  const selectedId = useStore($selectedId);
  const [note, setNote] = useState<Note>(null);
  const [deleting, setDeleting] = useState<ProbeLocation | null>(null);
  useEffect(() => {
    void loadLocations();
    select(null);
  }, []);
  const superAdmin = role === 'super_admin';
  return (
    <div className="sw-admin sw-probe-locations">
      <h2 className="sw-page-title">{title}</h2>
      <p className="sw-muted">{superAdmin ? t('probeLocations.introSuper') : t('probeLocations.intro')}</p>
      <NoteLine note={note} />
      <CreateLocationCard
        privateLocation={!superAdmin}
        onCreated={(l) => setNote({ ok: true, text: t('probeLocations.created', { name: l.name }) })}
      />
      <Card title={t('probeLocations.locations')} testId="probe-locations">
        <LoadView load={locations} isEmpty={(d) => d.length === 0} empty={t('probeLocations.noLocations')} rows={3}>
          {(list) => (
            <Table
              scrollLabel={t('probeLocations.listScroll')}
              aria-label={t('probeLocations.list')}
              rows={list}
              rowKey={(l) => l.id}
              rowProps={(l) => ({
                'data-testid': `location-${l.slug}`,
                ...(l.id === selectedId ? { 'aria-current': 'true' as const } : {}),
              })}
              columns={[
                { label: t('probeLocations.col.name'), rowHeader: true, cell: (l) => l.name },
                { label: t('probeLocations.col.slug'), cell: (l) => <code>{l.slug}</code> },
                { label: t('probeLocations.col.kind'), cell: (l) => <span className="sw-badge">{kindOf(l)}</span> },
                {
                  label: t('probeLocations.col.online'),
                  cell: (l) =>
                    l.builtin ? t('probeLocations.inPlatform') : t('probeLocations.nOfM', { n: l.probes_online, m: l.probes_total }),
                },
                { label: t('probeLocations.col.health'), cell: (l) => <Health l={l} /> },
                {
                  label: t('probeLocations.col.browser'),
                  cell: (l) =>
                    l.browser_checks ? (
                      <span className="sw-pill sw-green">{t('probeLocations.runsThem')}</span>
                    ) : (
                      <span className="sw-muted" title={t('probeLocations.noBrowserTitle')}>
                        {t('probeLocations.noBrowser')}
                      </span>
                    ),
                },
                {
                  label: t('probeLocations.col.actions'),
                  className: 'sw-actions',
                  cell: (l) =>
                    l.builtin ? (
                      <span className="sw-muted">{t('probeLocations.noTokensNeeded')}</span>
                    ) : (
                      <>
                        <button
                          type="button"
                          className="sw-btn sw-btn-small"
                          aria-label={t('probeLocations.openOf', { what: openLabel(l), name: l.name })}
                          onClick={() => select(l.id)}
                        >
                          {openLabel(l)}
                        </button>
                        {l.can_delete && (
                          <button
                            type="button"
                            className="sw-btn sw-btn-small sw-btn-danger"
                            aria-label={t('probeLocations.deleteOne', { name: l.name })}
                            onClick={() => setDeleting(l)}
                          >
                            {t('probeLocations.delete')}
                          </button>
                        )}
                      </>
                    ),
                },
              ]}
            />
          )}
        </LoadView>
      </Card>
      {selectedId && <DetailCard />}
      {deleting && (
        <Confirm
          title={t('probeLocations.deleteTitle')}
          danger
          confirmLabel={t('probeLocations.delete')}
          text={t('probeLocations.confirmDelete', { name: deleting.name, slug: deleting.slug })}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const l = deleting;
            setDeleting(null);
            void deleteLocation(l.id).then((r) =>
              setNote(r.ok ? { ok: true, text: t('probeLocations.deleted', { name: l.name }) } : { ok: false, text: r.text }),
            );
          }}
        />
      )}
    </div>
  );
}

function CreateLocationCard({ privateLocation, onCreated }: { privateLocation: boolean; onCreated: (l: ProbeLocation) => void }) {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = t('probeLocations.nameRequired');
    const bad = slugProblem(slug.trim());
    if (bad) found.slug = bad;
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    const r = await createLocation({ name, slug, private: privateLocation });
    setBusy(false);
    if (r.ok) {
      setName('');
      setSlug('');
      onCreated(r.data);
    } else {
      setErrors(r.fields);
      setFailure(r.text);
    }
  }
  return (
    <Card title={privateLocation ? t('probeLocations.newPrivate') : t('probeLocations.newPublic')} testId="new-location">
      <form className="sw-form sw-probe-form" onSubmit={submit} noValidate aria-label={t('probeLocations.createForm')}>
        <NoteLine note={failure ? { ok: false, text: failure } : null} />
        <Field id="location-name" label={t('probeLocations.col.name')} required error={errors.name}>
          <input
            id="location-name"
            value={name}
            maxLength={100}
            placeholder={t('probeLocations.namePlaceholder')}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field id="location-slug" label={t('probeLocations.col.slug')} required error={errors.slug} hint={t('probeLocations.slugHint')}>
          <input
            id="location-slug"
            value={slug}
            maxLength={SLUG_MAX}
            placeholder="eu-west"
            aria-describedby="location-slug-hint"
            onChange={(e) => setSlug(e.target.value)}
          />
        </Field>
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {t('probeLocations.create')}
        </button>
      </form>
    </Card>
  );
}

function DetailCard() {
  const detail = useStore($detail);
  const title = detail.status === 'ready' ? `${detail.data.name} (${detail.data.slug})` : t('probeLocations.location');
  return (
    <Card
      title={title}
      testId="location-detail"
      action={
        <button type="button" className="sw-btn sw-btn-small" onClick={() => select(null)}>
          {t('probeLocations.close')}
        </button>
      }
    >
      <LoadView load={detail} isEmpty={() => false} empty="" rows={3}>
        {(d) => (
          <>
            <HealthNote l={d} />
            <ProbesTable detail={d} />
            {d.can_manage_tokens && <TokensSection detail={d} />}
          </>
        )}
      </LoadView>
    </Card>
  );
}

function ProbesTable({ detail }: { detail: ProbeLocationDetail }) {
  return (
    <>
      <h3 className="sw-probe-sub">{t('probeLocations.probes')}</h3>
      <Table
        scrollLabel={t('probeLocations.probesScroll')}
        aria-label={t('probeLocations.probes')}
        rows={detail.probes}
        rowKey={(p) => p.id}
        empty={t('probeLocations.noProbes')}
        columns={[
          { label: t('probeLocations.col.instance'), rowHeader: true, cell: (p) => p.instance },
          {
            label: t('probeLocations.col.state'),
            cell: (p) => (
              <span className={`sw-pill ${p.online ? 'sw-green' : 'sw-red'}`}>
                {p.online ? t('probeLocations.online') : t('probeLocations.offline')}
              </span>
            ),
          },
          { label: t('probeLocations.col.lastSeen'), cell: (p) => fmtTime(p.last_seen_at, '') },
          {
            label: t('probeLocations.col.version'),
            cell: (p) => (p.upgrade ? t('probeLocations.upgrade', { version: p.version }) : p.version),
          },
          { label: t('probeLocations.col.rate'), cell: (p) => (p.checks_per_second === null ? '–' : fmtNumber(p.checks_per_second, 1)) },
          { label: t('probeLocations.col.lag'), cell: (p) => (p.lag_ms === null ? '–' : t('probeLocations.ms', { ms: p.lag_ms })) },
          {
            label: t('probeLocations.col.runs'),
            cell: (p) => (p.capabilities.includes('browser') ? t('probeLocations.runsBoth') : t('probeLocations.runsNetwork')),
          },
        ]}
      />
    </>
  );
}

function TokensSection({ detail }: { detail: ProbeLocationDetail }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [note, setNote] = useState<Note>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const origin = typeof location === 'undefined' ? '' : location.origin;
  async function submit(e: FormEvent) {
    e.preventDefault();
    setNote(null);
    if (!name.trim()) return setError(t('probeLocations.nameRequired'));
    setError(undefined);
    const r = await createToken(detail.id, name);
    if (r.ok) {
      setCreated({ name: r.data.name, token: r.data.token });
      setName('');
    } else {
      setError(r.fields.name);
      setNote({ ok: false, text: r.text });
    }
  }
  return (
    <>
      <h3 className="sw-probe-sub">{t('probeLocations.tokens')}</h3>
      <NoteLine note={note} />
      {created && (
        <div className="sw-probe-once" data-testid="new-probe-token">
          <p className="sw-banner sw-banner-ok" role="status">
            {t('probeLocations.tokenCreated', { name: created.name })}
          </p>
          <CopyValue id="new-probe-command" label={t('probeLocations.startWith')} value={probeInstallCommand(origin, created.token)} />
          <button type="button" className="sw-btn sw-btn-small" onClick={() => setCreated(null)}>
            {t('probeLocations.done')}
          </button>
        </div>
      )}
      <form className="sw-form sw-probe-token-form" onSubmit={submit} noValidate aria-label={t('probeLocations.createTokenForm')}>
        <Field id="probe-token-name" label={t('probeLocations.tokenName')} required error={error}>
          <input
            id="probe-token-name"
            value={name}
            maxLength={100}
            placeholder={t('probeLocations.tokenPlaceholder')}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <button type="submit" className="sw-btn sw-btn-primary">
          {t('probeLocations.createToken')}
        </button>
      </form>
      <Table
        scrollLabel={t('probeLocations.tokensScroll')}
        aria-label={t('probeLocations.tokensList')}
        rows={detail.tokens}
        rowKey={(tok) => tok.id}
        empty={t('probeLocations.noTokens')}
        columns={[
          { label: t('probeLocations.col.name'), rowHeader: true, cell: (tok) => tok.name },
          { label: t('probeLocations.col.token'), cell: (tok) => <code>{tok.prefix}…</code> },
          { label: t('probeLocations.col.created'), cell: (tok) => fmtTime(tok.created_at, '') },
          { label: t('probeLocations.col.lastUsed'), cell: (tok) => fmtTime(tok.last_used_at, t('probeLocations.never')) },
          {
            label: t('probeLocations.col.actions'),
            className: 'sw-actions',
            cell: (tok) => (
              <button
                type="button"
                className="sw-btn sw-btn-small sw-btn-danger"
                aria-label={t('probeLocations.revokeOne', { name: tok.name })}
                onClick={() => setRevoking({ id: tok.id, name: tok.name })}
              >
                {t('probeLocations.revoke')}
              </button>
            ),
          },
        ]}
      />
      {revoking && (
        <Confirm
          title={t('probeLocations.revokeTitle')}
          danger
          confirmLabel={t('probeLocations.revoke')}
          text={t('probeLocations.confirmRevoke', { name: revoking.name })}
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const gone = revoking;
            setRevoking(null);
            void revokeToken(detail.id, gone.id).then((r) =>
              setNote(r.ok ? { ok: true, text: t('probeLocations.revoked', { name: gone.name }) } : { ok: false, text: r.text }),
            );
          }}
        />
      )}
    </>
  );
}
