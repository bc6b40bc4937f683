import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api';
import { TimeChart } from '../chart';
import { Failure, FirstRecord } from '../layout';
import { SEVERITIES, type Overview } from '../types';

const RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
type Range = keyof typeof RANGES;
const number = new Intl.NumberFormat();
/** A bucket as the API gives it ("2026-11-25 15:00:00", UTC) in epoch milliseconds. */
const bucketMs = (bucket: string) =>
  Date.parse(/[zZ+]/.test(bucket) ? bucket : `${bucket.replace(' ', 'T')}Z`);

export function OverviewPage() {
  const [params, setParams] = useSearchParams();
  const range = (params.get('range') ?? '24h') as Range;
  const span = RANGES[range] ?? RANGES['24h'];
  const overview = useQuery({
    queryKey: ['overview', range],
    queryFn: () => {
      const to = new Date();
      const from = new Date(to.getTime() - span);
      const interval = span > 2 * 86_400_000 ? 'day' : 'hour';
      return api<Overview>(
        `/analytics/overview?from=${from.toISOString()}&to=${to.toISOString()}&interval=${interval}`,
      );
    },
    refetchInterval: 30_000,
  });
  const chart = useMemo(() => {
    const data = overview.data;
    if (!data) return { x: [], range: [0, 1] as [number, number], interactions: [], detections: [] };
    // Every bucket of the range, zero where nothing was recorded, so the lines show the quiet hours.
    const step = data.interval === 'day' ? 86_400_000 : 3_600_000;
    const byBucket = new Map(data.series.map((b) => [bucketMs(b.bucket), b]));
    const x: number[] = [];
    for (let at = Math.floor(Date.parse(data.from) / step) * step; at < Date.parse(data.to); at += step)
      x.push(at);
    const end = Date.parse(data.to);
    const at = (t: number) => byBucket.get(t === end ? (x[x.length - 1] ?? t) : t);
    x.push(end);
    return {
      x: x.map((t) => t / 1000),
      range: [Date.parse(data.from) / 1000, Date.parse(data.to) / 1000] as [number, number],
      interactions: [
        { label: 'Interactions', color: '#2563eb', values: x.map((t) => at(t)?.interactions ?? 0) },
      ],
      detections: [{ label: 'Detections', color: '#dc2626', values: x.map((t) => at(t)?.findings ?? 0) }],
    };
  }, [overview.data]);

  const t = overview.data?.totals;
  const maxThreat = Math.max(1, ...(t?.byThreatType.map((b) => b.findings) ?? []));
  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
        <div className="segmented" role="group" aria-label="Time range">
          {(Object.keys(RANGES) as Range[]).map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={r === range}
              onClick={() => setParams((p) => (p.set('range', r), p))}
            >
              {r}
            </button>
          ))}
        </div>
      </div>
      {overview.error ? (
        <Failure error={overview.error} />
      ) : !t ? (
        <p>Loading…</p>
      ) : (
        <>
          {t.interactions === 0 && <FirstRecord />}
          <section className="tiles" aria-label="Totals">
            <Tile label="Interactions" value={t.interactions} />
            <Tile label="Detections" value={t.findings} />
            <Tile label="High + critical" value={(t.bySeverity.high ?? 0) + (t.bySeverity.critical ?? 0)} />
            <Tile label="Active agents" value={t.activeAgents} />
            <Tile label="Tokens" value={t.tokens} />
          </section>
          <div className="grid2">
            <TimeChart
              title="Interactions over time"
              x={chart.x}
              range={chart.range}
              series={chart.interactions}
            />
            <TimeChart
              title="Detections over time"
              x={chart.x}
              range={chart.range}
              series={chart.detections}
            />
          </div>
          <div className="grid2">
            <section className="card">
              <h2>Detections by severity</h2>
              <table>
                <tbody>
                  {SEVERITIES.map((s) => (
                    <tr key={s}>
                      <th scope="row">
                        <Link to={`/detections?severity=${s}`}>
                          <span className={`sev ${s}`}>{s}</span>
                        </Link>
                      </th>
                      <td className="num">{number.format(t.bySeverity[s] ?? 0)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section className="card">
              <h2>Detections by threat type</h2>
              {t.byThreatType.length === 0 ? (
                <p className="empty">No detections in this range.</p>
              ) : (
                <table>
                  <tbody>
                    {t.byThreatType.map((b) => (
                      <tr key={b.threatType}>
                        <th scope="row">
                          <Link to={`/detections?threatType=${encodeURIComponent(b.threatType)}`}>
                            {b.threatType}
                          </Link>
                        </th>
                        <td className="bar-cell">
                          <span className="bar" style={{ width: `${(100 * b.findings) / maxThreat}%` }} />
                        </td>
                        <td className="num">{number.format(b.findings)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </div>
        </>
      )}
    </>
  );
}

function Tile({ label, value }: { label: string; value: number }) {
  return (
    <div className="tile">
      <span className="tile-label">{label}</span>
      <span className="tile-value">{number.format(value)}</span>
    </div>
  );
}
