// The window of a long table's rows to render, following the page's scroll. A dozen lines of
// measuring instead of a virtual-list library: the console has none (React, not Preact), the
// rows live in the page's own scroll (no inner scroll box, so the phone layout and the browser's
// find, focus scrolling and zoom keep working), and the maths is row-window.ts, tested alone.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { RowHeights, visibleRows, type RowRange } from './row-window.ts';

/** Rows rendered beyond each edge of the viewport: Tab always meets a rendered next row. */
const OVERSCAN = 8;
/** A desktop row's height before one is measured. */
const FIRST_ROW_HEIGHT = 49;

export function useRowWindow(total: number): {
  range: RowRange;
  rowHeight: number;
  bodyRef: React.RefObject<HTMLTableSectionElement | null>;
} {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [rowHeight, setRowHeight] = useState(FIRST_ROW_HEIGHT);
  const [range, setRange] = useState<RowRange>({ start: 0, end: Math.min(total, 30) });

  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const body = bodyRef.current;
      if (!body) return;
      const next = visibleRows({
        listTop: body.getBoundingClientRect().top,
        viewportHeight: window.innerHeight,
        rowHeight,
        total,
        overscan: OVERSCAN,
      });
      setRange((r) => (r.start === next.start && r.end === next.end ? r : next));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
    };
  }, [total, rowHeight]);

  // The real height of the rows (the phone layout stacks each row into a taller card, and long
  // targets wrap), each monitor measured once at this width (RowHeights says why).
  const measured = useRef({ width: 0, heights: new RowHeights() });
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    const m = measured.current;
    if (m.width !== body.clientWidth) m.heights.clear();
    m.width = body.clientWidth;
    const rows = [...body.querySelectorAll<HTMLTableRowElement>('tr[data-loaded]')];
    const mean = m.heights.measure(rows.map((r) => [r.dataset.loaded ?? '', r.getBoundingClientRect().height]));
    if (mean !== null && Math.abs(mean - rowHeight) > 1) setRowHeight(Math.round(mean));
  });

  return { range, rowHeight, bodyRef };
}
