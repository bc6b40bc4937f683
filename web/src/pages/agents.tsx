import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { format, formatDistanceToNow } from 'date-fns';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api';
import { Failure, FirstRecord, useMe } from '../layout';
import { SEVERITIES, type Agent, type Detection } from '../types';

const MONTH = 30 * 86_400_000;
const ago = (iso?: string) => (iso ? formatDistanceToNow(new Date(iso), { addSuffix: true }) : '—');

const recentDetections = (agentId?: string) => {
  const q = new URLSearchParams({ from: new Date(Date.now() - MONTH).toISOString(), limit: '1000' });
  if (agentId) q.set('agentId', agentId);
  return api<{ items: Detection[] }>(`/detections?${q.toString()}`);
};

type SortKey = 'lastSeen' | 'interactions' | 'detections' | 'agentId';

export function AgentsPage() {
  const [params, setParams] = useSearchParams();
  const sort = (params.get('sort') ?? 'lastSeen') as SortKey;
  const agents = useQuery({
    queryKey: ['agents'],
    queryFn: () => api<{ agents: Agent[] }>(`/agents?from=${new Date(Date.now() - MONTH).toISOString()}`),
    refetchInterval: 5_000,
  });
  const rows = [...(agents.data?.agents ?? [])].sort((a, b) =>
    sort === 'agentId'
      ? a.agentId.localeCompare(b.agentId)
      : sort === 'interactions'
        ? b.interactions - a.interactions
        : sort === 'detections'
          ? b.findings - a.findings
          : (b.lastSeen ?? '').localeCompare(a.lastSeen ?? ''),
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
              {header('lastSeen', 'Last seen')}
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
                  <Link to={`/agents/${encodeURIComponent(r.agentId)}`}>{r.agentId}</Link>
                  {r.name ? <span className="muted"> {r.name}</span> : null}
                  {r.archived ? <span className="muted"> (archived)</span> : null}
                </td>
                <td title={r.lastSeen}>{ago(r.lastSeen)}</td>
                <td className="num">{r.interactions}</td>
                <td className="num">{r.findings}</td>
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

/** Rename, describe and archive: owners, admins and members (the API refuses viewers anyway). */
function AgentEditor({ agent }: { agent: Agent }) {
  const client = useQueryClient();
  const [name, setName] = useState(agent.name ?? '');
  const [description, setDescription] = useState(agent.description ?? '');
  const [error, setError] = useState<unknown>();
  const save = useMutation({
    mutationFn: (body: { name?: string; description?: string; archived?: boolean }) =>
      api<Agent>(`/agents/${encodeURIComponent(agent.agentId)}`, { method: 'PATCH', body }),
    onSuccess: (updated) => {
      setError(undefined);
      client.setQueryData(['agent', agent.agentId], updated);
      void client.invalidateQueries({ queryKey: ['agents'] });
    },
    onError: setError,
  });
  return (
    <section className="card">
      <h2>Settings</h2>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ name: name.trim(), description: description.trim() });
        }}
      >
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
        </label>
        <label>
          Description{' '}
          <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
        </label>
        <button type="submit" disabled={save.isPending}>
          Save
        </button>
        <button
          type="button"
          className="secondary"
          disabled={save.isPending}
          onClick={() => save.mutate({ archived: !agent.archived })}
        >
          {agent.archived ? 'Unarchive' : 'Archive'}
        </button>
      </form>
      <p className="muted">
        {agent.archived
          ? 'Archived: ingest refuses its records, and its slot in the tier’s agent limit is free.'
          : 'Archiving frees its slot in the tier’s agent limit; ingest then refuses its records until it is unarchived.'}
      </p>
      {error ? <Failure error={error} /> : null}
    </section>
  );
}

export function AgentPage() {
  const { agentId = '' } = useParams();
  const me = useMe();
  const agent = useQuery({
    queryKey: ['agent', agentId],
    queryFn: () => api<Agent>(`/agents/${encodeURIComponent(agentId)}`),
  });
  const detections = useQuery({
    queryKey: ['agent-detections', agentId],
    queryFn: () => recentDetections(agentId),
    refetchInterval: 5_000,
  });
  const a = agent.data;
  return (
    <>
      <p className="crumbs">
        <Link to="/agents">Agents</Link> / agent
      </p>
      <h1>{a?.name ?? agentId}</h1>
      {agent.error ? <Failure error={agent.error} /> : null}
      {a ? (
        <section className="card">
          <dl className="facts">
            <dt>Agent id</dt>
            <dd>
              <code>{a.agentId}</code>
            </dd>
            {a.description ? (
              <>
                <dt>Description</dt>
                <dd>{a.description}</dd>
              </>
            ) : null}
            <dt>First seen</dt>
            <dd title={a.firstSeen}>{ago(a.firstSeen)}</dd>
            <dt>Last seen</dt>
            <dd title={a.lastSeen}>{ago(a.lastSeen)}</dd>
            <dt>Platforms</dt>
            <dd>{a.platforms.length ? a.platforms.join(', ') : '—'}</dd>
            <dt>Interactions (30 days)</dt>
            <dd>{a.interactions}</dd>
            <dt>Findings by severity</dt>
            <dd>{SEVERITIES.map((s) => `${s} ${a.bySeverity[s] ?? 0}`).join(' · ')}</dd>
            <dt>Canaries</dt>
            <dd>{a.canaries.length}</dd>
          </dl>
        </section>
      ) : null}
      {a && me.data?.role && me.data.role !== 'viewer' ? <AgentEditor key={a.agentId} agent={a} /> : null}
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
