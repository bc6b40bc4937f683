import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { Failure } from '../layout';
import { SEVERITIES } from '../types';
import { THREAT_TYPES, type AlertRule } from '../types-settings';

const WINDOWS = [
  { seconds: 0, label: 'no grouping' },
  { seconds: 60, label: '1 minute' },
  { seconds: 600, label: '10 minutes' },
  { seconds: 3600, label: '1 hour' },
];
const windowLabel = (s: number) =>
  WINDOWS.find((w) => w.seconds === s)?.label ?? `${Math.round(s / 60).toLocaleString('en')} min`;

/** Which threats alert the project's endpoints: the rules, or the default (high and up, 10 min). */
export function AlertRules({ canManage }: { canManage: boolean }) {
  const client = useQueryClient();
  const rules = useQuery({
    queryKey: ['alert-rules'],
    queryFn: () => api<{ rules: AlertRule[] }>('/alert-rules'),
  });
  const [name, setName] = useState('');
  const [minSeverity, setMinSeverity] = useState<AlertRule['minSeverity']>('high');
  const [threatTypes, setThreatTypes] = useState<string[]>([]);
  const [agents, setAgents] = useState('');
  const [windowSeconds, setWindowSeconds] = useState(600);
  const [error, setError] = useState<unknown>();
  const refresh = () => client.invalidateQueries({ queryKey: ['alert-rules'] });

  const create = useMutation({
    mutationFn: () =>
      api<AlertRule>('/alert-rules', {
        method: 'POST',
        body: {
          name: name.trim(),
          minSeverity,
          threatTypes,
          agents: agents
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean),
          windowSeconds,
        },
      }),
    onSuccess: () => {
      setName('');
      setThreatTypes([]);
      setAgents('');
      setError(undefined);
      void refresh();
    },
    onError: (err) => setError(err),
  });
  const toggle = useMutation({
    mutationFn: (r: AlertRule) =>
      api(`/alert-rules/${encodeURIComponent(r.id)}`, { method: 'PATCH', body: { enabled: !r.enabled } }),
    onSuccess: () => void refresh(),
    onError: (err) => setError(err),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/alert-rules/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => void refresh(),
    onError: (err) => setError(err),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const pick = (t: string) => setThreatTypes((s) => (s.includes(t) ? s.filter((x) => x !== t) : [...s, t]));

  return (
    <section className="card section" aria-labelledby="rules-title">
      <h2 id="rules-title">Alert rules</h2>
      {error !== undefined && <Failure error={error} />}
      {rules.error ? (
        <Failure error={rules.error} />
      ) : !rules.data ? (
        <p>Loading…</p>
      ) : rules.data.rules.length === 0 ? (
        <p className="empty">
          No rules: high and critical threats of every type and agent alert, repeats grouped over 10 minutes.
          {canManage &&
            ' Add a rule below to alert on other severities, or only on some threat types or agents.'}
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Minimum severity</th>
              <th scope="col">Threat types</th>
              <th scope="col">Agents</th>
              <th scope="col">Grouping</th>
              <th scope="col">State</th>
              {canManage && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {rules.data.rules.map((r) => (
              <tr key={r.id} data-rule-id={r.id}>
                <td>{r.name}</td>
                <td>
                  <span className={`sev ${r.minSeverity}`}>{r.minSeverity}</span> and up
                </td>
                <td>{r.threatTypes.length ? r.threatTypes.join(', ') : 'all'}</td>
                <td>{r.agents.length ? r.agents.join(', ') : 'all'}</td>
                <td>{windowLabel(r.windowSeconds)}</td>
                <td>{r.enabled ? 'on' : 'off'}</td>
                {canManage && (
                  <td>
                    <div className="actions wrap">
                      <button type="button" className="secondary" onClick={() => toggle.mutate(r)}>
                        {r.enabled ? 'Turn off' : 'Turn on'}
                      </button>
                      <button
                        type="button"
                        className="danger"
                        onClick={() => {
                          if (window.confirm(`Delete the rule ${r.name}?`)) remove.mutate(r.id);
                        }}
                      >
                        Delete rule
                      </button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canManage && (
        <form className="inline-form top-gap" onSubmit={submit} aria-label="Add an alert rule">
          <label>
            Rule name
            <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Minimum severity
            <select
              aria-label="Minimum severity"
              value={minSeverity}
              onChange={(e) => setMinSeverity(e.target.value as AlertRule['minSeverity'])}
            >
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            Agents (comma-separated; empty: all)
            <input value={agents} onChange={(e) => setAgents(e.target.value)} />
          </label>
          <label>
            Grouping window
            <select
              aria-label="Grouping window"
              value={windowSeconds}
              onChange={(e) => setWindowSeconds(Number(e.target.value))}
            >
              {WINDOWS.map((w) => (
                <option key={w.seconds} value={w.seconds}>
                  {w.label}
                </option>
              ))}
            </select>
          </label>
          <fieldset>
            <legend>Threat types (none ticked: all)</legend>
            {THREAT_TYPES.map((t) => (
              <label key={t} className="check">
                <input type="checkbox" checked={threatTypes.includes(t)} onChange={() => pick(t)} /> {t}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={create.isPending}>
            Add rule
          </button>
        </form>
      )}
    </section>
  );
}
