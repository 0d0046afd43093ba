import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { objectsToCsv } from '../csv-table';
import { axisTick, Chart, COLORS, DataTable, Figures, verbatim } from './common';
import type { ResultView } from './view';

interface Period {
  period: number;
  label: string;
  openingNav: number;
  grossReturnUsd: number;
  mgmtFeeUsd: number;
  hurdleThresholdNav: number;
  perfFeeUsd: number;
  closingNav: number;
  highWaterMark: number | null;
  grossNav: number;
}
interface FeeAnswer {
  periods: Period[];
  totals: Record<string, number>;
  assumptions: { horizonYears: number; crystallization: string; periodCount: number; years: number };
}

/** What was simulated: the horizon is rounded to whole periods, so 2.6 years annual computes 3. */
function Horizon({ a }: { a: FeeAnswer['assumptions'] }) {
  const rounded = a.years !== a.horizonYears;
  return (
    <p data-testid="fee-horizon">
      Computed over <strong>{verbatim(a.periodCount)}</strong> {a.crystallization} period
      {a.periodCount === 1 ? '' : 's'}, <strong>{verbatim(a.years)}</strong> year{a.years === 1 ? '' : 's'}
      {rounded ? ` (the ${verbatim(a.horizonYears)} years asked for, rounded to whole periods)` : ''}.
    </p>
  );
}

function FeeResult({ answer }: { answer: FeeAnswer }) {
  const t = answer.totals;
  return (
    <>
      <Horizon a={answer.assumptions} />
      <Figures
        items={[
          { member: 'endingNavUsd', label: 'Ending net NAV', value: t.endingNavUsd, unit: 'USD' },
          { member: 'grossEndingNavUsd', label: 'Ending NAV with no fees', value: t.grossEndingNavUsd, unit: 'USD' },
          { member: 'totalFeesUsd', label: 'Total fees', value: t.totalFeesUsd, unit: 'USD' },
          { member: 'totalMgmtFeesUsd', label: 'Management fees', value: t.totalMgmtFeesUsd, unit: 'USD' },
          { member: 'totalPerfFeesUsd', label: 'Performance fees', value: t.totalPerfFeesUsd, unit: 'USD' },
          { member: 'netAnnualizedReturnPct', label: 'Net return a year', value: t.netAnnualizedReturnPct, unit: '%' },
          {
            member: 'grossAnnualizedReturnPct',
            label: 'Gross return a year',
            value: t.grossAnnualizedReturnPct,
            unit: '%',
          },
          { member: 'feeDragPct', label: 'Fee drag', value: t.feeDragPct, unit: 'pct points' },
        ]}
      />
      <Chart title="NAV path: gross (no fees) vs net of fees" tableId="fee-periods">
        <ResponsiveContainer>
          <LineChart
            data={answer.periods}
            margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
            accessibilityLayer={false}
          >
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" />
            <YAxis width={84} tickFormatter={axisTick} />
            <Tooltip />
            <Legend />
            <Line
              type="monotone"
              dataKey="grossNav"
              name="Gross NAV (no fees)"
              stroke={COLORS.grey}
              strokeDasharray="6 3"
              dot={false}
              isAnimationActive={false}
            />
            <Line
              type="monotone"
              dataKey="closingNav"
              name="Net NAV"
              stroke={COLORS.blue}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </Chart>
      <Chart title="Fees per period" tableId="fee-periods" height={240}>
        <ResponsiveContainer>
          <BarChart data={answer.periods} margin={{ top: 8, right: 16, bottom: 8, left: 8 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" />
            <YAxis width={84} tickFormatter={axisTick} />
            <Tooltip />
            <Legend />
            <Bar
              dataKey="mgmtFeeUsd"
              name="Management fee"
              stackId="fees"
              fill={COLORS.blue}
              isAnimationActive={false}
            />
            <Bar
              dataKey="perfFeeUsd"
              name="Performance fee"
              stackId="fees"
              fill={COLORS.orange}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </Chart>
      <DataTable<Period>
        id="fee-periods"
        caption="Period by period (USD)"
        rows={answer.periods}
        columns={[
          { key: 'label', label: 'Period' },
          { key: 'openingNav', label: 'Opening NAV', num: true },
          { key: 'grossReturnUsd', label: 'Gross return', num: true },
          { key: 'mgmtFeeUsd', label: 'Mgmt fee', num: true },
          { key: 'hurdleThresholdNav', label: 'Hurdle threshold', num: true },
          { key: 'perfFeeUsd', label: 'Perf fee', num: true },
          { key: 'closingNav', label: 'Net NAV', num: true },
          { key: 'grossNav', label: 'Gross NAV', num: true },
          { key: 'highWaterMark', label: 'HWM', num: true },
        ]}
      />
    </>
  );
}

export const feeView: ResultView = {
  render: (a) => <FeeResult answer={a as unknown as FeeAnswer} />,
  csv: (a) => objectsToCsv((a as unknown as FeeAnswer).periods as unknown as Record<string, unknown>[]),
};
