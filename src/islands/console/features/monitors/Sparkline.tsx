// 24 hourly average response times, or a young monitor's latest checks one by one, as a small
// inline SVG line: no chart library for a sparkline. Hours (or checks) without a time break the
// line; one standing alone is a dot.

const W = 96;
const H = 24;
const PAD = 2;

export interface SparkShape {
  /** the line through consecutive hours */
  path: string;
  /** hours with no neighbour to join */
  dots: Array<{ x: number; y: number }>;
}

export function sparkShape(points: ReadonlyArray<number | null>): SparkShape | null {
  const values = points.filter((p): p is number => p !== null);
  if (values.length === 0) return null;
  const max = Math.max(...values, 1);
  const step = points.length > 1 ? (W - 2 * PAD) / (points.length - 1) : 0;
  const at = (i: number, p: number) => ({
    x: Math.round((PAD + i * step) * 10) / 10,
    y: Math.round((H - PAD - (p / max) * (H - 2 * PAD)) * 10) / 10,
  });
  let path = '';
  const dots: SparkShape['dots'] = [];
  points.forEach((p, i) => {
    if (p === null) return;
    const { x, y } = at(i, p);
    const joinsPrevious = i > 0 && points[i - 1] !== null;
    const joinsNext = i < points.length - 1 && points[i + 1] !== null;
    if (!joinsPrevious && !joinsNext) dots.push({ x, y });
    else path += `${joinsPrevious ? 'L' : 'M'}${x} ${y}`;
  });
  return { path, dots };
}

export function Sparkline({ points, label }: { points: ReadonlyArray<number | null>; label: string }) {
  const shape = sparkShape(points);
  if (!shape) return <span className="sw-muted">—</span>;
  return (
    <svg className="sw-spark" viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={label}>
      {shape.path && <path d={shape.path} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" />}
      {shape.dots.map((d) => (
        <circle key={d.x} cx={d.x} cy={d.y} r={1.75} fill="currentColor" />
      ))}
    </svg>
  );
}
