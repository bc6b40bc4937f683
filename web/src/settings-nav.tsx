import { NavLink } from 'react-router';

/** The tabs of the settings pages. */
export function SettingsNav() {
  return (
    <nav className="tabs" aria-label="Settings">
      <NavLink to="/settings/api-keys">API keys</NavLink>
      <NavLink to="/settings/members">Members</NavLink>
      <NavLink to="/settings/project">Project</NavLink>
      <NavLink to="/settings/webhooks">Webhooks</NavLink>
      <NavLink to="/settings/account">Your account</NavLink>
    </nav>
  );
}
