import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { Link } from 'react-router';
import { api } from '../api';
import { TimeChart, type Series } from '../chart';
import { Failure, FirstRecord } from '../layout';
import { TimeRangePicker, useTimeRange } from '../time-range';
import { detectionsLink, SEVERITY_COLORS, TopList } from '../top-list';
import { SEVERITIES, type Agent, type Overview } from '../types';

const number = new Intl.NumberFormat();
/** A bucket as the API gives it ("2026-11-25 15:00:00", UTC) in epoch milliseconds. */
const bucketMs = (bucket: string) =>
  Date.parse(/[zZ+]/.test(bucket) ? bucket : `${bucket.replace(' ', 'T')}Z`);

export function OverviewPage() {
  const range = useTimeRange();
  const overview = useQuery({
    queryKey: ['overview', range.key],
    queryFn: () => api<Overview>(`/analytics/overview?${range.apiRange()}&interval=${range.interval}`),
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
    // Stacked by severity where the API gives each bucket's severities; the plain count otherwise.
    const bySeverity = data.series.some((b) => b.bySeverity);
    const detections: Series[] = bySeverity
      ? SEVERITIES.map((s) => ({
          label: s,
          color: SEVERITY_COLORS[s],
          values: x.map((t) => at(t)?.bySeverity?.[s] ?? 0),
        }))
      : [{ label: 'Detections', color: '#dc2626', values: x.map((t) => at(t)?.findings ?? 0) }];
    return {
      x: x.map((t) => t / 1000),
      range: [Date.parse(data.from) / 1000, Date.parse(data.to) / 1000] as [number, number],
      interactions: [
        { label: 'Interactions', color: '#2563eb', values: x.map((t) => at(t)?.interactions ?? 0) },
      ],
      detections,
    };
  }, [overview.data]);

  const t = overview.data?.totals;
  // A quiet range is not an empty project: agents seen before it get "widen the range", not the curl.
  const quiet = t?.interactions === 0;
  const known = useQuery({
    queryKey: ['agents-known'],
    queryFn: () => api<{ agents: Agent[] }>('/agents'),
    enabled: quiet,
    staleTime: 60_000,
  });
  const lastSeen = known.data?.agents
    .map((a) => a.lastSeen ?? '')
    .sort()
    .at(-1);
  const maxThreat = Math.max(1, ...(t?.byThreatType.map((b) => b.findings) ?? []));
  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
        <TimeRangePicker key={range.key} range={range} />
      </div>
      {overview.error ? (
        <Failure error={overview.error} />
      ) : !t ? (
        <p>Loading…</p>
      ) : (
        <>
          {quiet && (known.error || (known.data && !lastSeen)) ? <FirstRecord /> : null}
          {quiet && lastSeen ? (
            <p className="notice">
              No interactions in this range; your agents last sent one{' '}
              {formatDistanceToNow(new Date(lastSeen), { addSuffix: true })}. Choose a wider range, or check
              that they still send records.
            </p>
          ) : null}
          <section className="tiles" aria-label="Totals">
            <Tile label="Interactions" value={t.interactions} />
            <Tile label="Detections" value={t.findings} to={detectionsLink({}, range)} />
            <Tile label="High + critical" value={(t.bySeverity.high ?? 0) + (t.bySeverity.critical ?? 0)} />
            <Tile label="Active agents" value={t.activeAgents} to="/agents" />
            <Tile label="Tokens" value={t.tokens} />
          </section>
          <div className="grid2">
            <TimeChart
              title="Interactions over time"
              x={chart.x}
              range={chart.range}
              series={chart.interactions}
            />
            {chart.detections.length > 1 ? (
              <TimeChart
                stacked
                title="Detections over time, by severity"
                x={chart.x}
                range={chart.range}
                series={chart.detections}
              />
            ) : (
              <TimeChart
                title="Detections over time"
                x={chart.x}
                range={chart.range}
                series={chart.detections}
              />
            )}
          </div>
          <div className="grid2">
            <section className="card">
              <h2>Detections by severity</h2>
              <table>
                <tbody>
                  {SEVERITIES.map((s) => (
                    <tr key={s}>
                      <th scope="row">
                        <Link to={detectionsLink({ severity: s }, range)}>
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
                <p className="empty">
                  No detections in this range. Widen the range, or send a record that should be flagged (a
                  prompt with “Ignore all previous instructions”) to see one.
                </p>
              ) : (
                <table>
                  <tbody>
                    {t.byThreatType.map((b) => (
                      <tr key={b.threatType}>
                        <th scope="row">
                          <Link to={detectionsLink({ threatType: b.threatType }, range)}>{b.threatType}</Link>
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
          <div className="grid3">
            <TopList title="Top agents" by="agent" range={range} keyLabel="Agent" />
            <TopList title="Top rules" by="rule" range={range} keyLabel="Rule" />
            <TopList title="Top users" by="user" range={range} keyLabel="User" />
          </div>
        </>
      )}
    </>
  );
}

function Tile({ label, value, to }: { label: string; value: number; to?: string }) {
  return (
    <div className="tile">
      <span className="tile-label">{to ? <Link to={to}>{label}</Link> : label}</span>
      <span className="tile-value">{number.format(value)}</span>
    </div>
  );
}
