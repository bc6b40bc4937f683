import { useMemo, useState, type FormEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api';
import { Failure, FirstRecord } from '../layout';
import { TimeRangePicker, useTimeRange } from '../time-range';
import { SEVERITIES, type Detection, type Severity } from '../types';

/** The filters the API takes, each kept in the query string so a link reproduces the view. */
const FILTERS = [
  'threatType',
  'severity',
  'agentId',
  'ruleId',
  'userId',
  'sessionId',
  'conversationId',
] as const;
type Filter = (typeof FILTERS)[number];
const LABELS: Record<Filter, string> = {
  threatType: 'Threat type',
  severity: 'Severity',
  agentId: 'Agent',
  ruleId: 'Rule',
  userId: 'User',
  sessionId: 'Session',
  conversationId: 'Conversation',
};
const GROUPINGS = { rule: 'Rule', conversation: 'Conversation' } as const;
type Grouping = keyof typeof GROUPINGS;
/** Rows fetched: the newest page, or more when grouped so that groups hold more than a screenful. */
const LIMIT = { flat: 100, grouped: 500 };
const RANK: Record<Severity, number> = { low: 1, medium: 2, high: 3, critical: 4 };
const when = (iso: string) => format(new Date(iso), 'MMM d, HH:mm:ss');

export function DetectionsPage() {
  const [params, setParams] = useSearchParams();
  const range = useTimeRange();
  const asked = params.get('group');
  const group: Grouping | undefined = asked === 'rule' || asked === 'conversation' ? asked : undefined;
  const query = new URLSearchParams();
  for (const f of FILTERS) {
    const v = params.get(f);
    if (v) query.set(f, v);
  }
  query.set('limit', String(group ? LIMIT.grouped : LIMIT.flat));
  const detections = useInfiniteQuery({
    queryKey: ['detections', query.toString(), range.key],
    queryFn: ({ pageParam }) =>
      api<{ items: Detection[]; nextCursor?: string }>(
        `/detections?${query}&${range.apiRange()}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor,
    // New detections appear without a reload (within the 5 s the dashboard promises); a refetch
    // reads the first page again and the pages loaded after it from its new cursor.
    refetchInterval: 3_000,
  });
  const items = useMemo(() => {
    const seen = new Set<string>();
    return (detections.data?.pages ?? [])
      .flatMap((p) => p.items)
      .filter((d) => !seen.has(d.findingId) && Boolean(seen.add(d.findingId)));
  }, [detections.data]);

  const [draft, setDraft] = useState(() => Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ''])));
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setParams((p) => {
      for (const f of FILTERS) {
        const v = draft[f]?.trim();
        if (v) p.set(f, v);
        else p.delete(f);
      }
      return p;
    });
  };
  const clear = () => {
    setDraft(Object.fromEntries(FILTERS.map((f) => [f, ''])));
    setParams((p) => {
      for (const f of FILTERS) p.delete(f);
      return p;
    });
  };
  /** One more filter on top of the current ones (a group's "only these"). */
  const narrow = (f: Filter, value: string) => {
    setDraft((d) => ({ ...d, [f]: value }));
    setParams((p) => (p.set(f, value), p.delete('group'), p));
  };
  const setGroup = (g: Grouping | undefined) =>
    setParams((p) => (g ? p.set('group', g) : p.delete('group'), p));
  const filtered = FILTERS.some((f) => params.get(f));
  const exportQuery = new URLSearchParams(query);
  exportQuery.delete('limit');

  return (
    <>
      <div className="page-head">
        <h1>Detections</h1>
        <TimeRangePicker key={range.key} range={range} />
      </div>
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
        <div className="buttons">
          <button type="submit">Apply</button>
          <button type="button" className="secondary" onClick={clear}>
            Clear
          </button>
        </div>
      </form>
      <div className="toolbar">
        <div className="segmented" role="group" aria-label="Group by">
          <button type="button" aria-pressed={!group} onClick={() => setGroup(undefined)}>
            No grouping
          </button>
          {(Object.keys(GROUPINGS) as Grouping[]).map((g) => (
            <button key={g} type="button" aria-pressed={group === g} onClick={() => setGroup(g)}>
              By {GROUPINGS[g].toLowerCase()}
            </button>
          ))}
        </div>
        <span className="live">
          {detections.dataUpdatedAt
            ? `Live: updated ${format(new Date(detections.dataUpdatedAt), 'HH:mm:ss')}, every 3 s`
            : ''}
        </span>
        <a href={`/api/v1/detections/export?${exportQuery}&${range.apiRange()}&format=csv`} download>
          Export CSV
        </a>
      </div>
      {detections.error ? (
        <Failure error={detections.error} />
      ) : !detections.data ? (
        <p>Loading…</p>
      ) : items.length === 0 ? (
        filtered || range.range !== '24h' ? (
          <p className="empty">
            No detection matches these filters in this time range. Clear a filter or widen the range.
          </p>
        ) : (
          <FirstRecord />
        )
      ) : (
        <>
          {group ? <Groups items={items} by={group} narrow={narrow} /> : <DetectionTable items={items} />}
          {detections.hasNextPage ? (
            <p className="more">
              <button
                type="button"
                className="secondary"
                disabled={detections.isFetchingNextPage}
                onClick={() => void detections.fetchNextPage()}
              >
                {detections.isFetchingNextPage ? 'Loading…' : 'Load older detections'}
              </button>{' '}
              <span className="muted">
                {items.length} newest shown; narrow the filters, or export them all as CSV.
              </span>
            </p>
          ) : null}
        </>
      )}
    </>
  );
}

function DetectionTable({ items, hide }: { items: Detection[]; hide?: 'rule' | 'conversation' }) {
  return (
    <table className="detections">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Severity</th>
          <th scope="col">Threat type</th>
          {hide !== 'rule' ? <th scope="col">Rule</th> : null}
          <th scope="col">Agent</th>
          <th scope="col">Where</th>
          <th scope="col">Explanation</th>
          <th scope="col">Interaction</th>
        </tr>
      </thead>
      <tbody>
        {items.map((d) => (
          <tr key={d.findingId} data-finding-id={d.findingId}>
            <td title={d.receivedAt}>{when(d.receivedAt)}</td>
            <td>
              <span className={`sev ${d.severity}`}>{d.severity}</span>
            </td>
            <td>{d.threatType}</td>
            {hide !== 'rule' ? (
              <td>
                <code>{d.ruleId}</code>
              </td>
            ) : null}
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
  );
}

interface Group {
  key: string;
  items: Detection[];
  interactions: Set<string>;
  worst: Severity;
  latest: string;
}

/** The fetched detections grouped by rule or conversation, the group with the newest first. */
function Groups({
  items,
  by,
  narrow,
}: {
  items: Detection[];
  by: Grouping;
  narrow: (f: Filter, value: string) => void;
}) {
  const groups = new Map<string, Group>();
  for (const d of items) {
    const key = by === 'rule' ? d.ruleId : (d.conversationId ?? '');
    const g = groups.get(key) ?? {
      key,
      items: [],
      interactions: new Set<string>(),
      worst: d.severity,
      latest: d.receivedAt,
    };
    g.items.push(d);
    g.interactions.add(d.interactionId);
    if (RANK[d.severity] > RANK[g.worst]) g.worst = d.severity;
    if (d.receivedAt > g.latest) g.latest = d.receivedAt;
    groups.set(key, g);
  }
  const sorted = [...groups.values()].sort((a, b) => b.latest.localeCompare(a.latest));
  return (
    <>
      <p className="muted">
        {sorted.length} {by === 'rule' ? 'rules' : 'conversations'} among the {items.length} newest
        detections.
      </p>
      {sorted.map((g, i) => (
        <section key={g.key} className="card group" data-group={g.key} aria-labelledby={`group-${i}`}>
          <div className="group-head">
            <h2 id={`group-${i}`}>
              {g.key ? (
                by === 'rule' ? (
                  <code>{g.key}</code>
                ) : (
                  <>
                    Conversation <code>{g.key}</code>
                  </>
                )
              ) : by === 'rule' ? (
                'No rule'
              ) : (
                'No conversation id'
              )}
            </h2>
            <span className={`sev ${g.worst}`}>{g.worst}</span>
            <span>
              {g.items.length} detection{g.items.length === 1 ? '' : 's'} in {g.interactions.size} interaction
              {g.interactions.size === 1 ? '' : 's'}, latest {when(g.latest)}
            </span>
            {g.key ? (
              <button
                type="button"
                className="link"
                onClick={() => narrow(by === 'rule' ? 'ruleId' : 'conversationId', g.key)}
              >
                Only this {by}
              </button>
            ) : null}
          </div>
          <DetectionTable items={g.items} hide={by === 'rule' ? 'rule' : undefined} />
        </section>
      ))}
    </>
  );
}
