// What the status page's snapshot carries for its panels (issue 32): the response-time charts
// (response-chart.ts) and the security panel (security-panel.ts). Pure types.
import type { ResponseChartView } from './response-chart.ts';
import type { SecurityPanelView } from './security-panel.ts';

export interface PagePanels {
  /** equal keys: equal panels (the page's frame holds it, so a splice never keeps an old panel) */
  key: string;
  /** the hour the panels were read at: days to expiry count from it, so every render of them agrees */
  at: number;
  /** one per component showing its chart, in page order */
  charts: ResponseChartView[];
  /** null: the company did not turn the panel on */
  security: SecurityPanelView | null;
}
