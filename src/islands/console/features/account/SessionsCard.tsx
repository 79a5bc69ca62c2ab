// The active sessions card of /settings/account: where the person is signed in, and
// 'sign out other sessions'.
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { Card, LoadView } from '../../ui/Card.tsx';
import { Confirm } from '../../ui/Modal.tsx';
import { fmtTime } from '../../ui/format.ts';
import { $sessions, signOutOthers } from './store.ts';
import { Banner } from './Banner.tsx';
import { Table } from '../../ui/Table.tsx';
import { t } from '../../i18n.ts';

export function SessionsCard() {
  const sessions = useStore($sessions);
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const others = sessions.status === 'ready' ? sessions.data.filter((x) => !x.current).length : 0;
  return (
    <Card
      title={t('account.sessionsCard.activeSessions')}
      testId="sessions"
      action={
        others > 0 && (
          <button type="button" className="sw-btn sw-btn-small sw-btn-danger" onClick={() => setConfirming(true)}>
            {t('account.sessionsCard.signOutOtherSessions')}
          </button>
        )
      }
    >
      <Banner ok={alert?.ok ?? false} text={alert?.text ?? null} />
      <LoadView load={sessions} isEmpty={(d) => d.length === 0} empty={t('account.sessionsCard.noSessions')} rows={2}>
        {(list) => (
          <Table
            stack={false}
            scrollLabel={t('account.sessionsCard.activeSessionsList')}
            aria-label={t('account.sessionsCard.activeSessions')}
            rows={list}
            rowKey={(x) => x.id}
            columns={[
              {
                label: t('account.sessionsCard.browser'),
                cell: (x) => (
                  <>
                    <span className="sw-ua">{x.user_agent ?? t('account.sessionsCard.unknownBrowser')}</span>
                    {x.current && <span className="sw-pill sw-green">{t('account.sessionsCard.thisBrowser')}</span>}
                  </>
                ),
              },
              { label: t('account.sessionsCard.address'), cell: (x) => x.host },
              { label: t('account.sessionsCard.lastActive'), cell: (x) => fmtTime(x.last_active_at, '') },
              { label: t('account.sessionsCard.ends'), cell: (x) => fmtTime(x.expires_at, '') },
            ]}
          />
        )}
      </LoadView>
      {confirming && (
        <Confirm
          title={t('account.sessionsCard.signOutOtherSessions')}
          danger
          confirmLabel={t('account.sessionsCard.signOutOthers')}
          text={t('account.sessionsCard.signOutEveryOtherBrowser')}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void signOutOthers().then((r) =>
              setAlert(r.ok ? { ok: true, text: t('account.sessionsCard.yourOtherSessionsAreSigned') } : { ok: false, text: r.text }),
            );
          }}
        />
      )}
    </Card>
  );
}
