import type { ReactNode } from 'react';

/** A staged proposal's payload, as the API answers it (one shape with each kind's members). */
export interface ProposalPayload {
  entryDate?: string;
  description?: string;
  lines?: { accountCode: string; debit: string; credit: string; description: string | null }[];
  category?: string;
  vendor?: string;
  amount?: string | null;
  accrualDate?: string;
  periodEnd?: string;
  investorId?: string;
  type?: string;
  shareClass?: string;
  fraction?: string | null;
  dealingDate?: string;
  lpReportId?: string | null;
  periodStart?: string;
  narrative?: string;
}

/** Money strings with thousands separators, keeping every decimal the API sent (no float rounding). */
export function money(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const [int, dec] = value.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return dec !== undefined ? `${grouped}.${dec}` : grouped;
}

/** Sum of decimal strings in cents, exact for amounts with at most 2 decimals. */
function sumCents(values: string[]): string {
  let cents = 0n;
  for (const v of values) {
    const [i, d = ''] = (v || '0').split('.');
    cents += BigInt(i || '0') * 100n + BigInt((d + '00').slice(0, 2));
  }
  const s = cents.toString().padStart(3, '0');
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {rows
        .filter(([, v]) => v !== undefined && v !== null && v !== '')
        .map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
    </dl>
  );
}

function JournalLines({ lines }: { lines: NonNullable<ProposalPayload['lines']> }) {
  const debit = sumCents(lines.map((l) => l.debit));
  const credit = sumCents(lines.map((l) => l.credit));
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Journal lines</caption>
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Line description</th>
            <th scope="col" className="num">
              Debit
            </th>
            <th scope="col" className="num">
              Credit
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={i}>
              <td className="mono">{l.accountCode}</td>
              <td>{l.description ?? ''}</td>
              <td className="num">{Number(l.debit) ? money(l.debit) : ''}</td>
              <td className="num">{Number(l.credit) ? money(l.credit) : ''}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>
              Total {debit === credit ? '(balanced)' : '(does not balance)'}
            </th>
            <td className="num">{money(debit)}</td>
            <td className="num">{money(credit)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** What a reviewer needs to decide: the proposal in words and tables rather than JSON. */
export function ProposalPayloadView({ kind, payload }: { kind: string; payload: ProposalPayload }) {
  switch (kind) {
    case 'journal-entry':
      return (
        <>
          <Facts
            rows={[
              ['Entry date', payload.entryDate],
              ['Description', payload.description],
            ]}
          />
          {payload.lines && <JournalLines lines={payload.lines} />}
        </>
      );
    case 'expense':
      return (
        <Facts
          rows={[
            ['Category', payload.category],
            ['Vendor', payload.vendor],
            ['Amount', money(payload.amount)],
            ['Accrual date', payload.accrualDate],
            ['Accrues until', payload.periodEnd],
            ['Description', payload.description],
          ]}
        />
      );
    case 'capital-activity':
      return (
        <Facts
          rows={[
            ['Type', payload.type],
            ['Investor', <span className="mono">{payload.investorId}</span>],
            ['Share class', payload.shareClass],
            ['Amount', money(payload.amount)],
            ['Fraction of holding', payload.fraction],
            ['Dealing date', payload.dealingDate],
          ]}
        />
      );
    case 'lp-report':
      return (
        <>
          <Facts
            rows={[
              ['Report', payload.lpReportId ? <span className="mono">{payload.lpReportId}</span> : 'a new report'],
              ['Period', payload.periodStart ? `${payload.periodStart} to ${payload.periodEnd}` : ''],
            ]}
          />
          {payload.narrative && <blockquote className="narrative">{payload.narrative}</blockquote>}
        </>
      );
    default:
      return <pre>{JSON.stringify(payload, null, 2)}</pre>;
  }
}
