import { useQuery } from '@tanstack/react-query';
import { format } from 'date-fns';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { segments, viewLabel, type Segment } from '../highlight';
import { Failure } from '../layout';
import type { Finding, Interaction } from '../types';

const titleOf = (f: Finding) =>
  `${f.threatType} · ${f.severity} · ${f.ruleId}: ${f.explanation} (${viewLabel(f.view)})`;

/** Segments as text and <mark>s; a finding inside another's span is a <mark> inside its <mark>. */
function Runs({ segs }: { segs: Segment[] }) {
  return (
    <>
      {segs.map((s, i) =>
        s.finding ? (
          <mark
            key={i}
            data-finding-id={s.finding.findingId}
            className={`sev-mark ${s.finding.severity}`}
            title={[s.finding, ...s.overlaps].map(titleOf).join('\n')}
          >
            <Runs segs={s.children} />
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

/** One field's text with every finding marked at its span. */
function Marked({ text, findings }: { text: string; findings: Finding[] }) {
  if (!text) return <p className="muted">(empty)</p>;
  return (
    <pre className="field-text">
      <Runs segs={segments(text, findings)} />
    </pre>
  );
}

export function InteractionPage() {
  const { interactionId = '' } = useParams();
  const interaction = useQuery({
    queryKey: ['interaction', interactionId],
    queryFn: () => api<Interaction>(`/interactions/${encodeURIComponent(interactionId)}`),
  });
  if (interaction.error) return <Failure error={interaction.error} />;
  const i = interaction.data;
  if (!i) return <p>Loading…</p>;
  const inField = (field: string) => i.findings.filter((f) => f.field === field);
  const elsewhere = i.findings.filter((f) => f.field !== 'prompt' && f.field !== 'response');
  return (
    <>
      <p className="crumbs">
        <Link to="/detections">Detections</Link> / interaction
      </p>
      <h1>
        Interaction <code>{i.interactionId}</code>
      </h1>
      <dl className="meta card">
        <dt>Agent</dt>
        <dd>
          <Link to={`/agents/${encodeURIComponent(i.agentId)}`}>{i.agentId}</Link>
        </dd>
        <dt>Received</dt>
        <dd>{format(new Date(i.receivedAt), 'PPpp')}</dd>
        <dt>User</dt>
        <dd>{i.userId || '—'}</dd>
        <dt>Session</dt>
        <dd>{i.sessionId || '—'}</dd>
        <dt>Model</dt>
        <dd>{i.model || '—'}</dd>
        <dt>Platform</dt>
        <dd>{i.platform || '—'}</dd>
        <dt>Tokens</dt>
        <dd>{i.tokensUsed}</dd>
        <dt>Response time</dt>
        <dd>{i.responseTimeMs} ms</dd>
      </dl>
      <div className="grid2">
        <section className="card">
          <h2>Prompt</h2>
          <Marked text={i.prompt} findings={inField('prompt')} />
        </section>
        <section className="card">
          <h2>Response</h2>
          <Marked text={i.response} findings={inField('response')} />
        </section>
      </div>
      <section className="card">
        <h2>Findings ({i.findings.length})</h2>
        {i.findings.length === 0 ? (
          <p className="empty">No detector fired on this interaction.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Severity</th>
                <th scope="col">Threat type</th>
                <th scope="col">Rule</th>
                <th scope="col">Where</th>
                <th scope="col">Text view that fired</th>
                <th scope="col">Explanation</th>
              </tr>
            </thead>
            <tbody>
              {i.findings.map((f) => (
                <tr key={f.findingId}>
                  <td>
                    <span className={`sev ${f.severity}`}>{f.severity}</span>
                  </td>
                  <td>{f.threatType}</td>
                  <td>
                    <code>{f.ruleId}</code>
                  </td>
                  <td>
                    {f.field} [{f.start}–{f.end}]
                  </td>
                  <td>{viewLabel(f.view)}</td>
                  <td>
                    {f.explanation}
                    {f.masked && (
                      <>
                        {' '}
                        <code>{f.masked}</code>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {elsewhere.length > 0 && (
          <p className="muted">{elsewhere.length} finding(s) are in tool calls or metadata, shown below.</p>
        )}
      </section>
      <div className="grid2">
        <section className="card">
          <h2>Tool calls</h2>
          <pre className="field-text">{JSON.stringify(i.toolCalls ?? [], null, 2)}</pre>
        </section>
        <section className="card">
          <h2>Metadata</h2>
          <pre className="field-text">{JSON.stringify(i.metadata ?? {}, null, 2)}</pre>
        </section>
      </div>
    </>
  );
}
