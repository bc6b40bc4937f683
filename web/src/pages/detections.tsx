import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api';
import { Failure, FirstRecord } from '../layout';
import { SEVERITIES, type Detection } from '../types';

/** The filters the API takes, each kept in the query string so a link reproduces the view. */
const FILTERS = ['threatType', 'severity', 'agentId', 'ruleId', 'userId', 'sessionId'] as const;
const LABELS: Record<(typeof FILTERS)[number], string> = {
  threatType: 'Threat type',
  severity: 'Severity',
  agentId: 'Agent',
  ruleId: 'Rule',
  userId: 'User',
  sessionId: 'Session',
};
const RANGES: Record<string, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

export function DetectionsPage() {
  const [params, setParams] = useSearchParams();
  const range = params.get('range') ?? '24h';
  const query = new URLSearchParams();
  for (const f of FILTERS) {
    const v = params.get(f);
    if (v) query.set(f, v);
  }
  query.set('limit', '100');
  const detections = useQuery({
    queryKey: ['detections', query.toString(), range],
    queryFn: () => {
      const q = new URLSearchParams(query);
      q.set('from', new Date(Date.now() - (RANGES[range] ?? RANGES['24h']!)).toISOString());
      return api<{ items: Detection[]; nextCursor?: string }>(`/detections?${q.toString()}`);
    },
    // New detections appear without a reload.
    refetchInterval: 3_000,
  });

  const [draft, setDraft] = useState(() => Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])));
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const f of FILTERS) if (draft[f]?.trim()) next.set(f, draft[f].trim());
    if (range !== '24h') next.set('range', range);
    setParams(next);
  };
  const clear = () => {
    setDraft(Object.fromEntries(FILTERS.map((f) => [f, ''])));
    setParams(new URLSearchParams());
  };

  return (
    <>
      <h1>Detections</h1>
      <form className="card filters" onSubmit={apply} aria-label="Filters">
        {FILTERS.map((f) =>
          f === 'severity' ? (
            <label key={f}>
              {LABELS[f]}
              <select value={draft[f]} onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}>
                <option value="">any</option>
                {SEVERITIES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
          ) : (
            <label key={f}>
              {LABELS[f]}
              <input value={draft[f]} onChange={(e) => setDraft({ ...draft, [f]: e.target.value })} />
            </label>
          ),
        )}
        <label>
          Time
          <select value={range} onChange={(e) => setParams((p) => (p.set('range', e.target.value), p))}>
            {Object.keys(RANGES).map((r) => (
              <option key={r} value={r}>
                last {r}
              </option>
            ))}
          </select>
        </label>
        <div className="buttons">
          <button type="submit">Apply</button>
          <button type="button" className="secondary" onClick={clear}>
            Clear
          </button>
        </div>
      </form>
      {detections.error ? (
        <Failure error={detections.error} />
      ) : !detections.data ? (
        <p>Loading…</p>
      ) : detections.data.items.length === 0 ? (
        params.toString() ? (
          <p className="empty">
            No detection matches these filters in this time range. Clear a filter or widen the range.
          </p>
        ) : (
          <FirstRecord />
        )
      ) : (
        <table className="detections">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Severity</th>
              <th scope="col">Threat type</th>
              <th scope="col">Rule</th>
              <th scope="col">Agent</th>
              <th scope="col">Where</th>
              <th scope="col">Explanation</th>
              <th scope="col">Interaction</th>
            </tr>
          </thead>
          <tbody>
            {detections.data.items.map((d) => (
              <tr key={d.findingId} data-finding-id={d.findingId}>
                <td title={d.receivedAt}>{format(new Date(d.receivedAt), 'MMM d, HH:mm:ss')}</td>
                <td>
                  <span className={`sev ${d.severity}`}>{d.severity}</span>
                </td>
                <td>{d.threatType}</td>
                <td>
                  <code>{d.ruleId}</code>
                </td>
                <td>
                  <Link to={`/agents/${encodeURIComponent(d.agentId)}`}>{d.agentId}</Link>
                </td>
                <td>{d.field}</td>
                <td>
                  {d.explanation}
                  {d.masked ? (
                    <>
                      {' '}
                      <code>{d.masked}</code>
                    </>
                  ) : null}
                </td>
                <td>
                  <Link to={`/interactions/${encodeURIComponent(d.interactionId)}`}>Open</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
