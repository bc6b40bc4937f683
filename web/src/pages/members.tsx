import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { format, formatDistanceToNow } from 'date-fns';
import { api } from '../api';
import { CopyButton } from '../copy';
import { Failure, useMe } from '../layout';
import { SettingsNav } from '../settings-nav';
import type { Role } from '../types';
import { mayManageOrg, ROLES, type CreatedInvitation, type Invitation, type Member } from '../types-settings';

/** Roles each role may hand out (as the API checks): only owners make owners. */
const grantable = (role?: Role): Role[] =>
  role === 'owner' ? ROLES : role === 'admin' ? ROLES.slice(1) : [];

const day = (iso: string) => format(new Date(iso), 'd MMM yyyy');

/** The invitation just created: its link, shown this once, with a copy button. */
function NewInvitation({ created, onDone }: { created: CreatedInvitation; onDone: () => void }) {
  const link = `${window.location.origin}${created.link}`;
  return (
    <section className="card secret" aria-label="New invitation">
      <h2>Invitation for {created.email}</h2>
      <p>
        Send this link to {created.email}: it is shown this once, works once and expires{' '}
        {formatDistanceToNow(new Date(created.expiresAt), { addSuffix: true })}.
      </p>
      <div className="row">
        <code data-testid="invite-link">{link}</code>
        <CopyButton text={link} label="Copy link" />
      </div>
      <button type="button" className="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

export function MembersPage() {
  const me = useMe();
  const client = useQueryClient();
  const role = me.data?.role;
  const canManage = mayManageOrg(role);
  const members = useQuery({ queryKey: ['members'], queryFn: () => api<{ members: Member[] }>('/members') });
  const invitations = useQuery({
    queryKey: ['invitations'],
    queryFn: () => api<{ invitations: Invitation[] }>('/invitations'),
  });
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<Role>('member');
  const [created, setCreated] = useState<CreatedInvitation>();
  const [error, setError] = useState<unknown>();
  const onError = (err: unknown) => setError(err);
  const refresh = (what: 'members' | 'invitations') => client.invalidateQueries({ queryKey: [what] });

  const invite = useMutation({
    mutationFn: () =>
      api<CreatedInvitation>('/invitations', {
        method: 'POST',
        body: { email: email.trim(), role: inviteRole },
      }),
    onSuccess: (i) => {
      setCreated(i);
      setEmail('');
      setError(undefined);
      void refresh('invitations');
    },
    onError,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/invitations/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => void refresh('invitations'),
    onError,
  });
  const setRole = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      api<Member>(`/members/${encodeURIComponent(userId)}`, { method: 'PATCH', body: { role } }),
    onSuccess: () => {
      setError(undefined);
      void refresh('members');
    },
    onError: (err) => {
      setError(err);
      void refresh('members');
    },
  });
  const remove = useMutation({
    mutationFn: (userId: string) => api(`/members/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
    onSuccess: () => {
      setError(undefined);
      void refresh('members');
    },
    onError,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate();
  };
  const pending = invitations.data?.invitations.filter((i) => i.status === 'pending') ?? [];
  const others = invitations.data?.invitations.filter((i) => i.status !== 'pending') ?? [];
  // Only an owner changes or removes an owner.
  const mayTouch = (m: Member) => canManage && (role === 'owner' || m.role !== 'owner');

  return (
    <>
      <SettingsNav />
      <h1>Members</h1>
      {error !== undefined && <Failure error={error} />}
      {created && <NewInvitation created={created} onDone={() => setCreated(undefined)} />}
      {canManage ? (
        <form className="card inline-form" onSubmit={submit} aria-label="Invite a member">
          <label>
            Email to invite
            <input
              type="email"
              required
              maxLength={254}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <label>
            Role
            <select
              aria-label="Role"
              value={inviteRole}
              onChange={(e) => setInviteRole(e.target.value as Role)}
            >
              {grantable(role).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={invite.isPending}>
            Create invitation
          </button>
          <p className="hint">
            Viewers read everything; members also manage keys; admins manage people, projects and webhooks;
            owners also manage owners.
          </p>
        </form>
      ) : (
        <p className="notice">
          Your role ({role ?? '…'}) can see who is here; an owner or admin invites people and changes roles.
        </p>
      )}

      <section aria-labelledby="members-title">
        <h2 id="members-title">People</h2>
        {members.error ? (
          <Failure error={members.error} />
        ) : !members.data ? (
          <p>Loading…</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                {canManage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {members.data.members.map((m) => {
                const self = m.userId === me.data?.user?.userId;
                return (
                  <tr key={m.userId} data-user-id={m.userId}>
                    <td>
                      {m.name ?? '—'}
                      {self && <span className="muted"> (you)</span>}
                    </td>
                    <td>{m.email}</td>
                    <td>
                      {mayTouch(m) ? (
                        <select
                          aria-label={`Role of ${m.email}`}
                          value={m.role}
                          disabled={setRole.isPending}
                          onChange={(e) => setRole.mutate({ userId: m.userId, role: e.target.value as Role })}
                        >
                          {(grantable(role).includes(m.role)
                            ? grantable(role)
                            : [m.role, ...grantable(role)]
                          ).map((r) => (
                            <option key={r} value={r}>
                              {r}
                            </option>
                          ))}
                        </select>
                      ) : (
                        <span className={`role ${m.role}`}>{m.role}</span>
                      )}
                    </td>
                    <td title={m.joinedAt}>{day(m.joinedAt)}</td>
                    {canManage && (
                      <td>
                        <div className="actions">
                          {mayTouch(m) && !self && (
                            <button
                              type="button"
                              className="danger"
                              onClick={() => {
                                if (window.confirm(`Remove ${m.email}? Their sessions end at once.`))
                                  remove.mutate(m.userId);
                              }}
                            >
                              Remove
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

      <section aria-labelledby="invitations-title" className="section">
        <h2 id="invitations-title">Pending invitations</h2>
        {invitations.error ? (
          <Failure error={invitations.error} />
        ) : !invitations.data ? (
          <p>Loading…</p>
        ) : pending.length === 0 ? (
          <p className="empty">
            No pending invitations.{' '}
            {canManage
              ? 'Invite a teammate above: they get a link to set their password and join.'
              : 'An owner or admin can invite teammates.'}
          </p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Invited</th>
                <th scope="col">Expires</th>
                {canManage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {pending.map((i) => (
                <tr key={i.invitationId} data-invitation-id={i.invitationId}>
                  <td>{i.email}</td>
                  <td>{i.role}</td>
                  <td title={i.createdAt}>
                    {formatDistanceToNow(new Date(i.createdAt), { addSuffix: true })}
                  </td>
                  <td title={i.expiresAt}>
                    {formatDistanceToNow(new Date(i.expiresAt), { addSuffix: true })}
                  </td>
                  {canManage && (
                    <td>
                      <div className="actions">
                        <button
                          type="button"
                          className="danger"
                          onClick={() => {
                            if (
                              window.confirm(`Revoke the invitation of ${i.email}? Its link stops working.`)
                            )
                              revoke.mutate(i.invitationId);
                          }}
                        >
                          Revoke
                        </button>
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {others.length > 0 && (
          <details className="history">
            <summary>Past invitations ({others.length})</summary>
            <ul>
              {others.map((i) => (
                <li key={i.invitationId}>
                  {i.email} as {i.role}: {i.status} ({day(i.createdAt)})
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>
    </>
  );
}
