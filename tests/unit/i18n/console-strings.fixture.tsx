// Input of tests/unit/i18n/console-strings.test.ts: each string the guard must report, and
// beside them what it must leave alone (catalogue keys, data, class names, symbols, product names).
// Never imported; parsed only.
declare function t(key: string, values?: Record<string, unknown>): string;
declare function showToast(text: string): void;
declare function Field(props: { label: string; hint?: string; children?: number }): null;

export function Probe({ busy, collapsed, status }: { busy: boolean; collapsed: boolean; status: string }) {
  const columns = [{ label: 'Name' }, { label: t('monitors.list.name') }];
  if (status === 'deleted') showToast('Deleted.');
  if (status === 'asking') window.confirm('Delete it?');
  return (
    <section className="sw-card" data-testid="probe">
      <p>Saved</p>
      <p>{t('monitors.list.empty')} · 42 %</p>
      <button type="button" aria-label="Close dialog">
        ×
      </button>
      <input placeholder="Search monitors" />
      <button type="button" title={collapsed ? 'Expand' : 'Collapse'} />
      <span title={status === 'up' ? t('monitors.up') : t('monitors.down')}>Slack</span>
      <Field label={t('monitors.form.name')}>{columns.length}</Field>
      <button type="submit">{busy ? 'Saving…' : 'Save'}</button>
      <p>{status || 'Nothing here'}</p>
    </section>
  );
}
