import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { objectsToCsv } from '../csv-table';
import { axisTick, Chart, COLORS, DataTable, Figures, StatusBadge, verbatim } from './common';
import type { ResultView } from './view';

interface Check {
  id: string;
  status: string;
  message: string;
  expected: number | null;
  actual: number | null;
  unit: 'usd' | 'percent' | 'count';
}
interface NavAnswer {
  status: string;
  rollForward: Record<string, number | null>;
  checks: Check[];
  summary: { pass: number; warn: number; fail: number };
}

const UNIT_LABELS: Record<Check['unit'], string> = { usd: 'USD', percent: '%', count: 'count' };

const STEPS: [string, string][] = [
  ['openingNavUsd', 'Opening NAV'],
  ['netFlowsUsd', 'Net flows'],
  ['grossPnlUsd', 'Gross P&L'],
  ['totalFeesAndExpensesUsd', 'Fees and expenses'],
  ['expectedClosingNavUsd', 'Expected closing'],
  ['reportedClosingNavUsd', 'Reported closing'],
];

/**
 * Bars of the waterfall. The figures are the answer's; only the drawing position of each floating
 * step (where the previous one ended) is worked out here, for the picture.
 */
function waterfall(rf: NavAnswer['rollForward']) {
  const v = (k: string) => Number(rf[k] ?? 0);
  let level = v('openingNavUsd');
  const rows = [{ label: 'Opening NAV', range: [0, level], value: rf.openingNavUsd, kind: 'total' }];
  for (const [key, sign] of [
    ['netFlowsUsd', 1],
    ['grossPnlUsd', 1],
    ['totalFeesAndExpensesUsd', -1],
  ] as const) {
    const next = level + sign * v(key);
    rows.push({
      label: STEPS.find((s) => s[0] === key)![1],
      range: [Math.min(level, next), Math.max(level, next)],
      value: rf[key],
      kind: next >= level ? 'up' : 'down',
    });
    level = next;
  }
  rows.push({
    label: 'Expected closing',
    range: [0, v('expectedClosingNavUsd')],
    value: rf.expectedClosingNavUsd,
    kind: 'total',
  });
  rows.push({
    label: 'Reported closing',
    range: [0, v('reportedClosingNavUsd')],
    value: rf.reportedClosingNavUsd,
    kind: 'reported',
  });
  return rows;
}

const TONE: Record<string, string> = {
  total: COLORS.blue,
  up: COLORS.green,
  down: COLORS.red,
  reported: COLORS.purple,
};

function NavResult({ answer }: { answer: NavAnswer }) {
  const rf = answer.rollForward;
  return (
    <>
      <p>
        Overall: <StatusBadge status={answer.status} /> · {answer.summary.pass} passed, {answer.summary.warn} warnings,{' '}
        {answer.summary.fail} failed
      </p>
      <Figures
        items={[
          { member: 'status', label: 'Overall status', value: answer.status },
          {
            member: 'expectedClosingNavUsd',
            label: 'Expected closing NAV',
            value: rf.expectedClosingNavUsd,
            unit: 'USD',
          },
          {
            member: 'reportedClosingNavUsd',
            label: 'Reported closing NAV, as entered',
            value: rf.reportedClosingNavUsd,
            unit: 'USD',
          },
          { member: 'breakUsd', label: 'Break', value: rf.breakUsd, unit: 'USD' },
          { member: 'breakBp', label: 'Break', value: rf.breakBp, unit: 'bp' },
        ]}
      />
      <Chart title="Roll-forward waterfall" tableId="nav-rollforward">
        <ResponsiveContainer>
          <BarChart data={waterfall(rf)} margin={{ top: 8, right: 16, bottom: 8, left: 8 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" interval={0} tick={{ fontSize: 12 }} />
            <YAxis width={64} tickFormatter={axisTick} />
            <Tooltip formatter={(_v, _n, item) => verbatim((item.payload as { value: unknown }).value)} />
            <Bar dataKey="range" name="USD" isAnimationActive={false}>
              {waterfall(rf).map((r) => (
                <Cell key={r.label} fill={TONE[r.kind]} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </Chart>
      <DataTable
        id="nav-rollforward"
        caption="Roll-forward (USD)"
        rows={STEPS.map(([k, label]) => ({ step: label, usd: rf[k] }))}
        columns={[
          { key: 'step', label: 'Step' },
          { key: 'usd', label: 'USD', num: true },
        ]}
      />
      <h3>Checks</h3>
      <ul className="checklist">
        {answer.checks.map((c) => (
          <li key={c.id}>
            <StatusBadge status={c.status} /> <strong>{c.id}</strong>: {c.message}
          </li>
        ))}
      </ul>
      <DataTable<Check>
        caption="Checks: expected and actual"
        rows={answer.checks}
        columns={[
          { key: 'id', label: 'Check' },
          { key: 'status', label: 'Status', render: (c) => <StatusBadge status={c.status} /> },
          { key: 'expected', label: 'Expected', num: true },
          { key: 'actual', label: 'Actual', num: true },
          { key: 'unit', label: 'In', render: (c) => UNIT_LABELS[c.unit] },
        ]}
      />
    </>
  );
}

export const navView: ResultView = {
  render: (a) => <NavResult answer={a as unknown as NavAnswer} />,
  csv: (a) => objectsToCsv((a as unknown as NavAnswer).checks as unknown as Record<string, unknown>[]),
};
