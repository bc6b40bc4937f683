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
 */
export function TimeChart({
  title,
  x,
  range,
  series,
}: {
  title: string;
  x: number[];
  /** The time range shown, epoch seconds, whatever the data covers. */
  range: [number, number];
  series: Series[];
}) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const plot = new uPlot(
      {
        width: Math.max(320, el.current.clientWidth),
        height: 220,
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            fill: `${s.color}33`,
            width: 2,
            paths: stepped,
          })),
        ],
        scales: {
          x: { time: true, range: () => range },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [{}, { size: 60 }],
      },
      [x, ...series.map((s) => s.values)],
      el.current,
    );
    return () => plot.destroy();
  }, [x, range, series]);
  return (
    <figure className="card chart">
      <figcaption>{title}</figcaption>
      <div ref={el} role="img" aria-label={title} />
    </figure>
  );
}
