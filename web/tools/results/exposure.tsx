import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { objectsToCsv } from '../csv-table';
import { axisTick, Chart, COLORS, DataTable, Figures, type Column } from './common';
import type { ResultView } from './view';

interface Group {
  key: string;
  longUsd: number;
  shortUsd: number;
  netUsd: number;
  grossUsd: number;
  shareOfGrossPct: number | null;
}
interface TopAsset {
  asset: string;
  netUsd: number;
  grossUsd: number;
  weightPct: number;
}
interface ExposureAnswer {
  positionsCount: number;
  exposure: Record<string, number | null>;
  concentration: {
    top5: TopAsset[];
    top5WeightPct: number;
    largestWeightPct: number;
    herfindahlIndex: number;
    effectivePositions: number | null;
    assetCount: number;
  };
  byClass: Group[];
  byVenue: Group[];
}

const GROUP_COLUMNS: Column<Group>[] = [
  { key: 'key', label: 'Name' },
  { key: 'longUsd', label: 'Long', num: true },
  { key: 'shortUsd', label: 'Short', num: true },
  { key: 'netUsd', label: 'Net', num: true },
  { key: 'grossUsd', label: 'Gross', num: true },
  { key: 'shareOfGrossPct', label: 'Share of gross %', num: true },
];

function GroupChart({ title, rows, tableId }: { title: string; rows: Group[]; tableId: string }) {
  return (
    <Chart title={title} tableId={tableId} height={260}>
      <ResponsiveContainer>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 8, left: 8 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="key" interval={0} tick={{ fontSize: 12 }} />
          <YAxis width={64} tickFormatter={axisTick} />
          <Tooltip />
          <Legend />
          <Bar dataKey="longUsd" name="Long" fill={COLORS.green} isAnimationActive={false} />
          <Bar dataKey="shortUsd" name="Short" fill={COLORS.red} isAnimationActive={false} />
          <Bar dataKey="netUsd" name="Net" fill={COLORS.blue} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </Chart>
  );
}

function ExposureResult({ answer }: { answer: ExposureAnswer }) {
  const e = answer.exposure;
  const c = answer.concentration;
  return (
    <>
      <Figures
        items={[
          { member: 'longUsd', label: 'Long', value: e.longUsd, unit: 'USD' },
          { member: 'shortUsd', label: 'Short', value: e.shortUsd, unit: 'USD' },
          { member: 'grossUsd', label: 'Gross', value: e.grossUsd, unit: 'USD' },
          { member: 'netUsd', label: 'Net', value: e.netUsd, unit: 'USD' },
          { member: 'cashUsd', label: 'Cash', value: e.cashUsd, unit: 'USD' },
          { member: 'grossPct', label: 'Gross', value: e.grossPct, unit: '% of NAV' },
          { member: 'netPct', label: 'Net', value: e.netPct, unit: '% of NAV' },
          { member: 'top5WeightPct', label: 'Top 5 weight', value: c.top5WeightPct, unit: '%' },
          { member: 'herfindahlIndex', label: 'Herfindahl index', value: c.herfindahlIndex, unit: '0..1' },
          { member: 'effectivePositions', label: 'Effective positions', value: c.effectivePositions },
        ]}
      />
      <GroupChart title="Long, short and net by asset class" rows={answer.byClass} tableId="exposure-class" />
      <DataTable id="exposure-class" caption="By asset class (USD)" rows={answer.byClass} columns={GROUP_COLUMNS} />
      <GroupChart title="Long, short and net by venue" rows={answer.byVenue} tableId="exposure-venue" />
      <DataTable id="exposure-venue" caption="By venue (USD)" rows={answer.byVenue} columns={GROUP_COLUMNS} />
      <Chart
        title="Concentration: the five largest assets, % of non-cash exposure (net by asset)"
        tableId="exposure-top5"
        height={220}
      >
        <ResponsiveContainer>
          <BarChart
            data={c.top5}
            layout="vertical"
            margin={{ top: 8, right: 24, bottom: 8, left: 8 }}
            accessibilityLayer={false}
          >
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" unit="%" />
            <YAxis type="category" dataKey="asset" width={80} />
            <Tooltip />
            <Bar dataKey="weightPct" name="Weight %" fill={COLORS.purple} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </Chart>
      <DataTable<TopAsset>
        id="exposure-top5"
        caption={`Top 5 of ${c.assetCount} assets (${answer.positionsCount} positions)`}
        rows={c.top5}
        columns={[
          { key: 'asset', label: 'Asset' },
          { key: 'netUsd', label: 'Net USD', num: true },
          { key: 'grossUsd', label: 'Gross USD (both legs)', num: true },
          { key: 'weightPct', label: 'Weight % (net)', num: true },
        ]}
      />
    </>
  );
}

export const exposureView: ResultView = {
  render: (a) => <ExposureResult answer={a as unknown as ExposureAnswer} />,
  csv: (a) => {
    const x = a as unknown as ExposureAnswer;
    return objectsToCsv([
      ...x.byClass.map((g) => ({ group: 'class', ...g })),
      ...x.byVenue.map((g) => ({ group: 'venue', ...g })),
    ]);
  },
};
