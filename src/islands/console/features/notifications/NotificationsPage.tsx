// /notifications (spec section 2).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { NOTIFICATION_TYPE_LABELS, SEVERITY_LABELS, labelOf } from '../../../../lib/labels.ts';
import { t, tr, type ConsoleKey } from '../../i18n.ts';
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
  savePreferences,
  TYPES,
  CATEGORY_SWITCHES,
  DELIVERY_SWITCHES,
  type Filters,
  type Notification,
  $webhookSecret,
  saveAddress,
  type PreferenceSwitch,
  type PreferenceSwitches,
  type Preferences,
} from './store.ts';

const SEVERITY_MARK: Record<string, string> = { critical: '!!', high: '!', medium: '~', low: '-', info: 'i' };

// The words of severities and types in the console's language; a value the console does not know
// yet keeps the shared English label.
const SEVERITY_KEY: Record<string, ConsoleKey> = {
  critical: 'notifications.severity.critical',
  high: 'notifications.severity.high',
  medium: 'notifications.severity.medium',
  low: 'notifications.severity.low',
  info: 'notifications.severity.info',
};
const TYPE_KEY: Record<string, ConsoleKey> = {
  monitor_incident: 'notifications.type.monitorIncident',
  ssl_warning: 'notifications.type.sslWarning',
  dns_warning: 'notifications.type.dnsWarning',
  security_report: 'notifications.type.securityReport',
  system: 'notifications.type.system',
  anomaly: 'notifications.type.anomaly',
};
const severityLabel = (s: string) => {
  const key = SEVERITY_KEY[s];
  return key ? t(key) : labelOf(SEVERITY_LABELS, s);
};
const typeLabel = (type: string) => {
  const key = TYPE_KEY[type];
  return key ? t(key) : labelOf(NOTIFICATION_TYPE_LABELS, type);
};

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
          <h2 className="sw-page-title">{t('notifications.page.title')}</h2>
          <p className="sw-muted" data-testid="notification-counts">
            {t('notifications.page.counts', { unread: counts.unread, read: counts.read })}
          </p>
        </div>
        <div className="sw-row">
          {counts.unread > 0 && (
            <button type="button" className="sw-btn" onClick={() => void markAllRead()}>
              {t('notifications.page.markAllRead')}
            </button>
          )}
          {counts.read > 0 && (
            <button type="button" className="sw-btn" onClick={() => setConfirmingClear(true)}>
              {t('notifications.page.clearRead')}
            </button>
          )}
          <button type="button" className="sw-btn" aria-expanded={showPrefs} onClick={() => setShowPrefs(!showPrefs)}>
            {t('notifications.page.preferences')}
          </button>
        </div>
      </div>
      {confirmingClear && (
        // deleting is final: the read notifications go for good, so ask first
        <Confirm
          title={t('notifications.clear.title')}
          text={t('notifications.clear.text', { count: counts.read })}
          confirmLabel={t('notifications.clear.confirm')}
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
          {t('notifications.filter.status')}
          <select value={filters.status} onChange={(e) => setFilter('status', e.target.value as Filters['status'])}>
            <option value="">{t('notifications.filter.all')}</option>
            <option value="unread">{t('notifications.filter.unread')}</option>
            <option value="read">{t('notifications.filter.read')}</option>
          </select>
        </label>
        <label>
          {t('notifications.filter.severity')}
          <select value={filters.severity} onChange={(e) => setFilter('severity', e.target.value as Filters['severity'])}>
            <option value="">{t('notifications.filter.all')}</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {severityLabel(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('notifications.filter.type')}
          <select value={filters.type} onChange={(e) => setFilter('type', e.target.value as Filters['type'])}>
            <option value="">{t('notifications.filter.all')}</option>
            {TYPES.map((type) => (
              <option key={type} value={type}>
                {typeLabel(type)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {loading && list.length === 0 ? (
        <Spinner />
      ) : list.length === 0 ? (
        <div className="sw-panel sw-center-text">
          <h3>{t('notifications.list.emptyTitle')}</h3>
          <p>{t('notifications.list.emptyText')}</p>
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
          {SEVERITY_MARK[n.severity] ?? SEVERITY_MARK.info}
        </span>
        <span className="sw-notification-main">
          <strong className="sw-notification-title">{n.title}</strong>
          <span className="sw-muted">
            {fmtTime(n.created_at, '')} · <span className={`sw-sev sw-sev-${n.severity}`}>{severityLabel(n.severity)}</span> ·{' '}
            {typeLabel(n.type)}
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
          <button
            type="button"
            className="sw-btn sw-btn-small"
            aria-label={t('notifications.card.markReadLabel', { title: n.title })}
            onClick={() => void markRead(n.id)}
          >
            {t('notifications.card.markRead')}
          </button>
        )}
        <button
          type="button"
          className="sw-btn sw-btn-small sw-btn-danger"
          aria-label={t('notifications.card.deleteLabel', { title: n.title })}
          onClick={() => void deleteNotification(n.id)}
        >
          {t('notifications.card.delete')}
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
        {field === 'phone' ? t('notifications.prefs.savePhone') : t('notifications.prefs.saveWebhook')}
      </button>
    </form>
  );
}

const switchesOf = (p: Preferences): PreferenceSwitches =>
  Object.fromEntries([...DELIVERY_SWITCHES, ...CATEGORY_SWITCHES].map(([k]) => [k, p[k]])) as PreferenceSwitches;

/** One group of switches: a fieldset with its legend and what the group decides. */
function SwitchGroup(p: {
  legend: string;
  hint: string;
  switches: ReadonlyArray<[PreferenceSwitch, ConsoleKey]>;
  draft: PreferenceSwitches;
  onChange: (key: PreferenceSwitch, on: boolean) => void;
}) {
  return (
    <fieldset className="sw-pref-group">
      <legend>{p.legend}</legend>
      <p className="sw-muted sw-small">{p.hint}</p>
      {p.switches.map(([key, label]) => (
        <label key={key} className="sw-switch">
          <input type="checkbox" role="switch" checked={p.draft[key]} onChange={(e) => p.onChange(key, e.target.checked)} />
          <span>{t(label)}</span>
        </label>
      ))}
    </fieldset>
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
        <h3 id="prefs-title">{t('notifications.prefs.title')}</h3>
      </header>
      {!prefs ? (
        <p className="sw-muted">{t('notifications.prefs.loading')}</p>
      ) : (
        <>
          <SwitchesForm prefs={prefs} />
          <div className="sw-prefs">
            <h4 className="sw-span-all sw-pref-subtitle">{t('notifications.prefs.addresses')}</h4>
            <AddressField field="phone" value={prefs.phone} label={t('notifications.prefs.phone')} type="tel" placeholder="+14155550123" />
            <AddressField
              field="webhook_url"
              value={prefs.webhook_url}
              label={t('notifications.prefs.webhookUrl')}
              type="url"
              placeholder="https://example.com/hooks/me"
            />
            {secret && (
              <p className="sw-banner sw-span-all" role="status">
                {tr('notifications.prefs.secret', { secret: <code className="sw-wrap-anywhere">{secret}</code> })}
              </p>
            )}
            <p className="sw-muted sw-small sw-span-all">{t('notifications.prefs.explain')}</p>
          </div>
        </>
      )}
    </section>
  );
}

/** The switches, drafted on the screen and kept with Save, which says when they are kept. */
function SwitchesForm({ prefs }: { prefs: Preferences }) {
  const [draft, setDraft] = useState<PreferenceSwitches>(() => switchesOf(prefs));
  const [state, setState] = useState<{ busy: boolean; saved: boolean; error: string | null }>({ busy: false, saved: false, error: null });
  const change = (key: PreferenceSwitch, on: boolean) => {
    setDraft({ ...draft, [key]: on });
    setState({ busy: false, saved: false, error: null });
  };
  async function submit(e: FormEvent) {
    e.preventDefault();
    setState({ busy: true, saved: false, error: null });
    const error = await savePreferences(draft);
    setState({ busy: false, saved: !error, error });
  }
  const unsaved = (Object.keys(draft) as PreferenceSwitch[]).some((k) => draft[k] !== prefs[k]);
  return (
    <form onSubmit={submit} aria-label={t('notifications.prefs.formLabel')} noValidate>
      <div className="sw-pref-groups">
        <SwitchGroup
          legend={t('notifications.prefs.delivery')}
          hint={t('notifications.prefs.deliveryHint')}
          switches={DELIVERY_SWITCHES}
          draft={draft}
          onChange={change}
        />
        <SwitchGroup
          legend={t('notifications.prefs.categories')}
          hint={t('notifications.prefs.categoriesHint')}
          switches={CATEGORY_SWITCHES}
          draft={draft}
          onChange={change}
        />
      </div>
      <div className="sw-pref-actions">
        <button type="submit" className="sw-btn sw-btn-primary" disabled={state.busy}>
          {state.busy ? t('notifications.prefs.saving') : t('notifications.prefs.save')}
        </button>
        <span role="status" className={state.error ? 'sw-field-error' : 'sw-muted'}>
          {state.error ?? (state.saved ? t('notifications.prefs.saved') : unsaved ? t('notifications.prefs.unsaved') : '')}
        </span>
      </div>
    </form>
  );
}
