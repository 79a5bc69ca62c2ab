// /notifications (spec section 2).
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { fmtTime } from '../../ui/format.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { onLive } from '../../stores/live.ts';
import { Confirm } from '../../ui/Modal.tsx';
import {
  $counts,
  $filters,
  $notifications,
  $notificationsLoading,
  $preferences,
  clearRead,
  deleteNotification,
  loadNotifications,
  loadPreferences,
  markAllRead,
  markRead,
  notificationText,
  openNotification,
  SEVERITIES,
  setFilter,
  setPreference,
  TYPES,
  type Filters,
  type Notification,
  $webhookSecret,
  saveAddress,
  type PreferenceSwitch,
} from './store.ts';

const SEVERITY_MARK: Record<string, string> = { critical: '!!', high: '!', medium: '~', low: '-', info: 'i' };
const PREF_LABELS: Array<[PreferenceSwitch, string]> = [
  ['email_enabled', 'Email notifications'],
  ['sms_enabled', 'SMS notifications'],
  ['webhook_enabled', 'Webhook notifications'],
  ['monitor_incidents', 'Monitor incidents'],
  ['ssl_warnings', 'SSL warnings'],
  ['dns_warnings', 'DNS warnings'],
  ['security_alerts', 'Security alerts'],
  ['system_notifications', 'System notifications'],
];

// A public route of the spec, shown only to a signed-in user: a visitor is sent to sign in first
// and back here afterwards (access.ts), so this screen always has a user.
export function NotificationsPage() {
  return <Notifications />;
}

function Notifications() {
  const list = useStore($notifications);
  const loading = useStore($notificationsLoading);
  const counts = useStore($counts);
  const filters = useStore($filters);
  const [showPrefs, setShowPrefs] = useState(false);
  const [confirmingClear, setConfirmingClear] = useState(false);
  useEffect(() => {
    void loadNotifications();
  }, []);
  useEffect(
    () =>
      onLive((m) => {
        if (m.type === 'notifications' || m.type === 'resync') void loadNotifications();
      }),
    [],
  );
  return (
    <div className="sw-notifications">
      <div className="sw-page-head sw-row-between">
        <div>
          <h2 className="sw-page-title">Notifications</h2>
          <p className="sw-muted" data-testid="notification-counts">
            {counts.unread} unread · {counts.read} read
          </p>
        </div>
        <div className="sw-row">
          {counts.unread > 0 && (
            <button type="button" className="sw-btn" onClick={() => void markAllRead()}>
              Mark all read
            </button>
          )}
          {counts.read > 0 && (
            <button type="button" className="sw-btn" onClick={() => setConfirmingClear(true)}>
              Clear read
            </button>
          )}
          <button type="button" className="sw-btn" aria-expanded={showPrefs} onClick={() => setShowPrefs(!showPrefs)}>
            Preferences
          </button>
        </div>
      </div>
      {confirmingClear && (
        // deleting is final: the read notifications go for good, so ask first
        <Confirm
          title="Clear read notifications"
          text={`Delete the ${counts.read} read notification${counts.read === 1 ? '' : 's'}? This cannot be undone.`}
          confirmLabel="Delete read"
          danger
          onCancel={() => setConfirmingClear(false)}
          onConfirm={() => {
            setConfirmingClear(false);
            void clearRead();
          }}
        />
      )}
      {showPrefs && <PreferencesPanel />}
      <div className="sw-filters">
        <label>
          Status
          <select value={filters.status} onChange={(e) => setFilter('status', e.target.value as Filters['status'])}>
            <option value="">All</option>
            <option value="unread">Unread</option>
            <option value="read">Read</option>
          </select>
        </label>
        <label>
          Severity
          <select value={filters.severity} onChange={(e) => setFilter('severity', e.target.value as Filters['severity'])}>
            <option value="">All</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Type
          <select value={filters.type} onChange={(e) => setFilter('type', e.target.value as Filters['type'])}>
            <option value="">All</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </div>
      {loading && list.length === 0 ? (
        <Spinner />
      ) : list.length === 0 ? (
        <div className="sw-panel sw-center-text">
          <h3>No notifications</h3>
          <p>You're all caught up! No notifications to display.</p>
        </div>
      ) : (
        <ul className="sw-cards">
          {list.map((n) => (
            <NotificationCard key={n.id} n={n} />
          ))}
        </ul>
      )}
    </div>
  );
}

function NotificationCard({ n }: { n: Notification }) {
  return (
    <li className={n.is_read ? 'sw-notification' : 'sw-notification sw-unread'} data-testid="notification-card">
      <button type="button" className="sw-notification-open" onClick={() => void openNotification(n)}>
        <span className={`sw-sev-icon sw-sev-bg-${n.severity}`} aria-hidden="true">
          {SEVERITY_MARK[n.severity] ?? 'i'}
        </span>
        <span className="sw-notification-main">
          <strong className="sw-notification-title">{n.title}</strong>
          <span className="sw-muted">
            {fmtTime(n.created_at, '')} · <span className={`sw-sev sw-sev-${n.severity}`}>{n.severity}</span> · {n.type}
          </span>
          {notificationText(n).map((line, i) => (
            <span key={line} className={i === 0 ? undefined : 'sw-muted'}>
              {line}
            </span>
          ))}
        </span>
      </button>
      <div className="sw-actions">
        {!n.is_read && (
          <button type="button" className="sw-btn sw-btn-small" aria-label={`Mark read: ${n.title}`} onClick={() => void markRead(n.id)}>
            Mark read
          </button>
        )}
        <button
          type="button"
          className="sw-btn sw-btn-small sw-btn-danger"
          aria-label={`Delete ${n.title}`}
          onClick={() => void deleteNotification(n.id)}
        >
          Delete
        </button>
      </div>
    </li>
  );
}

/** The phone for personal SMS or the personal webhook's URL, saved on its own with the server's answer shown. */
function AddressField({
  field,
  value,
  label,
  type,
  placeholder,
}: {
  field: 'phone' | 'webhook_url';
  value: string | null;
  label: string;
  type: string;
  placeholder: string;
}) {
  const [text, setText] = useState(value ?? '');
  const [error, setError] = useState<string | null>(null);
  const id = `pref-${field}`;
  return (
    <form
      className="sw-span-all sw-inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        void saveAddress(field, text).then(setError);
      }}
      noValidate
    >
      <div className="sw-field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type={type}
          value={text}
          placeholder={placeholder}
          aria-describedby={error ? `${id}-error` : undefined}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        {error && (
          <small className="sw-field-error" role="alert" id={`${id}-error`}>
            {error}
          </small>
        )}
      </div>
      <button type="submit" className="sw-btn">
        {field === 'phone' ? 'Save phone' : 'Save webhook'}
      </button>
    </form>
  );
}

function PreferencesPanel() {
  const prefs = useStore($preferences);
  const secret = useStore($webhookSecret);
  useEffect(() => {
    void loadPreferences();
  }, []);
  return (
    <section className="sw-card" aria-labelledby="prefs-title">
      <header className="sw-card-head">
        <h3 id="prefs-title">Notification Preferences</h3>
      </header>
      {!prefs ? (
        <p className="sw-muted">Loading…</p>
      ) : (
        <div className="sw-prefs">
          {PREF_LABELS.map(([key, label]) => (
            <label key={key} className="sw-switch">
              <input type="checkbox" role="switch" checked={prefs[key]} onChange={(e) => void setPreference(key, e.target.checked)} />
              <span>{label}</span>
            </label>
          ))}
          <AddressField field="phone" value={prefs.phone} label="Phone for SMS alerts" type="tel" placeholder="+14155550123" />
          <AddressField
            field="webhook_url"
            value={prefs.webhook_url}
            label="Webhook URL for your alerts"
            type="url"
            placeholder="https://example.com/hooks/me"
          />
          {secret && (
            <p className="sw-banner sw-span-all" role="status">
              Signing secret of your webhook, shown this once (verify with any Standard Webhooks library):{' '}
              <code className="sw-wrap-anywhere">{secret}</code>
            </p>
          )}
          <p className="sw-muted sw-small sw-span-all">
            Incidents and warnings of the categories switched on also reach you by email (to your sign-in address), by SMS (to the phone
            above, when the operator has set up SMS) and by webhook (to the URL above, signed with your secret).
          </p>
        </div>
      )}
    </section>
  );
}
