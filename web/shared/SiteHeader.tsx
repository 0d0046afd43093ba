import type { ReactNode } from 'react';

export type Section = 'home' | 'tools' | 'console' | 'docs';

const LINKS: { section: Section; href: string; label: string }[] = [
  { section: 'tools', href: '/tools', label: 'Free tools' },
  { section: 'console', href: '/console', label: 'Console' },
  { section: 'docs', href: '/api/docs', label: 'API reference' },
];

/** The header every page shares: brand, the three destinations, and a slot for page-specific items. */
export function SiteHeader({ current, children }: { current: Section; children?: ReactNode }) {
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="inner">
        <a className="brand" href="/" aria-current={current === 'home' ? 'page' : undefined}>
          fundgate
        </a>
        <nav className="site-nav" aria-label="Site">
          <ul>
            {LINKS.map((l) => (
              <li key={l.section}>
                <a href={l.href} aria-current={current === l.section ? 'page' : undefined}>
                  {l.label}
                </a>
              </li>
            ))}
          </ul>
          {children}
        </nav>
      </div>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      fundgate — shadow-NAV fund data, maker-checker proposals, calculators and MCP. Figures from the free tools are
      illustrative estimates, not accounting or tax advice.
    </footer>
  );
}
