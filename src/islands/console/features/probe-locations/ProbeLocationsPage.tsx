// /settings/probe-locations (issue 27): where checks run from. Super admins create public
// locations (offered to every company) and see each company's private ones (their tokens are
// the company's: a super admin may only delete one, the platform's delete right); a company
// admin creates private locations for the company (probes inside its own network) and sees the
// public ones read-only. A location's managers mint tokens (shown once, with the command that
// starts a probe) and revoke them.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { probeInstallCommand, SLUG_MAX, slugProblem } from '../../../../lib/probe-locations.ts';
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
  if (l.builtin) return 'Built-in';
  if (l.private) return l.company ? `Private · ${l.company.name}` : 'Private';
  return 'Public';
}

/** The location's health as the probe-health job last judged it (offline wins: its old checks say nothing). */
function Health({ l }: { l: ProbeLocation }) {
  if (l.builtin) return <span className="sw-muted">Always online</span>;
  if (l.offline_since)
    return (
      <span className="sw-pill sw-red" title="Every probe of this location is silent: it counts neither way in its monitors' quorum.">
        Offline since {fmtTime(l.offline_since, '')}
      </span>
    );
  if (l.flagged_since)
    return (
      <span
        className="sw-pill sw-amber"
        title="Every check from this location fails while other locations see the same monitors up: it counts neither way in their quorum until one succeeds."
      >
        Flagged since {fmtTime(l.flagged_since, '')}
      </span>
    );
  if (l.probes_total === 0) return <span className="sw-muted">No probe yet</span>;
  return <span className="sw-pill sw-green">Healthy</span>;
}

/** Why a location is not counted, in words, above its probes. */
function HealthNote({ l }: { l: ProbeLocation }) {
  if (l.offline_since)
    return (
      <p className="sw-banner sw-banner-error" role="status">
        Offline since {fmtTime(l.offline_since, '')}: no probe of this location has called since. Its monitors keep their state from their
        other locations; start a probe with a token of this location to bring it back.
      </p>
    );
  if (l.flagged_since)
    return (
      <p className="sw-banner sw-banner-warn" role="status">
        Flagged since {fmtTime(l.flagged_since, '')}: every check from this location fails while other locations see the same monitors up,
        so its own network is suspect (DNS, firewall, way out). It counts neither way in its monitors' quorum until one of its checks
        succeeds.
      </p>
    );
  return null;
}

const openLabel = (l: ProbeLocation) => (l.can_manage_tokens ? 'Probes and tokens' : 'Probes');

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
      <p className="sw-muted">
        {superAdmin
          ? 'Where checks run from. Public locations are offered to every company; private locations belong to one company, whose admins manage their tokens. The built-in engine is the location local.'
          : 'Where checks run from. Private locations run probes inside your own network and are seen by your company only; public locations are offered by the platform. The built-in engine is the location local.'}
      </p>
      <NoteLine note={note} />
      <CreateLocationCard privateLocation={!superAdmin} onCreated={(l) => setNote({ ok: true, text: `Location “${l.name}” created.` })} />
      <Card title="Locations" testId="probe-locations">
        <LoadView load={locations} isEmpty={(d) => d.length === 0} empty="No locations." rows={3}>
          {(list) => (
            <Table
              scrollLabel="Probe locations list"
              aria-label="Probe locations"
              rows={list}
              rowKey={(l) => l.id}
              rowProps={(l) => ({
                'data-testid': `location-${l.slug}`,
                ...(l.id === selectedId ? { 'aria-current': 'true' as const } : {}),
              })}
              columns={[
                { label: 'Name', rowHeader: true, cell: (l) => l.name },
                { label: 'Slug', cell: (l) => <code>{l.slug}</code> },
                { label: 'Kind', cell: (l) => <span className="sw-badge">{kindOf(l)}</span> },
                { label: 'Probes online', cell: (l) => (l.builtin ? 'Runs in the platform' : `${l.probes_online} of ${l.probes_total}`) },
                { label: 'Health', cell: (l) => <Health l={l} /> },
                {
                  label: 'Browser checks',
                  cell: (l) =>
                    l.browser_checks ? (
                      <span className="sw-pill sw-green">Runs them</span>
                    ) : (
                      <span className="sw-muted" title="No probe of this location with Chromium was seen within 24 hours">
                        No browser
                      </span>
                    ),
                },
                {
                  label: 'Actions',
                  className: 'sw-actions',
                  cell: (l) =>
                    l.builtin ? (
                      <span className="sw-muted">No tokens needed</span>
                    ) : (
                      <>
                        <button
                          type="button"
                          className="sw-btn sw-btn-small"
                          aria-label={`${openLabel(l)} of ${l.name}`}
                          onClick={() => select(l.id)}
                        >
                          {openLabel(l)}
                        </button>
                        {l.can_delete && (
                          <button
                            type="button"
                            className="sw-btn sw-btn-small sw-btn-danger"
                            aria-label={`Delete ${l.name}`}
                            onClick={() => setDeleting(l)}
                          >
                            Delete
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
          title="Delete location"
          danger
          confirmLabel="Delete"
          text={`Delete “${deleting.name}” (${deleting.slug})? Its tokens stop working at once and its probes are forgotten.`}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const l = deleting;
            setDeleting(null);
            void deleteLocation(l.id).then((r) =>
              setNote(r.ok ? { ok: true, text: `Location “${l.name}” deleted.` } : { ok: false, text: r.text }),
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
    if (!name.trim()) found.name = 'Name is required.';
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
    <Card title={privateLocation ? 'New private location' : 'New public location'} testId="new-location">
      <form className="sw-form sw-probe-form" onSubmit={submit} noValidate aria-label="Create a location">
        <NoteLine note={failure ? { ok: false, text: failure } : null} />
        <Field id="location-name" label="Name" required error={errors.name}>
          <input id="location-name" value={name} maxLength={100} placeholder="e.g. Frankfurt" onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field id="location-slug" label="Slug" required error={errors.slug} hint="Lower-case letters, digits and hyphens, e.g. eu-west">
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
          Create location
        </button>
      </form>
    </Card>
  );
}

function DetailCard() {
  const detail = useStore($detail);
  const title = detail.status === 'ready' ? `${detail.data.name} (${detail.data.slug})` : 'Location';
  return (
    <Card
      title={title}
      testId="location-detail"
      action={
        <button type="button" className="sw-btn sw-btn-small" onClick={() => select(null)}>
          Close
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
      <h3 className="sw-probe-sub">Probes</h3>
      <Table
        scrollLabel="Probes list"
        aria-label="Probes"
        rows={detail.probes}
        rowKey={(p) => p.id}
        empty="No probe has called in yet. Start one with a token of this location."
        columns={[
          { label: 'Instance', rowHeader: true, cell: (p) => p.instance },
          {
            label: 'State',
            cell: (p) => <span className={`sw-pill ${p.online ? 'sw-green' : 'sw-red'}`}>{p.online ? 'Online' : 'Offline'}</span>,
          },
          { label: 'Last seen', cell: (p) => fmtTime(p.last_seen_at, '') },
          {
            label: 'Version',
            cell: (p) => (p.upgrade ? `${p.version} (upgrade needed)` : p.version),
          },
          { label: 'Checks/s', cell: (p) => (p.checks_per_second === null ? '–' : fmtNumber(p.checks_per_second, 1)) },
          { label: 'Lag', cell: (p) => (p.lag_ms === null ? '–' : `${p.lag_ms} ms`) },
          { label: 'Runs', cell: (p) => (p.capabilities.includes('browser') ? 'Network checks, browser checks' : 'Network checks') },
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
    if (!name.trim()) return setError('Name is required.');
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
      <h3 className="sw-probe-sub">Tokens</h3>
      <NoteLine note={note} />
      {created && (
        <div className="sw-probe-once" data-testid="new-probe-token">
          <p className="sw-banner sw-banner-ok" role="status">
            Token “{created.name}” created. Copy it now: it is not shown again.
          </p>
          <CopyValue id="new-probe-command" label="Start a probe with" value={probeInstallCommand(origin, created.token)} />
          <button type="button" className="sw-btn sw-btn-small" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <form className="sw-form sw-probe-token-form" onSubmit={submit} noValidate aria-label="Create a probe token">
        <Field id="probe-token-name" label="Token name" required error={error}>
          <input id="probe-token-name" value={name} maxLength={100} placeholder="e.g. rack 1" onChange={(e) => setName(e.target.value)} />
        </Field>
        <button type="submit" className="sw-btn sw-btn-primary">
          Create token
        </button>
      </form>
      <Table
        scrollLabel="Probe tokens list"
        aria-label="Probe tokens"
        rows={detail.tokens}
        rowKey={(t) => t.id}
        empty="No tokens yet."
        columns={[
          { label: 'Name', rowHeader: true, cell: (t) => t.name },
          { label: 'Token', cell: (t) => <code>{t.prefix}…</code> },
          { label: 'Created', cell: (t) => fmtTime(t.created_at, '') },
          { label: 'Last used', cell: (t) => fmtTime(t.last_used_at, 'Never') },
          {
            label: 'Actions',
            className: 'sw-actions',
            cell: (t) => (
              <button
                type="button"
                className="sw-btn sw-btn-small sw-btn-danger"
                aria-label={`Revoke ${t.name}`}
                onClick={() => setRevoking({ id: t.id, name: t.name })}
              >
                Revoke
              </button>
            ),
          },
        ]}
      />
      {revoking && (
        <Confirm
          title="Revoke probe token"
          danger
          confirmLabel="Revoke"
          text={`Revoke “${revoking.name}”? Probes using it are refused from their next call.`}
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const t = revoking;
            setRevoking(null);
            void revokeToken(detail.id, t.id).then((r) =>
              setNote(r.ok ? { ok: true, text: `Token “${t.name}” revoked.` } : { ok: false, text: r.text }),
            );
          }}
        />
      )}
    </>
  );
}
