import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from './api';
import { Failure } from './layout';
import type { TimeRange } from './time-range';
import type { Severity, TopDimension, TopItem } from './types';

const number = new Intl.NumberFormat();

/** The detections filter each top list links to. */
const FILTER: Record<TopDimension, string> = {
  agent: 'agentId',
  rule: 'ruleId',
  threat: 'threatType',
  user: 'userId',
  session: 'sessionId',
};

/** Severity colours of the charts (the badges' hues, a step stronger). */
export const SEVERITY_COLORS: Record<Severity, string> = {
  critical: '#7f1d1d',
  high: '#dc2626',
  medium: '#f59e0b',
  low: '#6366f1',
};

/** A link to /detections filtered by `filters` over `range`. */
export function detectionsLink(filters: Record<string, string>, range: TimeRange): string {
  const q = new URLSearchParams(filters).toString();
  return `/detections?${[q, range.search].filter(Boolean).join('&')}`;
}

/**
 * The keys with the most detections in the range (GET /analytics/top), each linking to the
 * detections it counts; `agentId` narrows to one agent.
 */
export function TopList({
  title,
  by,
  range,
  agentId,
  keyLabel,
}: {
  title: string;
  by: TopDimension;
  range: TimeRange;
  agentId?: string;
  keyLabel: string;
}) {
  const top = useQuery({
    queryKey: ['top', by, range.key, agentId],
    queryFn: () =>
      api<{ items: TopItem[] }>(
        `/analytics/top?by=${by}&limit=10&${range.apiRange()}${
          agentId ? `&agentId=${encodeURIComponent(agentId)}` : ''
        }`,
      ),
    refetchInterval: 30_000,
  });
  const id = `top-${by}`;
  return (
    <section className="card top-list" aria-labelledby={id} data-top={by}>
      <h2 id={id}>{title}</h2>
      {top.error ? (
        <Failure error={top.error} />
      ) : !top.data ? (
        <p className="muted">Loading…</p>
      ) : top.data.items.length === 0 ? (
        <p className="empty">No detections in this range.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{keyLabel}</th>
              <th scope="col" className="num">
                Detections
              </th>
              <th scope="col" className="num">
                High
              </th>
              <th scope="col" className="num">
                Critical
              </th>
            </tr>
          </thead>
          <tbody>
            {top.data.items.map((item) => (
              <tr key={item.key}>
                <th scope="row" className="key">
                  <Link
                    to={detectionsLink(
                      { [FILTER[by]]: item.key, ...(agentId && by !== 'agent' ? { agentId } : {}) },
                      range,
                    )}
                    title={`${number.format(item.flaggedInteractions)} interactions flagged`}
                  >
                    {item.key}
                  </Link>
                </th>
                <td className="num">{number.format(item.findings)}</td>
                <td className="num">{number.format(item.high)}</td>
                <td className="num">{number.format(item.critical)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
