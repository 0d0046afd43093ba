import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBLEM_CODES } from '../../src/common/errors/problem';
import { EVENT_TYPES } from '../../src/webhooks/event-types';

const read = (rel: string) => readFileSync(join(__dirname, '../..', rel), 'utf8');

describe('user documentation', () => {
  it('docs/errors.md lists every problem code with its status', () => {
    const doc = read('docs/errors.md');
    for (const [code, status] of Object.entries(PROBLEM_CODES))
      expect([code, doc.includes(`| \`${code}\` | ${status} |`)]).toEqual([code, true]);
  });

  it('docs/webhooks.md covers every event type, the headers, both libraries, retries, 410 and rotation', () => {
    const doc = read('docs/webhooks.md');
    for (const type of EVENT_TYPES) expect(doc).toContain(`\`${type}\``);
    for (const text of [
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'npm install standardwebhooks',
      'pip install standardwebhooks',
      '410 Gone',
      'rotate-secret',
      'WEBHOOK_RETRY_DELAYS',
    ]) {
      expect(doc).toContain(text);
    }
  });

  it('README links both documents', () => {
    const readme = read('README.md');
    expect(readme).toContain('docs/errors.md');
    expect(readme).toContain('docs/webhooks.md');
  });
});
