// The project the pages act on: picked in the layout, kept in local storage (per browser) and
// taken from a `?project=` link when one is opened. Sent as X-Warden-Project by the API client.

const KEY = 'warden.project';

const fromLink = () => {
  try {
    return new URLSearchParams(window.location.search).get('project') ?? undefined;
  } catch {
    return undefined;
  }
};

let current: string | undefined = (() => {
  const linked = fromLink();
  try {
    if (linked) window.localStorage.setItem(KEY, linked);
    return linked ?? window.localStorage.getItem(KEY) ?? undefined;
  } catch {
    return linked;
  }
})();

/** The picked project id, or undefined for the organisation's first project. */
export const selectedProject = (): string | undefined => current;

const listeners = new Set<() => void>();

/** Called on every pick (for useSyncExternalStore); answers the unsubscribe. */
export function onProjectChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Picks a project (undefined: back to the organisation's first); the caller refetches its queries. */
export function selectProject(projectId: string | undefined): void {
  current = projectId;
  for (const listener of listeners) listener();
  try {
    if (projectId) window.localStorage.setItem(KEY, projectId);
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode): the choice lasts for this page's life.
  }
}
