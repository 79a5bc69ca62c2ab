// The active sessions card of /settings/account: where the person is signed in, and
// 'sign out other sessions'.
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { Card, LoadView } from '../../ui/Card.tsx';
import { Confirm } from '../../ui/Modal.tsx';
import { fmtTime } from '../../ui/format.ts';
import { $sessions, signOutOthers } from './store.ts';
import { Banner } from './Banner.tsx';

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
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a narrow screen scrolls the table; the keyboard must reach it
          <section className="sw-table-wrap" tabIndex={0} aria-label="Active sessions list">
            <table className="sw-table" aria-label="Active sessions">
              <thead>
                <tr>
                  <th scope="col">Browser</th>
                  <th scope="col">Address</th>
                  <th scope="col">Last active</th>
                  <th scope="col">Ends</th>
                </tr>
              </thead>
              <tbody>
                {list.map((x) => (
                  <tr key={x.id}>
                    <td>
                      <span className="sw-ua">{x.user_agent ?? 'Unknown browser'}</span>
                      {x.current && <span className="sw-pill sw-green">This browser</span>}
                    </td>
                    <td>{x.host}</td>
                    <td>{fmtTime(x.last_active_at, '')}</td>
                    <td>{fmtTime(x.expires_at, '')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
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
