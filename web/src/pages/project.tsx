import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { format } from 'date-fns';
import { api } from '../api';
import { Failure, useMe } from '../layout';
import { useCurrentProject } from '../project';
import { selectProject } from '../project-store';
import { SettingsNav } from '../settings-nav';
import type { KeyListing } from '../types';
import { mayManageOrg, type Limits, type Project } from '../types-settings';

const TIERS: Project['tier'][] = ['starter', 'free', 'professional', 'business', 'enterprise'];
const LIMITS: { name: keyof Limits; label: string }[] = [
  { name: 'ratePerMinute', label: 'Requests per minute' },
  { name: 'burst', label: 'Burst' },
  { name: 'agentLimit', label: 'Agents' },
];
const n = (v: number) => v.toLocaleString('en');

/** One limit against what is used of it now. */
function UsageRow({
  label,
  unit,
  limit,
  override,
  used,
  usedText,
}: {
  label: string;
  unit: string;
  limit: number;
  override?: number;
  used?: number;
  usedText: string;
}) {
  const share = used !== undefined && limit > 0 ? Math.min(1, used / limit) : undefined;
  return (
    <tr>
      <th scope="row">
        {label}
        <div className="hint">{unit}</div>
      </th>
      <td className="num">{n(limit)}</td>
      <td>{override !== undefined ? 'project override' : 'tier default'}</td>
      <td className="num">{usedText}</td>
      <td className="bar-cell">
        {share !== undefined && (
          <meter
            aria-label={`${label}: ${usedText} of ${n(limit)}`}
            min={0}
            max={1}
            low={0.7}
            high={0.9}
            optimum={0}
            value={share}
          />
        )}
      </td>
    </tr>
  );
}

export function ProjectPage() {
  const me = useMe();
  const client = useQueryClient();
  const { project, projects, error: loadError } = useCurrentProject();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => api<{ keys: KeyListing[] }>('/keys') });
  const role = me.data?.role;
  const canRename = role !== undefined && role !== 'viewer';
  const canPlan = mayManageOrg(role);
  const [name, setName] = useState('');
  const [tier, setTier] = useState<Project['tier']>('free');
  const [overrides, setOverrides] = useState<Record<keyof Limits, string>>({
    ratePerMinute: '',
    burst: '',
    agentLimit: '',
  });
  const [newName, setNewName] = useState('');
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState('');

  // The form starts from the project as stored, and again when another project is picked.
  useEffect(() => {
    if (!project) return;
    setName(project.name);
    setTier(project.tier);
    setOverrides({
      ratePerMinute: project.limits?.ratePerMinute?.toString() ?? '',
      burst: project.limits?.burst?.toString() ?? '',
      agentLimit: project.limits?.agentLimit?.toString() ?? '',
    });
  }, [project]);

  const onError = (err: unknown) => {
    setSaved('');
    setError(err);
  };
  const done = (what: string) => {
    setError(undefined);
    setSaved(what);
    void client.invalidateQueries({ queryKey: ['projects'] });
  };
  const update = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api<Project>(`/projects/${encodeURIComponent(project?.projectId ?? '')}`, { method: 'PATCH', body }),
    onSuccess: (_p, body) => done('tier' in body ? 'Plan and limits saved.' : 'Name saved.'),
    onError,
  });
  const create = useMutation({
    mutationFn: () => api<Project>('/projects', { method: 'POST', body: { name: newName.trim() } }),
    onSuccess: (p) => {
      setNewName('');
      selectProject(p.projectId);
      void client.resetQueries();
      done(`Project ${p.name} created; the pages now show it (switch with the picker at the top).`);
    },
    onError,
  });

  const rename = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ name: name.trim() });
  };
  const savePlan = (e: FormEvent) => {
    e.preventDefault();
    const limits: Partial<Limits> = {};
    for (const { name: limit } of LIMITS) {
      const v = overrides[limit].trim();
      if (v !== '') limits[limit] = Number(v);
    }
    update.mutate({ tier, limits });
  };
  const addProject = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };

  if (loadError) return <Failure error={loadError} />;
  if (!projects) return <p>Loading…</p>;
  const requestsToday = keys.data?.keys.reduce((sum, k) => sum + k.usage.today, 0);

  return (
    <>
      <SettingsNav />
      <h1>Project{project ? `: ${project.name}` : ''}</h1>
      {error !== undefined && <Failure error={error} />}
      {saved && (
        <p className="notice" role="status">
          {saved}
        </p>
      )}
      {!project ? (
        <p className="empty">
          Your organisation has no project yet.{' '}
          {canPlan
            ? 'Create one below to get keys and send records.'
            : 'Ask an owner or admin to create one.'}
        </p>
      ) : (
        <>
          <section className="card" aria-labelledby="about-title">
            <h2 id="about-title">About</h2>
            <dl className="facts">
              <dt>Project id</dt>
              <dd>
                <code>{project.projectId}</code>
              </dd>
              <dt>Tier</dt>
              <dd>
                <span className="tier">{project.tier}</span>
              </dd>
              <dt>Created</dt>
              <dd>{format(new Date(project.createdAt), 'd MMM yyyy')}</dd>
            </dl>
            {canRename ? (
              <form className="inline-form top-gap" onSubmit={rename} aria-label="Rename the project">
                <label>
                  Project name
                  <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
                </label>
                <button type="submit" disabled={update.isPending || name.trim() === project.name}>
                  Save name
                </button>
              </form>
            ) : (
              <p className="hint">
                Your role (viewer) can see the project; a member, admin or owner renames it.
              </p>
            )}
          </section>

          <section className="card" aria-labelledby="limits-title">
            <h2 id="limits-title">Limits and current usage</h2>
            <table className="limits">
              <thead>
                <tr>
                  <th scope="col">Limit</th>
                  <th scope="col" className="num">
                    In force
                  </th>
                  <th scope="col">From</th>
                  <th scope="col" className="num">
                    Used now
                  </th>
                  <th scope="col">Share</th>
                </tr>
              </thead>
              <tbody>
                {project.effectiveLimits && (
                  <>
                    <UsageRow
                      label="Requests per minute"
                      unit="sustained, per project"
                      limit={project.effectiveLimits.ratePerMinute}
                      {...(project.limits?.ratePerMinute !== undefined
                        ? { override: project.limits.ratePerMinute }
                        : {})}
                      usedText={requestsToday === undefined ? '…' : `${n(requestsToday)} requests today`}
                    />
                    <UsageRow
                      label="Burst"
                      unit="requests at once on a rested project"
                      limit={project.effectiveLimits.burst}
                      {...(project.limits?.burst !== undefined ? { override: project.limits.burst } : {})}
                      usedText="—"
                    />
                    <UsageRow
                      label="Agents"
                      unit="distinct agentIds reporting (archived ones do not count)"
                      limit={project.effectiveLimits.agentLimit}
                      {...(project.limits?.agentLimit !== undefined
                        ? { override: project.limits.agentLimit }
                        : {})}
                      used={project.usage?.agents ?? 0}
                      usedText={n(project.usage?.agents ?? 0)}
                    />
                  </>
                )}
                <tr>
                  <th scope="row">
                    API keys
                    <div className="hint">not revoked</div>
                  </th>
                  <td className="num">no limit</td>
                  <td>—</td>
                  <td className="num">{n(project.usage?.activeKeys ?? project.activeKeys)}</td>
                  <td />
                </tr>
              </tbody>
            </table>
            {project.tier === 'starter' && (
              <p className="notice">
                The starter tier has no API access: its keys are refused. Pick another tier.
              </p>
            )}
          </section>

          {canPlan ? (
            <form className="card" onSubmit={savePlan} aria-labelledby="plan-title">
              <h2 id="plan-title">Tier and limit overrides</h2>
              <div className="inline-form">
                <label>
                  Tier
                  <select
                    aria-label="Tier"
                    value={tier}
                    onChange={(e) => setTier(e.target.value as Project['tier'])}
                  >
                    {TIERS.map((t) => (
                      <option key={t} value={t}>
                        {t}
                      </option>
                    ))}
                  </select>
                </label>
                {LIMITS.map((l) => (
                  <label key={l.name}>
                    {l.label} override
                    <input
                      type="number"
                      min={1}
                      step={1}
                      placeholder="tier default"
                      value={overrides[l.name]}
                      onChange={(e) => setOverrides((o) => ({ ...o, [l.name]: e.target.value }))}
                    />
                  </label>
                ))}
                <button type="submit" disabled={update.isPending}>
                  Save plan
                </button>
              </div>
              <p className="hint">
                Leave an override empty to keep the tier&apos;s default. Ingest applies changes within
                seconds.
              </p>
            </form>
          ) : (
            <p className="notice">
              Your role ({role ?? '…'}) can see the tier and limits; an owner or admin changes them.
            </p>
          )}
        </>
      )}

      {canPlan && (
        <form className="card inline-form" onSubmit={addProject} aria-label="Create a project">
          <label>
            New project name
            <input required maxLength={200} value={newName} onChange={(e) => setNewName(e.target.value)} />
          </label>
          <button type="submit" disabled={create.isPending}>
            Create project
          </button>
          <p className="hint">Each project has its own keys, agents, limits and webhooks.</p>
        </form>
      )}
    </>
  );
}
