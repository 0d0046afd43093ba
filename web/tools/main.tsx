import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Route, Routes, useParams } from 'react-router';
import '../shared/styles.css';
import './tools.css';
import { SiteFooter, SiteHeader } from '../shared/SiteHeader';
import { toolByName } from './catalog';
import { ToolPage } from './ToolPage';
import { ToolsIndex } from './ToolsIndex';

function NoSuchTool() {
  useEffect(() => {
    document.title = 'No such tool — fundgate free tools';
  }, []);
  return (
    <>
      <h1>No such tool</h1>
      <p>
        See <Link to="/">the list of free tools</Link>.
      </p>
    </>
  );
}

function ToolRoute() {
  const tool = toolByName(useParams().name);
  if (!tool) return <NoSuchTool />;
  return <ToolPage key={tool.name} tool={tool} />;
}

// Entry point of /tools: the index and one page per calculator (a single-page app under /tools).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter basename="/tools">
      <SiteHeader current="tools" />
      <main id="main">
        <Routes>
          <Route index element={<ToolsIndex />} />
          <Route path=":name" element={<ToolRoute />} />
          <Route path="*" element={<ToolRoute />} />
        </Routes>
      </main>
      <SiteFooter />
    </BrowserRouter>
  </StrictMode>,
);
