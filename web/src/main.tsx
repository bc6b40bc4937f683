import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { Layout } from './layout';
import { LoginPage } from './pages/login';
import { KeysPage } from './pages/keys';
import { OverviewPage } from './pages/overview';
import { DetectionsPage } from './pages/detections';
import { InteractionPage } from './pages/interaction';
import { AgentPage, AgentsPage } from './pages/agents';
import { AccountPage } from './pages/account';
import { MembersPage } from './pages/members';
import { ProjectPage } from './pages/project';
import { InvitePage, SignupPage } from './pages/signup';
import { WebhooksPage } from './pages/webhooks';
import { ApiFailure } from './api';
import './styles.css';

const queries = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (401, 403, 404) is an answer, not a hiccup: retrying it only delays the message.
      retry: (count, err) =>
        !(err instanceof ApiFailure && err.status >= 400 && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  { path: '/signup', element: <SignupPage /> },
  { path: '/invite/:token', element: <InvitePage /> },
  {
    element: <Layout />,
    children: [
      { path: '/', element: <OverviewPage /> },
      { path: '/detections', element: <DetectionsPage /> },
      { path: '/interactions/:interactionId', element: <InteractionPage /> },
      { path: '/agents', element: <AgentsPage /> },
      { path: '/agents/:agentId', element: <AgentPage /> },
      { path: '/settings/api-keys', element: <KeysPage /> },
      { path: '/settings', element: <Navigate to="/settings/api-keys" replace /> },
      { path: '/settings/members', element: <MembersPage /> },
      { path: '/settings/project', element: <ProjectPage /> },
      { path: '/settings/webhooks', element: <WebhooksPage /> },
      { path: '/settings/account', element: <AccountPage /> },
      { path: '*', element: <p className="notice">No such page. Use the navigation above.</p> },
    ],
  },
]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
