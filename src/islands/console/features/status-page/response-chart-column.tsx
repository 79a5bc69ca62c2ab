// The layout table's "Chart" column (issue 32 item 4): whether the public page draws the
// component's response-time chart, beside "By location".
import { t } from '../../i18n.ts';
import { type DraftMonitor, type Layout, updateMonitor } from './layout.ts';

export function responseChartColumn(layout: Layout, mayEdit: boolean, onChange: (l: Layout) => void) {
  return {
    label: t('pagePanels.chartColumn'),
    cell: (m: DraftMonitor) =>
      mayEdit ? (
        <input
          type="checkbox"
          checked={m.showResponseChart}
          disabled={!m.isPublic}
          aria-label={t('pagePanels.chartLabel', { name: m.name })}
          title={t('pagePanels.chartHint')}
          onChange={(e) => onChange(updateMonitor(layout, m.id, { showResponseChart: e.target.checked }))}
        />
      ) : m.showResponseChart ? (
        t('pagePanels.yes')
      ) : (
        t('pagePanels.no')
      ),
  };
}
