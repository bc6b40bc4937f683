import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** A small line of counts (uPlot, no axes or legend): x in epoch seconds. */
export function Sparkline({
  x,
  values,
  label,
  width = 140,
  height = 34,
}: {
  x: number[];
  values: number[];
  /** What it shows, in words, for screen readers and the tooltip. */
  label: string;
  width?: number;
  height?: number;
}) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const plot = new uPlot(
      {
        width,
        height,
        legend: { show: false },
        cursor: { show: false },
        padding: [3, 2, 3, 2],
        series: [{}, { stroke: '#1d4ed8', fill: '#1d4ed822', width: 1.5, points: { show: false } }],
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [{ show: false }, { show: false }],
      },
      [x, values],
      el.current,
    );
    return () => plot.destroy();
  }, [x, values, width, height]);
  return <div ref={el} className="sparkline" role="img" aria-label={label} title={label} />;
}
