// /on-call: the company's schedules with who is on call now and who is next (the hand-off in the
// schedule's zone and the viewer's), and "My shifts": the signed-in person's own upcoming shifts
// with their private calendar address. Company admins create schedules; viewers read.
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { go } from '../../router.ts';
import { t, tr } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { ListPage } from '../../ui/ListPage.tsx';
import { FeedControls, NextCell, NowCell } from './OnCallParts.tsx';
import { $myShifts, $onCallAlert, $schedules, issueMyFeed, loadMyShifts, loadSchedules, revokeMyFeed, type Schedule } from './store.ts';
import { formatInZone, shortInZone, viewerZone } from '../../../../lib/zoned-time.ts';
import './on-call.css';

export function OnCallPage({ title }: { title: string }) {
  const role = useStore($role);
  const schedules = useStore($schedules);
  const alert = useStore($onCallAlert);
  const mayEdit = can(role, 'update', 'settings');
  useEffect(() => {
    void loadSchedules();
    void loadMyShifts(Date.now(), 14);
    return () => $onCallAlert.set(null);
  }, []);
  return (
    <ListPage<Schedule>
      crumb={title}
      title={title}
      createLabel={mayEdit ? t('onCall.list.create') : undefined}
      onCreate={mayEdit ? () => go('/on-call/new') : undefined}
      note={t('onCall.list.note')}
      alert={alert}
      load={schedules}
      onRetry={() => void loadSchedules()}
      listTitle={t('onCall.list.title')}
      listId="schedules-list"
      empty={mayEdit ? t('onCall.list.emptyEditor') : t('onCall.list.empty')}
      columns={[t('onCall.list.colSchedule'), t('onCall.list.colNow'), t('onCall.list.colNext')]}
      row={(s) => ({
        key: s.id,
        cells: [
          <div>
            <a className="sw-link" href={`/on-call/${s.id}`}>
              {s.name}
            </a>
            <div className="sw-muted sw-small">{s.time_zone}</div>
          </div>,
          <NowCell shift={s.on_call_now} zone={s.time_zone} />,
          <NextCell shift={s.on_call_next} zone={s.time_zone} />,
        ],
      })}
    >
      <MyShifts />
    </ListPage>
  );
}

function MyShifts() {
  const shifts = useStore($myShifts);
  const zone = viewerZone();
  return (
    <section className="sw-card" aria-labelledby="my-shifts">
      <header className="sw-card-head">
        <h3 id="my-shifts">{t('onCall.mine.title')}</h3>
      </header>
      <p className="sw-muted">{t('onCall.mine.intro', { zone })}</p>
      {shifts.status === 'loading' && <Skeleton rows={2} />}
      {shifts.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {shifts.message}
        </div>
      )}
      {shifts.status === 'ready' &&
        (shifts.data.length === 0 ? (
          <p className="sw-empty">{t('onCall.mine.empty')}</p>
        ) : (
          <ul className="sw-list-plain sw-oncall-mine">
            {shifts.data.map((s) => (
              <li key={`${s.schedule_id}-${s.start}`}>
                {tr('onCall.mine.shift', {
                  b: (chunks) => <strong>{chunks}</strong>,
                  schedule: s.schedule_name,
                  start: formatInZone(Date.parse(s.start), zone),
                  end: shortInZone(Date.parse(s.end), zone, Date.parse(s.start)),
                })}
              </li>
            ))}
          </ul>
        ))}
      <h4>{t('onCall.mine.calendar')}</h4>
      <p className="sw-muted">{t('onCall.mine.calendarNote')}</p>
      <FeedControls id="my-feed-url" label={t('onCall.mine.feedLabel')} issue={issueMyFeed} revoke={revokeMyFeed} />
    </section>
  );
}
