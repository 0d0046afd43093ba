import { useId, type ReactNode } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { SiteFooter, SiteHeader } from '../shared/SiteHeader';
import { Loading, Notice } from './components';
import { NO_FUND, useSession } from './session';

/** The console's pages, and what the chosen fund's role must grant for each to be listed. */
export const PAGES: { path: string; label: string; scope?: string; admin?: boolean }[] = [
  { path: '/keys', label: 'Keys' },
  { path: '/usage', label: 'Usage' },
  { path: '/activity', label: 'Activity' },
  { path: '/webhooks', label: 'Webhooks', scope: 'webhooks:manage' },
  { path: '/proposals', label: 'Proposals', scope: 'proposals:review' },
  { path: '/nav-runs', label: 'NAV runs', scope: 'nav:publish' },
  { path: '/members', label: 'Members', admin: true },
  { path: '/account', label: 'Account' },
];

/** Public pages (sign-in, sign-up, invitation): the site header and one column. */
export function PublicLayout() {
  return (
    <>
      <SiteHeader current="console" />
      <main id="main">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}

function FundSwitcher() {
  const { session, fund, setFund } = useSession();
  const id = useId();
  if (!session) return null;
  return (
    <div className="fund-switcher">
      <label htmlFor={id}>Fund</label>
      <select
        id={id}
        value={fund ?? NO_FUND}
        onChange={(e) => setFund(e.target.value === NO_FUND ? null : e.target.value)}
      >
        {session.memberships.map((m) => (
          <option key={m.fund.slug} value={m.fund.slug}>
            {m.fund.name} ({m.role})
          </option>
        ))}
        <option value={NO_FUND}>No fund: my calculator keys</option>
      </select>
    </div>
  );
}

function ConsoleNav() {
  const { can, membership } = useSession();
  const visible = PAGES.filter((p) => (p.admin ? membership?.role === 'admin' : !p.scope || can(p.scope)));
  return (
    <nav className="console-nav" aria-label="Console">
      <ul>
        {visible.map((p) => (
          <li key={p.path}>
            <NavLink to={p.path}>{p.label}</NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Signed-in pages: the fund switcher, the page list, and the page (remounted when the fund changes). */
export function ConsoleLayout() {
  const { status, session, fund, notice } = useSession();
  const location = useLocation();
  if (status === 'loading') {
    return (
      <main id="main">
        <Loading what="your session" />
      </main>
    );
  }
  if (status === 'signed-out')
    return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return (
    <>
      <SiteHeader current="console">
        <span className="signed-in-as">{session?.user.displayName}</span>
      </SiteHeader>
      <div className="console-bar">
        <div className="inner">
          <FundSwitcher />
          <ConsoleNav />
        </div>
      </div>
      <main id="main" key={fund ?? NO_FUND}>
        {notice && notice.locationKey === location.key && <Notice>{notice.text}</Notice>}
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}

/** Shown instead of a page the chosen fund's role does not allow. */
export function RequireScope({ scope, admin, children }: { scope?: string; admin?: boolean; children: ReactNode }) {
  const { can, membership, fund } = useSession();
  const allowed = admin ? membership?.role === 'admin' : scope ? can(scope) : true;
  if (allowed) return <>{children}</>;
  return (
    <div className="notice" role="status">
      {fund
        ? `Your role on this fund (${membership?.role ?? 'none'}) does not include ${admin ? 'the admin role' : scope}. Choose another fund above, or ask an admin of the fund.`
        : 'This page works on a fund: choose one of your funds above.'}
    </div>
  );
}
