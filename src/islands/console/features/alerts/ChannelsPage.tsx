// /settings/alerts: the company's alert channels. Company admins create, edit, enable or
// disable, test and rotate a webhook's secret (disable instead of delete); super admins also
// delete, and create only in the tenant chosen in the selector. Viewers never get here (settings).
// Below them, the sources of incoming alerts (IncomingSection.tsx).
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { channelTypeLabel } from '../../form-words.ts';
import { t } from '../../i18n.ts';
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
  if (p.state === 'queued' || p.state === 'pending') return t('alerts.test.queued');
  if (p.state === 'delivered') return p.code ? t('alerts.test.deliveredCode', { code: p.code }) : t('alerts.test.delivered');
  return p.error ? t('alerts.test.stateError', { state: p.state, error: p.error }) : t('alerts.test.state', { state: p.state });
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
    ids === null ? t('alerts.allMonitors') : ids.map((id) => monitors.find((m) => m.id === id)?.name ?? t('alerts.aMonitor')).join(', ');
  const columns = [t('alerts.col.channel'), t('alerts.col.type'), t('alerts.col.events'), t('alerts.col.monitors'), t('alerts.col.state')];
  if (mayUpdate) columns.push(t('alerts.col.actions'));
  return (
    <ListPage
      crumb={t('alerts.crumb')}
      title={t('alerts.title')}
      createLabel={mayCreate ? t('alerts.newChannel') : undefined}
      onCreate={
        mayCreate
          ? () => {
              $channelsAlert.set(null);
              setEditing('new');
            }
          : undefined
      }
      note={superAdmin && !tenant ? t('alerts.chooseTenant') : t('alerts.note')}
      toolbar={
        <p>
          <a className="sw-link" href="/notifications/deliveries">
            {t('alerts.receipts')}
          </a>
        </p>
      }
      alert={editing ? null : alert}
      load={channels}
      onRetry={() => void loadChannels(scope)}
      listTitle={t('alerts.listTitle')}
      listId="alert-channels"
      empty={t('alerts.empty')}
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
          CHANNEL_TYPES[c.type] ? channelTypeLabel(c.type) : c.type,
          c.events.map(eventLabel).join(', '),
          monitorsText(c.monitor_ids),
          <span className={`sw-pill ${c.enabled ? 'sw-green' : 'sw-grey'}`}>{c.enabled ? t('alerts.enabled') : t('alerts.disabled')}</span>,
        ];
        if (mayUpdate)
          cells.push(
            <>
              <button
                type="button"
                className="sw-btn sw-btn-small"
                aria-label={t('alerts.editOne', { name: c.name })}
                onClick={() => setEditing(c)}
              >
                {t('alerts.edit')}
              </button>
              <button
                type="button"
                className="sw-btn sw-btn-small"
                aria-label={t('alerts.sendTestOne', { name: c.name })}
                onClick={() => void sendTest(c, scope)}
              >
                {t('alerts.sendTest')}
              </button>
              {c.enabled ? (
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  aria-label={t('alerts.disableOne', { name: c.name })}
                  onClick={() => setConfirm({ c, verb: 'disable' })}
                >
                  {t('alerts.disable')}
                </button>
              ) : (
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  aria-label={t('alerts.enableOne', { name: c.name })}
                  onClick={() => void setEnabled(c, true, scope)}
                >
                  {t('alerts.enable')}
                </button>
              )}
              {c.has_secret && (
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  aria-label={t('alerts.rotateOne', { name: c.name })}
                  onClick={() => setConfirm({ c, verb: 'rotate' })}
                >
                  {t('alerts.rotateSecret')}
                </button>
              )}
              {mayDelete && (
                <button
                  type="button"
                  className="sw-btn sw-btn-small sw-btn-danger"
                  aria-label={t('alerts.deleteOne', { name: c.name })}
                  onClick={() => setConfirm({ c, verb: 'delete' })}
                >
                  {t('alerts.delete')}
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
          title={
            { disable: t('alerts.confirm.disableTitle'), delete: t('alerts.confirm.deleteTitle'), rotate: t('alerts.rotateSecret') }[
              confirm.verb
            ]
          }
          danger={confirm.verb !== 'rotate'}
          confirmLabel={{ disable: t('alerts.disable'), delete: t('alerts.delete'), rotate: t('alerts.rotate') }[confirm.verb]}
          text={
            {
              disable: t('alerts.confirm.disable', { name: confirm.c.name }),
              delete: t('alerts.confirm.delete', { name: confirm.c.name }),
              rotate: t('alerts.confirm.rotate', { name: confirm.c.name }),
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
