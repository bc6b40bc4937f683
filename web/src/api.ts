// The API client of the pages: same origin, the session cookie, the CSRF echo on state changes.
import { selectedProject } from './project-store';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const csrfToken = () =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith('warden_csrf='))
    ?.slice('warden_csrf='.length) ?? '';

/** One call of the API; a non-2xx answer throws an ApiFailure with the contract's code and message. */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = decodeURIComponent(csrfToken());
  // The project picker's choice (none: the API takes the organisation's first project).
  const project = selectedProject();
  if (project) headers['x-warden-project'] = project;
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  } catch {
    throw new ApiFailure(0, 'NETWORK', 'The API did not answer; check that `npm start` is running.');
  }
  if (res.status === 204) return undefined as T;
  const body = (await res.json().catch(() => undefined)) as
    { error?: { code?: string; message?: string } } | undefined;
  if (!res.ok) {
    throw new ApiFailure(
      res.status,
      body?.error?.code ?? 'HTTP_' + res.status,
      body?.error?.message ?? `The API answered ${res.status}.`,
    );
  }
  return body as T;
}

/** A route another part of Warden has not shipped yet answers 404 NOT_FOUND "No route …". */
export const isMissingRoute = (err: unknown) =>
  err instanceof ApiFailure && err.status === 404 && err.message.startsWith('No route');
