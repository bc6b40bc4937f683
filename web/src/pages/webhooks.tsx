import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { format, formatDistanceToNow } from 'date-fns';
import { useSearchParams } from 'react-router';
import { api } from '../api';
import { CopyButton } from '../copy';
import { Failure, useMe } from '../layout';
import { SettingsNav } from '../settings-nav';
import { AlertRules } from './alert-rules';
import {
  mayManageOrg,
  type Delivery,
  type EndpointWithSecret,
  type WebhookEndpoint,
} from '../types-settings';

const ago = (iso: string) => formatDistanceToNow(new Date(iso), { addSuffix: true });
const when = (iso: string) => format(new Date(iso), 'd MMM yyyy HH:mm:ss');
const path = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

/** The whsec_ secret after a create or a rotation: shown this once, with a copy button. */
function Secret({ shown, onDone }: { shown: EndpointWithSecret & { rotated: boolean }; onDone: () => void }) {
  return (
    <section className="card secret" aria-label="Signing secret">
      <h2>{shown.rotated ? 'The new signing secret' : 'Your endpoint’s signing secret'}</h2>
      <p>
        Copy it now: it is shown this once and never again. Verify each delivery&apos;s{' '}
        <code>webhook-signature</code> with it (Standard Webhooks; see docs/alerts.md).
      </p>
      <div className="row">
        <code data-testid="webhook-secret">{shown.secret}</code>
        <CopyButton text={shown.secret} />
      </div>
      {shown.rotated && shown.endpoint.previousSecretUntil && (
        <p>
          The old secret keeps signing beside it until {when(shown.endpoint.previousSecretUntil)}: deploy the
          new one before then.
        </p>
      )}
      <button type="button" className="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

/** Active, failing or disabled, and why. */
function EndpointStatus({ e }: { e: WebhookEndpoint }) {
  if (!e.enabled) {
    return (
      <span className="status disabled">
        disabled{e.disabledAt ? ` ${ago(e.disabledAt)}` : ''}
        {e.disabledReason && <span className="reason">: {e.disabledReason}</span>}
      </span>
    );
  }
  if (e.failingSince) return <span className="status failing">failing since {ago(e.failingSince)}</span>;
  return <span className="status active">active</span>;
}

const attemptStatus = (a: Delivery['log'][number]) =>
  a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? 'no answer');

/** The deliveries of one endpoint, newest first, each with its attempts. */
function Deliveries({ endpoint, canManage }: { endpoint: WebhookEndpoint; canManage: boolean }) {
  const client = useQueryClient();
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', endpoint.id],
    queryFn: () => api<{ deliveries: Delivery[] }>(`${path(endpoint.id)}/deliveries`),
    // Followed closely while something is on its way, calmly otherwise.
    refetchInterval: (q) => (q.state.data?.deliveries.some((d) => d.status === 'pending') ? 1_500 : 10_000),
  });
  const retry = useMutation({
    mutationFn: (deliveryId: string) =>
      api(`${path(endpoint.id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`, { method: 'POST' }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['webhook-deliveries', endpoint.id] }),
  });
  return (
    <section className="card" aria-labelledby="deliveries-title" data-testid="deliveries">
      <h2 id="deliveries-title">
        Deliveries to <code>{endpoint.url}</code>
      </h2>
      {retry.error && <Failure error={retry.error} />}
      {deliveries.error ? (
        <Failure error={deliveries.error} />
      ) : !deliveries.data ? (
        <p>Loading…</p>
      ) : deliveries.data.deliveries.length === 0 ? (
        <p className="empty">
          Nothing sent to this endpoint yet.{' '}
          {canManage
            ? 'Press “Send test event” to check that it answers, then alerts arrive here as threats are detected.'
            : 'Alerts appear here as high and critical threats are detected.'}
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Sent</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Attempts
              </th>
              <th scope="col">Last answer</th>
              <th scope="col" className="num">
                Latency
              </th>
              <th scope="col">Response excerpt</th>
              {canManage && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {deliveries.data.deliveries.map((d) => {
              const last = d.log.at(-1);
              return (
                <tr key={d.id} data-delivery-id={d.id} data-status={d.status}>
                  <td title={d.createdAt}>
                    {ago(d.createdAt)}
                    <div className="hint">
                      <code>{d.id}</code>
                    </div>
                  </td>
                  <td>{d.event}</td>
                  <td>
                    <span className={`status ${d.status}`}>{d.status}</span>
                    {d.status === 'pending' && d.nextAt && d.attempts > 0 && (
                      <div className="hint">next try {ago(d.nextAt)}</div>
                    )}
                  </td>
                  <td className="num">{d.attempts}</td>
                  <td>{last ? attemptStatus(last) : '—'}</td>
                  <td className="num">{last ? `${last.latencyMs} ms` : '—'}</td>
                  <td className="excerpt">
                    {last?.responseExcerpt ? <code>{last.responseExcerpt}</code> : (last?.error ?? '—')}
                    {d.log.length > 1 && (
                      <details>
                        <summary>All {d.log.length} attempts</summary>
                        <ol>
                          {d.log.map((a) => (
                            <li key={a.at}>
                              {when(a.at)}: {attemptStatus(a)} in {a.latencyMs} ms
                              {a.responseExcerpt ? ` — ${a.responseExcerpt}` : ''}
                            </li>
                          ))}
                        </ol>
                      </details>
                    )}
                  </td>
                  {canManage && (
                    <td>
                      <div className="actions">
                        {d.status !== 'pending' && (
                          <button
                            type="button"
                            className="secondary"
                            aria-label={`Retry delivery ${d.id}`}
                            onClick={() => retry.mutate(d.id)}
                          >
                            Retry
                          </button>
                        )}
                      </div>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function WebhooksPage() {
  const me = useMe();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const canManage = mayManageOrg(me.data?.role);
  const endpoints = useQuery({
    queryKey: ['webhooks'],
    queryFn: () => api<{ endpoints: WebhookEndpoint[] }>('/webhooks'),
    // The alerter disables an endpoint on 410 Gone or after 5 days of failures: the page says so soon.
    refetchInterval: 5_000,
  });
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [format, setFormat] = useState<WebhookEndpoint['format']>('standard');
  const [shown, setShown] = useState<EndpointWithSecret & { rotated: boolean }>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState('');
  const selectedId = params.get('endpoint') ?? undefined;
  const select = (id: string) => setParams({ endpoint: id }, { replace: true });
  const refresh = () => client.invalidateQueries({ queryKey: ['webhooks'] });
  const onError = (err: unknown) => {
    setNotice('');
    setError(err);
  };
  const ok = (message: string) => {
    setError(undefined);
    setNotice(message);
    void refresh();
  };

  const create = useMutation({
    mutationFn: () =>
      api<EndpointWithSecret>('/webhooks', {
        method: 'POST',
        body: {
          url: url.trim(),
          events: ['threat_detected'],
          format,
          ...(description.trim() ? { description: description.trim() } : {}),
        },
      }),
    onSuccess: (created) => {
      setShown({ ...created, rotated: false });
      setUrl('');
      setDescription('');
      setFormat('standard');
      select(created.endpoint.id);
      ok('Endpoint added.');
    },
    onError,
  });
  const test = useMutation({
    mutationFn: (id: string) => api<{ deliveryId: string }>(`${path(id)}/test`, { method: 'POST' }),
    onSuccess: (_d, id) => {
      select(id);
      ok('Test event queued: follow it in the deliveries below.');
      void client.invalidateQueries({ queryKey: ['webhook-deliveries', id] });
    },
    onError,
  });
  const rotate = useMutation({
    mutationFn: (id: string) =>
      api<EndpointWithSecret>(`${path(id)}/rotate-secret`, {
        method: 'POST',
        body: { gracePeriodHours: 24 },
      }),
    onSuccess: (rotated) => {
      setShown({ ...rotated, rotated: true });
      ok('Secret rotated.');
    },
    onError,
  });
  const toggle = useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      api<WebhookEndpoint>(path(id), { method: 'PATCH', body: { enabled } }),
    onSuccess: (e) =>
      ok(e.enabled ? 'Endpoint enabled again.' : 'Endpoint disabled: no alerts are sent to it.'),
    onError,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(path(id), { method: 'DELETE' }),
    onSuccess: (_r, id) => {
      if (id === selectedId) setParams({}, { replace: true });
      ok('Endpoint deleted with its deliveries.');
    },
    onError,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const list = endpoints.data?.endpoints ?? [];
  const selected = list.find((e) => e.id === selectedId) ?? (list.length === 1 ? list[0] : undefined);

  return (
    <>
      <SettingsNav />
      <h1>Webhooks</h1>
      <p className="hint">
        Warden posts a signed <code>threat_detected</code> alert to these endpoints for the threats the alert
        rules below select (by default high and critical, repeats grouped over 10 minutes), retrying for up to
        a day when an endpoint fails.
      </p>
      {error !== undefined && <Failure error={error} />}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {shown && <Secret shown={shown} onDone={() => setShown(undefined)} />}
      {canManage ? (
        <form className="card inline-form" onSubmit={submit} aria-label="Add an endpoint">
          <label className="grow">
            Endpoint URL
            <input
              type="url"
              required
              maxLength={2048}
              placeholder="https://example.com/warden-alerts"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          </label>
          <label>
            Description (optional)
            <input maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <label>
            Format
            <select value={format} onChange={(e) => setFormat(e.target.value as WebhookEndpoint['format'])}>
              <option value="standard">JSON (Standard Webhooks)</option>
              <option value="slack">Slack incoming webhook</option>
            </select>
          </label>
          <fieldset>
            <legend>Events</legend>
            <label className="check">
              <input type="checkbox" checked readOnly disabled /> threat_detected
            </label>
          </fieldset>
          <button type="submit" disabled={create.isPending}>
            Add endpoint
          </button>
        </form>
      ) : (
        <p className="notice">
          Your role ({me.data?.role ?? '…'}) can see endpoints and their deliveries; an owner or admin adds,
          tests and rotates them.
        </p>
      )}

      {endpoints.error ? (
        <Failure error={endpoints.error} />
      ) : !endpoints.data ? (
        <p>Loading…</p>
      ) : list.length === 0 ? (
        <div className="empty card">
          <p>
            No webhook endpoints yet.{' '}
            {canManage
              ? 'Add the URL of your receiver above (Slack, PagerDuty or your own service): Warden gives you its signing secret once, then “Send test event” checks it answers.'
              : 'An owner or admin of your organisation can add one.'}
          </p>
        </div>
      ) : (
        <table aria-label="Webhook endpoints">
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((e) => (
              <tr
                key={e.id}
                data-endpoint-id={e.id}
                className={e.id === selected?.id ? 'selected' : undefined}
              >
                <td>
                  <code>{e.url}</code>
                  {e.description && <div className="hint">{e.description}</div>}
                </td>
                <td>
                  {e.events.join(', ')}
                  {e.format === 'slack' && <div className="hint">as Slack messages</div>}
                </td>
                <td>
                  <EndpointStatus e={e} />
                  {e.previousSecretUntil && new Date(e.previousSecretUntil) > new Date() && (
                    <div className="hint">old secret signs too until {when(e.previousSecretUntil)}</div>
                  )}
                </td>
                <td title={e.createdAt}>{ago(e.createdAt)}</td>
                <td>
                  <div className="actions wrap">
                    <button
                      type="button"
                      className="secondary"
                      aria-pressed={e.id === selected?.id}
                      onClick={() => select(e.id)}
                    >
                      Deliveries
                    </button>
                    {canManage && (
                      <>
                        <button type="button" className="secondary" onClick={() => test.mutate(e.id)}>
                          Send test event
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => {
                            if (
                              window.confirm(
                                'Rotate the signing secret? The old one keeps signing beside the new one for 24 hours.',
                              )
                            )
                              rotate.mutate(e.id);
                          }}
                        >
                          Rotate secret
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => toggle.mutate({ id: e.id, enabled: !e.enabled })}
                        >
                          {e.enabled ? 'Disable' : 'Enable'}
                        </button>
                        <button
                          type="button"
                          className="danger"
                          onClick={() => {
                            if (window.confirm(`Delete ${e.url}? Its pending deliveries and log go with it.`))
                              remove.mutate(e.id);
                          }}
                        >
                          Delete
                        </button>
                      </>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected && <Deliveries key={selected.id} endpoint={selected} canManage={canManage} />}
      <AlertRules canManage={canManage} />
    </>
  );
}
