// /settings/alerts: the company's alert channels. Company admins create, edit, enable or
// disable, test and rotate a webhook's secret (disable instead of delete); super admins also
// delete, and create only in the tenant chosen in the selector. Viewers never get here (settings).
// Below them, the sources of incoming alerts (IncomingSection.tsx).
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { ListPage } from '../../ui/ListPage.tsx';
import { Confirm } from '../../ui/Modal.tsx';
import { CHANNEL_TYPES, eventLabel } from './channel-types.ts';
import { ChannelDialog, SecretOnce } from './ChannelDialog.tsx';
import { IncomingSection } from './IncomingSection.tsx';
import {
  $alertMonitors,
  $channels,
  $channelsAlert,
  $testProgress,
  deleteChannel,
  loadAlertMonitors,
  loadChannels,
  rotateSecret,
  sendTest,
  setEnabled,
  type Channel,
  type TestProgress,
} from './store.ts';

function testText(p: NonNullable<TestProgress>): string {
  if (p.state === 'queued' || p.state === 'pending') return 'Test queued…';
  if (p.state === 'delivered') return `Test delivered${p.code ? ` (HTTP ${p.code})` : ''}.`;
  return `Test ${p.state}${p.error ? `: ${p.error}` : ''}.`;
}

export function ChannelsPage() {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const channels = useStore($channels);
  const monitors = useStore($alertMonitors);
  const alert = useStore($channelsAlert);
  const test = useStore($testProgress);
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [confirm, setConfirm] = useState<{ c: Channel; verb: 'disable' | 'delete' | 'rotate' } | null>(null);
  const superAdmin = role === 'super_admin';
  const scope = superAdmin ? tenant : null;
  const mayUpdate = can(role, 'update', 'settings');
  const mayCreate = can(role, 'create', 'settings') && (!superAdmin || !!tenant);
  const mayDelete = can(role, 'delete', 'settings');
  useEffect(() => {
    $channelsAlert.set(null);
    $testProgress.set(null);
    void loadChannels(scope);
    void loadAlertMonitors(scope);
  }, [scope]);
  const monitorsText = (ids: string[] | null) =>
    ids === null ? 'All monitors' : ids.map((id) => monitors.find((m) => m.id === id)?.name ?? 'A monitor').join(', ');
  const columns = ['Channel', 'Type', 'Events', 'Monitors', 'State'];
  if (mayUpdate) columns.push('Actions');
  return (
    <ListPage
      crumb="Alerts"
      title="Alert channels"
      createLabel={mayCreate ? 'New channel' : undefined}
      onCreate={
        mayCreate
          ? () => {
              $channelsAlert.set(null);
              setEditing('new');
            }
          : undefined
      }
      note={
        superAdmin && !tenant
          ? 'Choose a tenant in the selector to create a channel.'
          : 'Where alerts go when a monitor goes down or recovers. Receipts of every send are under Delivery receipts.'
      }
      toolbar={
        <p>
          <a className="sw-link" href="/notifications/deliveries">
            Delivery receipts
          </a>
        </p>
      }
      alert={editing ? null : alert}
      load={channels}
      onRetry={() => void loadChannels(scope)}
      listTitle="Channels"
      listId="alert-channels"
      empty="No alert channels yet."
      columns={columns}
      row={(c) => {
        const cells = [
          <div>
            <strong>{c.name}</strong>
            {test?.channelId === c.id && (
              <div role="status" className="sw-muted">
                {testText(test)}
              </div>
            )}
          </div>,
          CHANNEL_TYPES[c.type]?.label ?? c.type,
          c.events.map(eventLabel).join(', '),
          monitorsText(c.monitor_ids),
          <span className={`sw-pill ${c.enabled ? 'sw-green' : 'sw-grey'}`}>{c.enabled ? 'Enabled' : 'Disabled'}</span>,
        ];
        if (mayUpdate)
          cells.push(
            <>
              <button type="button" className="sw-btn sw-btn-small" aria-label={`Edit ${c.name}`} onClick={() => setEditing(c)}>
                Edit
              </button>
              <button
                type="button"
                className="sw-btn sw-btn-small"
                aria-label={`Send test to ${c.name}`}
                onClick={() => void sendTest(c, scope)}
              >
                Send test
              </button>
              {c.enabled ? (
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  aria-label={`Disable ${c.name}`}
                  onClick={() => setConfirm({ c, verb: 'disable' })}
                >
                  Disable
                </button>
              ) : (
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  aria-label={`Enable ${c.name}`}
                  onClick={() => void setEnabled(c, true, scope)}
                >
                  Enable
                </button>
              )}
              {c.has_secret && (
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  aria-label={`Rotate secret of ${c.name}`}
                  onClick={() => setConfirm({ c, verb: 'rotate' })}
                >
                  Rotate secret
                </button>
              )}
              {mayDelete && (
                <button
                  type="button"
                  className="sw-btn sw-btn-small sw-btn-danger"
                  aria-label={`Delete ${c.name}`}
                  onClick={() => setConfirm({ c, verb: 'delete' })}
                >
                  Delete
                </button>
              )}
            </>,
          );
        return { key: c.id, cells };
      }}
    >
      <IncomingSection tenant={scope} mayChange={mayUpdate} mayCreate={mayCreate} />
      {editing && (
        <ChannelDialog
          channel={editing === 'new' ? null : editing}
          tenant={scope}
          onClose={(created) => {
            setEditing(null);
            if (created?.secret) setSecret({ name: created.name, secret: created.secret });
          }}
        />
      )}
      {secret && <SecretOnce name={secret.name} secret={secret.secret} onClose={() => setSecret(null)} />}
      {confirm && (
        <Confirm
          title={{ disable: 'Disable channel', delete: 'Delete channel', rotate: 'Rotate secret' }[confirm.verb]}
          danger={confirm.verb !== 'rotate'}
          confirmLabel={{ disable: 'Disable', delete: 'Delete', rotate: 'Rotate' }[confirm.verb]}
          text={
            {
              disable: `Disable "${confirm.c.name}"? It sends nothing until enabled again; its settings and receipts stay.`,
              delete: `Delete "${confirm.c.name}" and all its receipts? This cannot be undone.`,
              rotate: `Replace the signing secret of "${confirm.c.name}"? Receivers must use the new one from now on.`,
            }[confirm.verb]
          }
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const { c, verb } = confirm;
            setConfirm(null);
            if (verb === 'disable') void setEnabled(c, false, scope);
            else if (verb === 'delete') void deleteChannel(c, scope);
            else
              void rotateSecret(c).then((o) =>
                o.ok && o.data.secret
                  ? setSecret({ name: c.name, secret: o.data.secret })
                  : !o.ok && $channelsAlert.set({ ok: false, text: o.text }),
              );
          }}
        />
      )}
    </ListPage>
  );
}
