import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Series } from './chart';

const stepped = uPlot.paths.stepped!({ align: 1 });

/**
 * A stacked time-series chart (uPlot): the first series is drawn on top, the last at the bottom.
 * Each series is drawn at the sum of itself and every series after it, filled opaque down to zero,
 * the tallest first, so each band shows its own part; the legend shows each series' own value.
 * x in epoch seconds; give the range's end as the last x (as TimeChart does).
 */
export function StackedChart({
  title,
  x,
  range,
  series,
}: {
  title: string;
  x: number[];
  range: [number, number];
  series: Series[];
}) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const stacked = series.map((_, i) =>
      x.map((_, j) => series.slice(i).reduce((sum, s) => sum + (s.values[j] ?? 0), 0)),
    );
    const plot = new uPlot(
      {
        width: Math.max(320, el.current.clientWidth),
        height: 220,
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: s.color,
            fill: s.color,
            width: 1,
            paths: stepped,
            points: { show: false },
            value: (_u: uPlot, _v: number | null, _si: number, j: number | null) =>
              j === null ? '–' : String(series[i]?.values[j] ?? 0),
          })),
        ],
        scales: {
          x: { time: true, range: () => range },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [{}, { size: 60 }],
      },
      [x, ...stacked],
      el.current,
    );
    return () => plot.destroy();
  }, [x, range, series]);
  return (
    <figure className="card chart">
      <figcaption>{title}</figcaption>
      <div ref={el} role="img" aria-label={`${title}: ${series.map((s) => s.label).join(', ')}`} />
    </figure>
  );
}
