// The console's one pager: Newer and Older buttons around an optional "1–50 of 120", named for the
// list it pages (a navigation landmark of its own). Each screen keeps its paging state (an offset,
// a cursor stack) and says only whether each direction is open.
import type { ReactNode } from 'react';
import './pager.css';
import { t } from '../i18n.ts';

export interface PagerProps {
  /** the landmark's name: "Audit log pages" */
  label: string;
  hasNewer: boolean;
  hasOlder: boolean;
  onNewer: () => void;
  onOlder: () => void;
  /** what is shown, between the buttons */
  range?: ReactNode;
}

export function Pager(p: PagerProps) {
  return (
    <nav className="sw-pager" aria-label={p.label}>
      <button type="button" className="sw-btn sw-btn-small" disabled={!p.hasNewer} onClick={p.onNewer}>
        {t('ui.pager.newer')}
      </button>
      {p.range !== undefined && <span>{p.range}</span>}
      <button type="button" className="sw-btn sw-btn-small" disabled={!p.hasOlder} onClick={p.onOlder}>
        {t('ui.pager.older')}
      </button>
    </nav>
  );
}
