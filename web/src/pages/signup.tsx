import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api';
import type { AuthConfig } from '../types-settings';
import { NewPasswordField } from '../new-password';

export const useAuthConfig = () =>
  useQuery({ queryKey: ['auth-config'], queryFn: () => api<AuthConfig>('/auth/config'), staleTime: 60_000 });

/** Sign-up is offered when the install is open, or for its very first user. */
export const signupOpen = (config?: AuthConfig) => config?.signup === 'open' || config?.firstUser === true;

/** A form's submit: busy while the call runs, its failure said in words. */
function useSubmit(run: () => Promise<void>) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await run();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, submit };
}

export function SignupPage() {
  const config = useAuthConfig();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [organisation, setOrganisation] = useState('');
  const navigate = useNavigate();
  const client = useQueryClient();
  const { error, busy, submit } = useSubmit(async () => {
    await api('/auth/signup', {
      method: 'POST',
      body: { email, password, organisation: organisation.trim() },
    });
    client.clear();
    navigate('/');
  });

  if (config.data && !signupOpen(config.data)) {
    return (
      <main className="login">
        <section className="card" aria-labelledby="closed-title">
          <h1 id="closed-title">Sign-up is not open here</h1>
          <p>
            {config.data.signup === 'invite'
              ? 'Accounts are created by invitation: ask an owner or admin of your organisation for an invitation link.'
              : 'An operator creates accounts with npx warden users create.'}
          </p>
          <p>
            <Link to="/login">Back to sign-in</Link>
          </p>
        </section>
      </main>
    );
  }
  return (
    <main className="login">
      <form onSubmit={submit} className="card">
        <h1>Create your Warden account</h1>
        <p className="hint">
          {config.data?.firstUser
            ? 'This is a fresh install: you become the owner of its first organisation.'
            : 'You become the owner of a new organisation with a first project.'}
        </p>
        <label>
          Organisation
          <input
            required
            maxLength={200}
            autoComplete="organization"
            value={organisation}
            onChange={(e) => setOrganisation(e.target.value)}
          />
        </label>
        <label>
          Email
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <NewPasswordField value={password} onChange={setPassword} hintId="signup-password-hint" />
        <p className="hint" id="signup-password-hint">
          At least 12 characters; a phrase of several words is easiest to remember.
        </p>
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
        <p className="hint">
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </form>
    </main>
  );
}

/** /invite/:token — the invitee sets a name and password, and is signed in to the organisation. */
export function InvitePage() {
  const { token = '' } = useParams();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const navigate = useNavigate();
  const client = useQueryClient();
  const { error, busy, submit } = useSubmit(async () => {
    await api(`/auth/invitations/${encodeURIComponent(token)}/accept`, {
      method: 'POST',
      body: { password, ...(name.trim() ? { name: name.trim() } : {}) },
    });
    client.clear();
    navigate('/');
  });
  return (
    <main className="login">
      <form onSubmit={submit} className="card">
        <h1>Join your team on Warden</h1>
        <p className="hint">
          You were invited to an organisation. Choose your name and a password to accept; the invitation works
          once.
        </p>
        <label>
          Your name
          <input autoComplete="name" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <NewPasswordField value={password} onChange={setPassword} hintId="invite-password-hint" />
        <p className="hint" id="invite-password-hint">
          At least 12 characters. You sign in later with the invited email address and this password.
        </p>
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Joining…' : 'Accept invitation'}
        </button>
        <p className="hint">
          Already a member? <Link to="/login">Sign in</Link>
        </p>
      </form>
    </main>
  );
}
