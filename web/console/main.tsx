import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import '../shared/styles.css';
import './console.css';
import { Loading } from './components';
import { ConsoleLayout, PublicLayout, RequireScope } from './Layout';
import { AccountPage } from './pages/Account';
import { ActivityPage } from './pages/Activity';
import { InvitePage } from './pages/Invite';
import { KeysPage } from './pages/Keys';
import { MembersPage } from './pages/Members';
import { NavRunsPage } from './pages/NavRuns';
import { OAuthConsentPage } from './pages/OAuthConsent';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/PasswordReset';
import { ProposalsPage } from './pages/Proposals';
import { SignInPage } from './pages/SignIn';
import { SignUpPage } from './pages/SignUp';
import { WebhooksPage } from './pages/Webhooks';
import { SessionProvider } from './session';

// The usage page carries the chart library: loaded when it is opened.
const UsagePage = lazy(() => import('./pages/Usage').then((m) => ({ default: m.UsagePage })));

// Entry point of /console: a single-page app under the basename /console.
const router = createBrowserRouter(
  [
    {
      element: <PublicLayout />,
      children: [
        { path: '/sign-in', element: <SignInPage /> },
        { path: '/sign-up', element: <SignUpPage /> },
        { path: '/forgot-password', element: <ForgotPasswordPage /> },
        { path: '/reset-password/:token', element: <ResetPasswordPage /> },
        { path: '/invite/:token', element: <InvitePage /> },
        { path: '/invitations/:token', element: <InvitePage /> },
      ],
    },
    {
      element: <ConsoleLayout />,
      children: [
        { index: true, element: <Navigate to="/keys" replace /> },
        { path: '/keys', element: <KeysPage /> },
        {
          path: '/usage',
          element: (
            <Suspense fallback={<Loading what="the usage page" />}>
              <UsagePage />
            </Suspense>
          ),
        },
        { path: '/activity', element: <ActivityPage /> },
        {
          path: '/webhooks',
          element: (
            <RequireScope scope="webhooks:manage">
              <WebhooksPage />
            </RequireScope>
          ),
        },
        {
          path: '/proposals',
          element: (
            <RequireScope scope="proposals:review">
              <ProposalsPage />
            </RequireScope>
          ),
        },
        {
          path: '/nav-runs',
          element: (
            <RequireScope scope="nav:publish">
              <NavRunsPage />
            </RequireScope>
          ),
        },
        {
          path: '/members',
          element: (
            <RequireScope admin>
              <MembersPage />
            </RequireScope>
          ),
        },
        { path: '/account', element: <AccountPage /> },
        { path: '/oauth/consent', element: <OAuthConsentPage /> },
        { path: '*', element: <Navigate to="/keys" replace /> },
      ],
    },
  ],
  { basename: '/console' },
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  </StrictMode>,
);
