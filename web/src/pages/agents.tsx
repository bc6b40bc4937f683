import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { format, formatDistanceToNow } from 'date-fns';
import { Link, useParams, useSearchParams } from 'react-router';
import { TimeChart } from '../chart';
import { TimeRangePicker, useTimeRange, type TimeRange } from '../time-range';
import { detectionsLink, SEVERITY_COLORS, TopList } from '../top-list';
import { api } from '../api';
import { Failure, FirstRecord, useMe } from '../layout';
import { SEVERITIES, type Agent, type Detection, type Severity } from '../types';

const MONTH = 30 * 86_400_000;
const ago = (iso?: string) => (iso ? formatDistanceToNow(new Date(iso), { addSuffix: true }) : '—');

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

const activityOf = (a: Agent) => ({
  interactions: a.interactions,
  findings: a.findings,
  bySeverity: a.bySeverity,
});

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
      // The answer's activity covers the API's default range: keep the page's, take the rest.
      client.setQueriesData<Agent>({ queryKey: ['agent', agent.agentId] }, (old) =>
        old ? { ...updated, ...activityOf(old) } : updated,
      );
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

/** How many rows the agent page reads for its timeline (the API's page size at most). */
const TIMELINE_ROWS = 1000;

/** Interactions and detections of the window in buckets of an hour or a day (UTC), for the charts. */
function timeline(
  range: TimeRange,
  interactions: { receivedAt: string }[],
  detections: Detection[],
): { x: number[]; span: [number, number]; interactions: number[]; bySeverity: Record<Severity, number[]> } {
  const { from, to } = range.window();
  const step = range.interval === 'day' ? 86_400_000 : 3_600_000;
  const first = Math.floor(from.getTime() / step) * step;
  const x: number[] = [];
  for (let at = first; at < to.getTime(); at += step) x.push(at);
  const index = (iso: string) => Math.floor((Date.parse(iso) - first) / step);
  const count = () => x.map(() => 0);
  const perBucket = count();
  for (const i of interactions) {
    const k = index(i.receivedAt);
    if (k >= 0 && k < x.length) perBucket[k]! += 1;
  }
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, count()])) as Record<Severity, number[]>;
  for (const d of detections) {
    const k = index(d.receivedAt);
    if (k >= 0 && k < x.length) bySeverity[d.severity][k]! += 1;
  }
  // The last bucket again at the range's end, so it spans its width (see TimeChart).
  const repeat = (v: number[]) => [...v, v[v.length - 1] ?? 0];
  return {
    x: [...x, to.getTime()].map((t) => t / 1000),
    span: [from.getTime() / 1000, to.getTime() / 1000],
    interactions: repeat(perBucket),
    bySeverity: Object.fromEntries(SEVERITIES.map((s) => [s, repeat(bySeverity[s])])) as Record<
      Severity,
      number[]
    >,
  };
}

export function AgentPage() {
  const { agentId = '' } = useParams();
  const me = useMe();
  const range = useTimeRange('30d');
  const path = encodeURIComponent(agentId);
  const agent = useQuery({
    queryKey: ['agent', agentId, range.key],
    queryFn: () => api<Agent>(`/agents/${path}?${range.apiRange()}`),
    refetchInterval: 30_000,
  });
  const detections = useQuery({
    queryKey: ['agent-detections', agentId, range.key],
    queryFn: () =>
      api<{ items: Detection[]; nextCursor?: string }>(
        `/detections?agentId=${path}&limit=${TIMELINE_ROWS}&${range.apiRange()}`,
      ),
    refetchInterval: 5_000,
  });
  const interactions = useQuery({
    queryKey: ['agent-interactions', agentId, range.key],
    queryFn: () =>
      api<{ items: { interactionId: string; receivedAt: string }[]; nextCursor?: string }>(
        `/interactions?agentId=${path}&limit=${TIMELINE_ROWS}&${range.apiRange()}`,
      ),
    refetchInterval: 30_000,
  });
  const chart = useMemo(
    () => timeline(range, interactions.data?.items ?? [], detections.data?.items ?? []),
    // The range's key stands for the range (a preset's window moves on with each refetch).
    [range.key, interactions.data, detections.data],
  );
  const series = useMemo(
    () => ({
      interactions: [{ label: 'Interactions', color: '#2563eb', values: chart.interactions }],
      detections: SEVERITIES.map((s) => ({
        label: s,
        color: SEVERITY_COLORS[s],
        values: chart.bySeverity[s],
      })),
    }),
    [chart],
  );
  const truncated = Boolean(detections.data?.nextCursor || interactions.data?.nextCursor);
  const a = agent.data;
  const canEdit = Boolean(me.data?.role && me.data.role !== 'viewer');
  return (
    <>
      <p className="crumbs">
        <Link to="/agents">Agents</Link> / agent
      </p>
      <div className="page-head">
        <h1>{a?.name ?? agentId}</h1>
        <TimeRangePicker key={range.key} range={range} fallback="30d" />
      </div>
      {agent.error ? <Failure error={agent.error} /> : null}
      {a ? (
        <section className="tiles" aria-label="Totals">
          <Fact label="Interactions" value={String(a.interactions)} />
          <Fact label="Detections" value={String(a.findings)} />
          <Fact
            label="High + critical"
            value={String((a.bySeverity.high ?? 0) + (a.bySeverity.critical ?? 0))}
          />
          <Fact label="Last seen" value={ago(a.lastSeen)} title={a.lastSeen} />
        </section>
      ) : null}
      {a && a.interactions === 0 && a.findings === 0 ? (
        <p className="notice">
          No activity from this agent in this range. Widen the range, or send a record with{' '}
          <code>&quot;agentId&quot;: &quot;{a.agentId}&quot;</code> to see it here.
        </p>
      ) : null}
      <div className="grid2">
        <TimeChart
          title="Interactions over time"
          x={chart.x}
          range={chart.span}
          series={series.interactions}
        />
        <TimeChart
          stacked
          title="Detections over time, by severity"
          x={chart.x}
          range={chart.span}
          series={series.detections}
        />
      </div>
      {truncated ? (
        <p className="muted">
          The charts count the newest {TIMELINE_ROWS} interactions and detections of the range; choose a
          shorter range for the full picture. The totals above count everything.
        </p>
      ) : null}
      <div className="grid2">
        <TopList title="Threats" by="threat" range={range} agentId={agentId} keyLabel="Threat type" />
        <TopList title="Top rules" by="rule" range={range} agentId={agentId} keyLabel="Rule" />
        <TopList title="Top users" by="user" range={range} agentId={agentId} keyLabel="User" />
        <TopList title="Top sessions" by="session" range={range} agentId={agentId} keyLabel="Session" />
      </div>
      {a ? (
        <div className="grid2">
          <section className="card">
            <h2>About</h2>
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
              <dt>Findings by severity</dt>
              <dd>{SEVERITIES.map((s) => `${s} ${a.bySeverity[s] ?? 0}`).join(' · ')}</dd>
              <dt>Status</dt>
              <dd>{a.archived ? `archived ${ago(a.archivedAt)}` : 'active'}</dd>
            </dl>
          </section>
          <Canaries key={a.agentId} agent={a} canEdit={canEdit} />
        </div>
      ) : null}
      {a && canEdit ? <AgentEditor key={a.agentId} agent={a} /> : null}
      <section className="card">
        <h2>Recent detections</h2>
        {detections.error ? (
          <Failure error={detections.error} />
        ) : !detections.data ? (
          <p>Loading…</p>
        ) : detections.data.items.length === 0 ? (
          <p className="empty">No detections for this agent in this range.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Severity</th>
                <th scope="col">Threat type</th>
                <th scope="col">Rule</th>
                <th scope="col">User</th>
                <th scope="col">Interaction</th>
              </tr>
            </thead>
            <tbody>
              {detections.data.items.slice(0, 50).map((d) => (
                <tr key={d.findingId}>
                  <td>{format(new Date(d.receivedAt), 'MMM d, HH:mm:ss')}</td>
                  <td>
                    <span className={`sev ${d.severity}`}>{d.severity}</span>
                  </td>
                  <td>{d.threatType}</td>
                  <td>
                    <code>{d.ruleId}</code>
                  </td>
                  <td>{d.userId || '—'}</td>
                  <td>
                    <Link to={`/interactions/${encodeURIComponent(d.interactionId)}`}>Open</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p>
          <Link to={detectionsLink({ agentId }, range)}>All of this agent&apos;s detections</Link>
        </p>
      </section>
    </>
  );
}

function Fact({ label, value, title }: { label: string; value: string; title?: string }) {
  return (
    <div className="tile">
      <span className="tile-label">{label}</span>
      <span className={Number.isNaN(Number(value)) ? 'tile-value text' : 'tile-value'} title={title}>
        {value}
      </span>
    </div>
  );
}

/**
 * Canary strings planted in the agent's instructions: a response that repeats one is flagged as a
 * leak of them. Members and above add and remove them (PATCH canaries); viewers see them.
 */
function Canaries({ agent, canEdit }: { agent: Agent; canEdit: boolean }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<unknown>();
  const save = useMutation({
    mutationFn: (canaries: string[]) =>
      api<Agent>(`/agents/${encodeURIComponent(agent.agentId)}`, { method: 'PATCH', body: { canaries } }),
    onSuccess: (updated) => {
      setError(undefined);
      setDraft('');
      client.setQueriesData<Agent>({ queryKey: ['agent', agent.agentId] }, (old) =>
        old ? { ...old, canaries: updated.canaries } : old,
      );
    },
    onError: setError,
  });
  return (
    <section className="card" aria-labelledby="canaries-title">
      <h2 id="canaries-title">Canaries</h2>
      {agent.canaries.length === 0 ? (
        <p className="empty">
          No canaries yet. Put a unique string (e.g. <code>CANARY-7f3a9c</code>) in this agent&apos;s system
          prompt and add it here: a response that repeats it is flagged as a leak of the instructions.
        </p>
      ) : (
        <ul className="canaries">
          {agent.canaries.map((c) => (
            <li key={c}>
              <code>{c}</code>
              {canEdit ? (
                <button
                  type="button"
                  className="link"
                  disabled={save.isPending}
                  aria-label={`Remove canary ${c}`}
                  onClick={() => save.mutate(agent.canaries.filter((x) => x !== c))}
                >
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canEdit ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const value = draft.trim();
            if (value && !agent.canaries.includes(value)) save.mutate([...agent.canaries, value]);
          }}
        >
          <label>
            Canary string
            <input value={draft} onChange={(e) => setDraft(e.target.value)} minLength={4} maxLength={256} />
          </label>
          <button type="submit" disabled={save.isPending || draft.trim().length < 4}>
            Add canary
          </button>
        </form>
      ) : null}
      {error ? <Failure error={error} /> : null}
    </section>
  );
}
