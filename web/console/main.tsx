import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../shared/styles.css';
import { SiteFooter, SiteHeader } from '../shared/SiteHeader';

// Entry point of /console (the pages themselves live beside this file).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SiteHeader current="console" />
    <main id="main">
      <h1>console</h1>
    </main>
    <SiteFooter />
  </StrictMode>,
);
