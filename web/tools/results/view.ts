import type { ReactNode } from 'react';

/** How one tool shows an answer: figures, charts and tables; and its main table as CSV. */
export interface ResultView {
  render(answer: Record<string, unknown>): ReactNode;
  csv(answer: Record<string, unknown>): string;
}
