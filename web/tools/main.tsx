import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/styles.css';
import { SiteFooter, SiteHeader } from '../shared/SiteHeader';

// Entry point of /tools (the pages themselves live beside this file).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SiteHeader current="tools" />
    <main id="main">
      <h1>tools</h1>
    </main>
    <SiteFooter />
  </StrictMode>,
);
