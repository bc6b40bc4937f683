import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

// Each bucket's count holds across its hour or day (x is the bucket's start).
const stepped = uPlot.paths.stepped!({ align: 1 });

export interface Series {
  label: string;
  color: string;
  values: number[];
}

/**
 * A time-series chart (uPlot): x in epoch seconds, one stepped line per series; give the range's end
 * as the last x (with the last bucket's values again) so the last bucket spans its width.
 *
 * `stacked`: the first series is drawn on top, the last at the bottom. Each series is drawn at the
 * sum of itself and every series after it, filled opaque down to zero, the tallest first, so each
 * band shows its own part; the legend shows each series' own value.
 */
export function TimeChart({
  title,
  x,
  range,
  series,
  stacked = false,
}: {
  title: string;
  x: number[];
  /** The time range shown, epoch seconds, whatever the data covers. */
  range: [number, number];
  series: Series[];
  stacked?: boolean;
}) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const drawn = stacked
      ? series.map((_, i) => x.map((_, j) => series.slice(i).reduce((sum, s) => sum + (s.values[j] ?? 0), 0)))
      : series.map((s) => s.values);
    const plot = new uPlot(
      {
        width: Math.max(320, el.current.clientWidth),
        height: 220,
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: s.color,
            paths: stepped,
            ...(stacked
              ? {
                  fill: s.color,
                  width: 1,
                  points: { show: false },
                  value: (_u: uPlot, _v: number | null, _si: number, j: number | null) =>
                    j === null ? '–' : String(series[i]?.values[j] ?? 0),
                }
              : { fill: `${s.color}33`, width: 2 }),
          })),
        ],
        scales: {
          x: { time: true, range: () => range },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [{}, { size: 60 }],
      },
      [x, ...drawn],
      el.current,
    );
    return () => plot.destroy();
  }, [x, range, series, stacked]);
  const label = stacked ? `${title}: ${series.map((s) => s.label).join(', ')}` : title;
  return (
    <figure className="card chart">
      <figcaption>{title}</figcaption>
      <div ref={el} role="img" aria-label={label} />
    </figure>
  );
}
