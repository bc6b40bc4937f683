import { useEffect, useSyncExternalStore } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { onProjectChange, selectProject, selectedProject } from './project-store';
import type { Project } from './types-settings';

export const useProjects = () =>
  useQuery({ queryKey: ['projects'], queryFn: () => api<{ projects: Project[] }>('/projects') });

/** The picked project id (re-rendering on a new pick). */
export const useSelectedProject = () => useSyncExternalStore(onProjectChange, selectedProject);

/** The project the pages act on: the picked one, else the organisation's first (as the API does). */
export function useCurrentProject(): { project?: Project; projects?: Project[]; error: unknown } {
  const projects = useProjects();
  const list = projects.data?.projects;
  const picked = useSelectedProject();
  return {
    project: list?.find((p) => p.projectId === picked) ?? list?.[0],
    projects: list,
    error: projects.error,
  };
}

/**
 * The project picker of the top bar, shown when the organisation has more than one project. The
 * choice is kept in local storage; every query is fetched again for the new project.
 */
export function ProjectPicker() {
  const client = useQueryClient();
  const { project, projects } = useCurrentProject();
  const picked = useSelectedProject();
  // A stored choice this user cannot see (another organisation, a deleted project) is dropped.
  useEffect(() => {
    if (projects && picked && !projects.some((p) => p.projectId === picked)) {
      selectProject(undefined);
      void client.resetQueries({ predicate: (q) => q.queryKey[0] !== 'projects' });
    }
  }, [projects, picked, client]);
  if (!projects || projects.length < 2) return null;
  const change = (projectId: string) => {
    selectProject(projectId);
    void client.resetQueries({ predicate: (q) => q.queryKey[0] !== 'projects' });
  };
  return (
    <label className="project-picker">
      <span>Project</span>
      <select aria-label="Project" value={project?.projectId ?? ''} onChange={(e) => change(e.target.value)}>
        {projects.map((p) => (
          <option key={p.projectId} value={p.projectId}>
            {p.name}
          </option>
        ))}
      </select>
    </label>
  );
}
