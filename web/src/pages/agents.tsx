import { useQuery } from '@tanstack/react-query';
import { format, formatDistanceToNow } from 'date-fns';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, isMissingRoute } from '../api';
import { Failure, FirstRecord } from '../layout';
import { SEVERITIES, type Agent, type Detection } from '../types';

const MONTH = 30 * 86_400_000;

interface AgentRow {
  agentId: string;
  name?: string;
  lastSeenAt?: string;
  interactions?: number;
  bySeverity: Record<string, number>;
}

const rowOf = (a: Agent & { detectionsBySeverity?: Record<string, number> }): AgentRow => ({
  agentId: a.agentId,
  ...(a.name ? { name: a.name } : {}),
  ...(a.lastSeenAt ? { lastSeenAt: a.lastSeenAt } : {}),
  ...(a.interactions !== undefined ? { interactions: a.interactions } : {}),
  bySeverity: a.detectionsBySeverity ?? (typeof a.detections === 'object' ? a.detections : {}),
});

/** Agents with their detections, from the detections page when GET /api/v1/agents is not there yet. */
const fromDetections = (items: Detection[]): AgentRow[] => {
  const rows = new Map<string, AgentRow>();
  for (const d of items) {
    const row = rows.get(d.agentId) ?? { agentId: d.agentId, lastSeenAt: d.receivedAt, bySeverity: {} };
    row.bySeverity[d.severity] = (row.bySeverity[d.severity] ?? 0) + 1;
    rows.set(d.agentId, row);
  }
  return [...rows.values()];
};

const recentDetections = (agentId?: string) => {
  const q = new URLSearchParams({ from: new Date(Date.now() - MONTH).toISOString(), limit: '1000' });
  if (agentId) q.set('agentId', agentId);
  return api<{ items: Detection[] }>(`/detections?${q.toString()}`);
};

type SortKey = 'lastSeenAt' | 'interactions' | 'detections' | 'agentId';
const total = (r: AgentRow) => Object.values(r.bySeverity).reduce((a, b) => a + b, 0);

export function AgentsPage() {
  const [params, setParams] = useSearchParams();
  const sort = (params.get('sort') ?? 'lastSeenAt') as SortKey;
  const agents = useQuery({
    queryKey: ['agents'],
    queryFn: async (): Promise<{ rows: AgentRow[]; partial: boolean }> => {
      try {
        const body = await api<{ agents?: Agent[]; items?: Agent[] }>(
          `/agents?from=${new Date(Date.now() - MONTH).toISOString()}`,
        );
        return { rows: (body.agents ?? body.items ?? []).map(rowOf), partial: false };
      } catch (err) {
        if (!isMissingRoute(err)) throw err;
        return { rows: fromDetections((await recentDetections()).items), partial: true };
      }
    },
    refetchInterval: 5_000,
  });
  const rows = [...(agents.data?.rows ?? [])].sort((a, b) =>
    sort === 'agentId'
      ? a.agentId.localeCompare(b.agentId)
      : sort === 'interactions'
        ? (b.interactions ?? 0) - (a.interactions ?? 0)
        : sort === 'detections'
          ? total(b) - total(a)
          : (b.lastSeenAt ?? '').localeCompare(a.lastSeenAt ?? ''),
  );
  const header = (key: SortKey, label: string) => (
    <th scope="col" aria-sort={sort === key ? 'descending' : 'none'}>
      <button type="button" className="link" onClick={() => setParams({ sort: key })}>
        {label}
      </button>
    </th>
  );
  return (
    <>
      <h1>Agents</h1>
      {agents.data?.partial && (
        <p className="notice">
          This API has no agent list yet (GET /api/v1/agents): shown are the agents with detections in the
          last 30 days.
        </p>
      )}
      {agents.error ? (
        <Failure error={agents.error} />
      ) : !agents.data ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <FirstRecord />
      ) : (
        <table>
          <thead>
            <tr>
              {header('agentId', 'Agent')}
              {header('lastSeenAt', 'Last seen')}
              {header('interactions', 'Interactions')}
              {header('detections', 'Detections')}
              {SEVERITIES.map((s) => (
                <th key={s} scope="col">
                  {s}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.agentId} data-agent-id={r.agentId}>
                <td>
                  <Link to={`/agents/${encodeURIComponent(r.agentId)}`}>{r.name ?? r.agentId}</Link>
                </td>
                <td title={r.lastSeenAt}>
                  {r.lastSeenAt ? formatDistanceToNow(new Date(r.lastSeenAt), { addSuffix: true }) : '—'}
                </td>
                <td className="num">{r.interactions ?? '—'}</td>
                <td className="num">{total(r)}</td>
                {SEVERITIES.map((s) => (
                  <td key={s} className="num">
                    {r.bySeverity[s] ?? 0}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function AgentPage() {
  const { agentId = '' } = useParams();
  const agent = useQuery({
    queryKey: ['agent', agentId],
    queryFn: async () => {
      try {
        return await api<Agent>(`/agents/${encodeURIComponent(agentId)}`);
      } catch (err) {
        if (isMissingRoute(err)) return undefined;
        throw err;
      }
    },
  });
  const detections = useQuery({
    queryKey: ['agent-detections', agentId],
    queryFn: () => recentDetections(agentId),
    refetchInterval: 5_000,
  });
  return (
    <>
      <p className="crumbs">
        <Link to="/agents">Agents</Link> / agent
      </p>
      <h1>{agent.data?.name ?? agentId}</h1>
      {agent.error ? <Failure error={agent.error} /> : null}
      {agent.isSuccess && !agent.data && (
        <p className="notice">
          This API has no agent details yet (GET /api/v1/agents/{'{agentId}'}): rename and archive arrive with
          it.
        </p>
      )}
      <section className="card">
        <h2>Detections in the last 30 days</h2>
        {detections.error ? (
          <Failure error={detections.error} />
        ) : !detections.data ? (
          <p>Loading…</p>
        ) : detections.data.items.length === 0 ? (
          <p className="empty">No detections for this agent in the last 30 days.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Severity</th>
                <th scope="col">Threat type</th>
                <th scope="col">Rule</th>
                <th scope="col">Interaction</th>
              </tr>
            </thead>
            <tbody>
              {detections.data.items.slice(0, 200).map((d) => (
                <tr key={d.findingId}>
                  <td>{format(new Date(d.receivedAt), 'MMM d, HH:mm:ss')}</td>
                  <td>
                    <span className={`sev ${d.severity}`}>{d.severity}</span>
                  </td>
                  <td>{d.threatType}</td>
                  <td>
                    <code>{d.ruleId}</code>
                  </td>
                  <td>
                    <Link to={`/interactions/${encodeURIComponent(d.interactionId)}`}>Open</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p>
          <Link to={`/detections?agentId=${encodeURIComponent(agentId)}`}>
            All of this agent&apos;s detections
          </Link>
        </p>
      </section>
    </>
  );
}
