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

export function SessionsCard() {
  const sessions = useStore($sessions);
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const others = sessions.status === 'ready' ? sessions.data.filter((x) => !x.current).length : 0;
  return (
    <Card
      title="Active sessions"
      testId="sessions"
      action={
        others > 0 && (
          <button type="button" className="sw-btn sw-btn-small sw-btn-danger" onClick={() => setConfirming(true)}>
            Sign out other sessions
          </button>
        )
      }
    >
      <Banner ok={alert?.ok ?? false} text={alert?.text ?? null} />
      <LoadView load={sessions} isEmpty={(d) => d.length === 0} empty="No sessions." rows={2}>
        {(list) => (
          <Table
            stack={false}
            scrollLabel="Active sessions list"
            aria-label="Active sessions"
            rows={list}
            rowKey={(x) => x.id}
            columns={[
              {
                label: 'Browser',
                cell: (x) => (
                  <>
                    <span className="sw-ua">{x.user_agent ?? 'Unknown browser'}</span>
                    {x.current && <span className="sw-pill sw-green">This browser</span>}
                  </>
                ),
              },
              { label: 'Address', cell: (x) => x.host },
              { label: 'Last active', cell: (x) => fmtTime(x.last_active_at, '') },
              { label: 'Ends', cell: (x) => fmtTime(x.expires_at, '') },
            ]}
          />
        )}
      </LoadView>
      {confirming && (
        <Confirm
          title="Sign out other sessions"
          danger
          confirmLabel="Sign out others"
          text="Sign out every other browser signed in to your account? This one stays signed in."
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void signOutOthers().then((r) =>
              setAlert(r.ok ? { ok: true, text: 'Your other sessions are signed out.' } : { ok: false, text: r.text }),
            );
          }}
        />
      )}
    </Card>
  );
}
