import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { useNavigate } from 'react-router';
import { api } from '../api';
import { Failure, useMe } from '../layout';
import { SettingsNav } from '../settings-nav';
import type { UserSession } from '../types-settings';
import { NewPasswordField } from '../new-password';

const ago = (iso: string) => formatDistanceToNow(new Date(iso), { addSuffix: true });

/** The browser of a session, short: "Chrome on Linux" rather than the whole user-agent string. */
function browserOf(userAgent?: string): string {
  if (!userAgent) return 'unknown client';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /curl\//.test(userAgent)
            ? 'curl'
            : 'a client';
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /Mac OS X/.test(userAgent)
      ? 'macOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /iPhone|iPad/.test(userAgent)
          ? 'iOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}

/** /settings/account: the signed-in person's password and live sessions. */
export function AccountPage() {
  const me = useMe();
  const client = useQueryClient();
  const navigate = useNavigate();
  const sessions = useQuery({
    queryKey: ['sessions'],
    queryFn: () => api<{ sessions: UserSession[] }>('/me/sessions'),
  });
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState('');

  const change = useMutation({
    mutationFn: () => api('/me/password', { method: 'POST', body: { current, new: next } }),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setError(undefined);
      setNotice('Password changed. Your other sessions were signed out.');
      void client.invalidateQueries({ queryKey: ['sessions'] });
    },
    onError: (err) => {
      setNotice('');
      setError(err);
    },
  });
  const revoke = useMutation({
    mutationFn: (s: UserSession) =>
      api(`/me/sessions/${encodeURIComponent(s.sessionId)}`, { method: 'DELETE' }),
    onSuccess: (_r, s) => {
      if (s.current) {
        client.clear();
        navigate('/login');
        return;
      }
      setNotice('Session signed out.');
      void client.invalidateQueries({ queryKey: ['sessions'] });
    },
    onError: (err) => setError(err),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate();
  };

  return (
    <>
      <SettingsNav />
      <h1>Your account</h1>
      <p className="hint">
        Signed in as {me.data?.user?.email ?? '…'} ({me.data?.role ?? '…'}).
      </p>
      {error !== undefined && <Failure error={error} />}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <form className="card inline-form" onSubmit={submit} aria-label="Change your password">
        <label>
          Current password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </label>
        <NewPasswordField label="New password" value={next} onChange={setNext} />
        <button type="submit" disabled={change.isPending}>
          Change password
        </button>
        <p className="hint">At least 12 characters. Every other session of yours ends when it changes.</p>
      </form>

      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Where you are signed in</h2>
        {sessions.error ? (
          <Failure error={sessions.error} />
        ) : !sessions.data ? (
          <p>Loading…</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.sessions.map((s) => (
                <tr key={s.sessionId}>
                  <td title={s.userAgent}>
                    {browserOf(s.userAgent)}
                    {s.current && <span className="muted"> (this browser)</span>}
                  </td>
                  <td>{s.address ?? '—'}</td>
                  <td title={s.createdAt}>{ago(s.createdAt)}</td>
                  <td title={s.lastSeenAt}>{ago(s.lastSeenAt)}</td>
                  <td title={s.expiresAt}>{ago(s.expiresAt)}</td>
                  <td>
                    <div className="actions">
                      <button
                        type="button"
                        className={s.current ? 'secondary' : 'danger'}
                        onClick={() => revoke.mutate(s)}
                      >
                        {s.current ? 'Sign out here' : 'Sign out'}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
