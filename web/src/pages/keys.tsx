import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { api } from '../api';
import { Failure, useMe } from '../layout';
import { SettingsNav } from '../settings-nav';
import { Sparkline } from '../sparkline';
import type { CreatedKey, KeyListing } from '../types';
import type { KeyUsage } from '../types-settings';

const SCOPES = ['ingest', 'analytics:read', 'keys:manage', 'admin'] as const;
const ago = (iso?: string) => (iso ? formatDistanceToNow(new Date(iso), { addSuffix: true }) : 'never');

/** Requests per UTC day over the last 30 days (GET /keys/{id}/usage), as a sparkline. */
function KeyUsageSparkline({ keyId, name }: { keyId: string; name: string }) {
  const usage = useQuery({
    queryKey: ['key-usage', keyId],
    queryFn: () => api<KeyUsage>(`/keys/${encodeURIComponent(keyId)}/usage?days=30`),
    staleTime: 60_000,
  });
  const series = useMemo(
    () =>
      usage.data && {
        x: usage.data.days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
        values: usage.data.days.map((d) => d.requests),
      },
    [usage.data],
  );
  if (usage.error) return <span className="hint">usage unavailable</span>;
  if (!usage.data || !series) return <span className="hint">…</span>;
  return (
    <Sparkline
      x={series.x}
      values={series.values}
      label={`${name}: ${usage.data.total.toLocaleString('en')} request${usage.data.total === 1 ? '' : 's'} in the last 30 days (${usage.data.from} to ${usage.data.to})`}
    />
  );
}

/** The secret, shown once, with a copy button. */
function Secret({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(created.key).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <section className="card secret" aria-label="New key">
      <h2>Your new key</h2>
      <p>Copy it now: it is shown this once and never again.</p>
      <div className="row">
        <code data-testid="new-key">{created.key}</code>
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {created.previousKeyExpiresAt && (
        <p>
          The key it replaces keeps working until {new Date(created.previousKeyExpiresAt).toLocaleString()}.
        </p>
      )}
      <button type="button" className="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

export function KeysPage() {
  const me = useMe();
  const client = useQueryClient();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => api<{ keys: KeyListing[] }>('/keys') });
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['ingest']);
  const [grace, setGrace] = useState('24h');
  const [created, setCreated] = useState<CreatedKey>();
  const [error, setError] = useState<unknown>();
  const canManage = me.data?.role !== 'viewer';
  const refresh = () => client.invalidateQueries({ queryKey: ['keys'] });
  const onError = (err: unknown) => setError(err);

  const create = useMutation({
    mutationFn: () => api<CreatedKey>('/keys', { method: 'POST', body: { name: name.trim(), scopes } }),
    onSuccess: (k) => {
      setCreated(k);
      setName('');
      setError(undefined);
      void refresh();
    },
    onError,
  });
  const rotate = useMutation({
    mutationFn: (keyId: string) =>
      api<CreatedKey>(`/keys/${encodeURIComponent(keyId)}/rotate`, {
        method: 'POST',
        body: { gracePeriod: grace },
      }),
    onSuccess: (k) => {
      setCreated(k);
      void refresh();
    },
    onError,
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) => api(`/keys/${encodeURIComponent(keyId)}`, { method: 'DELETE' }),
    onSuccess: () => void refresh(),
    onError,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const toggle = (scope: string) =>
    setScopes((s) => (s.includes(scope) ? s.filter((x) => x !== scope) : [...s, scope]));

  return (
    <>
      <SettingsNav />
      <h1>API keys</h1>
      {error !== undefined && <Failure error={error} />}
      {created && <Secret created={created} onDone={() => setCreated(undefined)} />}
      {canManage ? (
        <form className="card inline-form" onSubmit={submit} aria-label="Create a key">
          <label>
            Name
            <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <fieldset>
            <legend>Scopes</legend>
            {SCOPES.map((s) => (
              <label key={s} className="check">
                <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={create.isPending || scopes.length === 0}>
            Create key
          </button>
        </form>
      ) : (
        <p className="notice">
          Your role (viewer) can see keys; an owner, admin or member creates and revokes them.
        </p>
      )}
      {keys.error ? (
        <Failure error={keys.error} />
      ) : !keys.data ? (
        <p>Loading…</p>
      ) : keys.data.keys.length === 0 ? (
        <p className="empty">
          No keys yet.{' '}
          {canManage
            ? 'Create one above (scope ingest) to send your agents’ records to Warden; its secret is shown once.'
            : 'An owner, admin or member creates keys; ask one of them.'}
        </p>
      ) : (
        <>
          {canManage && (
            <label className="grace">
              Rotation grace (how long the old key keeps working){' '}
              <select value={grace} onChange={(e) => setGrace(e.target.value)}>
                <option value="0">none</option>
                <option value="30m">30 minutes</option>
                <option value="24h">24 hours</option>
                <option value="7d">7 days</option>
              </select>
            </label>
          )}
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Requests today / total</th>
                <th scope="col">Last 30 days</th>
                {canManage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {keys.data.keys.map((k) => (
                <tr key={k.keyId} data-key-id={k.keyId}>
                  <td>{k.name ?? '—'}</td>
                  <td>
                    <code>{k.hint}</code>
                  </td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>
                    <span className={`status ${k.status}`}>{k.status}</span>
                  </td>
                  <td title={k.createdAt}>
                    {ago(k.createdAt)}
                    {k.createdBy ? ` by ${k.createdBy}` : ''}
                  </td>
                  <td title={k.usage.lastUsedAt}>{ago(k.usage.lastUsedAt)}</td>
                  <td>
                    {k.usage.today} / {k.usage.total}
                  </td>
                  <td>
                    <KeyUsageSparkline keyId={k.keyId} name={k.name ?? k.hint} />
                  </td>
                  {canManage && (
                    <td>
                      <div className="actions">
                        {k.status !== 'revoked' && k.status !== 'expired' && (
                          <>
                            <button
                              type="button"
                              className="secondary"
                              onClick={() => rotate.mutate(k.keyId)}
                            >
                              Rotate
                            </button>
                            <button
                              type="button"
                              className="danger"
                              onClick={() => {
                                if (
                                  window.confirm(`Revoke ${k.name ?? k.hint}? Requests with it fail at once.`)
                                )
                                  revoke.mutate(k.keyId);
                              }}
                            >
                              Revoke
                            </button>
                          </>
                        )}
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
