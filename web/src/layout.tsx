import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { api, ApiFailure } from './api';
import { ProjectPicker } from './project';
import type { Me } from './types';

export const useMe = () => useQuery({ queryKey: ['me'], queryFn: () => api<Me>('/me'), staleTime: 60_000 });

/** A failed query said plainly, with what to do about it. */
export function Failure({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <p className="notice error" role="alert">
      {message}
    </p>
  );
}

/** The signed-in frame: navigation, who is signed in, sign-out; /login when there is no session. */
export function Layout() {
  const me = useMe();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  if (me.error instanceof ApiFailure && me.error.status === 401) {
    return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  const signOut = async () => {
    await api('/auth/logout', { method: 'POST' }).catch(() => undefined);
    client.clear();
    navigate('/login');
  };
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">Warden</span>
        <nav aria-label="Main">
          <NavLink to="/" end>
            Overview
          </NavLink>
          <NavLink to="/detections">Detections</NavLink>
          <NavLink to="/agents">Agents</NavLink>
          <NavLink to="/settings">Settings</NavLink>
        </nav>
        {me.data && <ProjectPicker />}
        <span className="who">
          {me.data?.user ? `${me.data.user.email} (${me.data.role})` : ''}
          {me.data && (
            <button type="button" className="link" onClick={signOut}>
              Sign out
            </button>
          )}
        </span>
      </header>
      <main>{me.error ? <Failure error={me.error} /> : me.data ? <Outlet /> : <p>Loading…</p>}</main>
    </div>
  );
}

/** The command that sends a first record, for the empty states. */
export function FirstRecord() {
  const origin = window.location.origin.replace(/:\d+$/, ':8080');
  return (
    <div className="empty">
      <p>
        Nothing recorded yet. Create a key in <NavLink to="/settings/api-keys">API keys</NavLink> (scope{' '}
        <code>ingest</code>), then send your agent&apos;s first record:
      </p>
      <pre>
        {`curl -s -X POST ${origin}/api/v1/telemetry/ingest \\
  -H 'Content-Type: application/json' \\
  -H 'Authorization: Bearer <your key>' \\
  -d '{"agentId":"my-agent","prompt":"hello","response":"hi"}'`}
      </pre>
    </div>
  );
}
