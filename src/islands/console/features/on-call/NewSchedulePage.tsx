// /on-call/new: the editor for a new schedule (company admins); saved, it opens the schedule.
import { useEffect, useState } from 'react';
import { go } from '../../router.ts';
import { t } from '../../i18n.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { emptySchedule } from './editor.ts';
import { ScheduleEditor } from './ScheduleEditor.tsx';
import { createSchedule, loadPeople, type Person } from './store.ts';
import { viewerZone } from '../../../../lib/zoned-time.ts';
import './on-call.css';

export function NewSchedulePage({ title }: { title: string }) {
  const [people, setPeople] = useState<Person[] | null>(null);
  useEffect(() => {
    void loadPeople().then(setPeople);
  }, []);
  return (
    <div className="sw-admin sw-oncall">
      <nav aria-label={t('onCall.breadcrumb')} className="sw-breadcrumb">
        <a href="/on-call">{t('onCall.crumb')}</a> / <span aria-current="page">{title}</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      <section className="sw-card" aria-label={t('onCall.new.layers')}>
        {people === null ? (
          <Skeleton rows={4} />
        ) : (
          <ScheduleEditor
            initial={emptySchedule(viewerZone(), Date.now())}
            people={people}
            submitLabel={t('onCall.new.submit')}
            save={async (input) => {
              const o = await createSchedule(input);
              if (o.ok) go(`/on-call/${o.data.id}`);
              return o;
            }}
          />
        )}
      </section>
    </div>
  );
}
