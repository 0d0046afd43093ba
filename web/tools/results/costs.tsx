import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { objectsToCsv } from '../csv-table';
import { axisTick, Chart, COLORS, DataTable, Figures } from './common';
import type { ResultView } from './view';

interface CostLine {
  item: string;
  label: string;
  annualUsd: number;
  shareOfTotalPct: number | null;
}
interface OperatingAnswer {
  totalAnnualCostUsd: number;
  costPerLpReportUsd: number | null;
  costBpOfAum: number | null;
  lineItems: CostLine[];
}
interface SavingsLine {
  item: string;
  label: string;
  inHouseUsd: number;
  automatedUsd: number;
  savingsUsd: number;
}
interface SavingsAnswer {
  inHouseAnnualUsd: number;
  automatedAnnualUsd: number;
  annualSavingsUsd: number;
  savingsPct: number | null;
  savingsBpOfAum: number | null;
  implementationOneTimeUsd: number;
  paybackMonths: number | null;
  fiveYearNetSavingsUsd: number;
  lineItems: SavingsLine[];
  assumptions: {
    automationModel: { item: string; reductionPct: number; rationale: string }[];
    platformAnnualUsd: number;
  };
}

const margin = { top: 8, right: 24, bottom: 8, left: 8 };

interface BarSpec {
  dataKey: string;
  name: string;
  fill: string;
}

/** A horizontal bar chart over rows labelled by `label` (the line items, the payback figures). */
function LabelledBars({
  title,
  tableId,
  height,
  data,
  bars,
  labelWidth = 160,
  legend = false,
}: {
  title: string;
  tableId: string;
  height: number;
  data: { label: string }[];
  bars: BarSpec[];
  labelWidth?: number;
  legend?: boolean;
}) {
  return (
    <Chart title={title} tableId={tableId} height={height}>
      <ResponsiveContainer>
        <BarChart data={data} layout="vertical" margin={margin} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis type="number" tickFormatter={axisTick} />
          <YAxis type="category" dataKey="label" width={labelWidth} tick={{ fontSize: 12 }} />
          <Tooltip />
          {legend && <Legend />}
          {bars.map((b) => (
            <Bar key={b.dataKey} dataKey={b.dataKey} name={b.name} fill={b.fill} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </Chart>
  );
}

function OperatingResult({ answer }: { answer: OperatingAnswer }) {
  return (
    <>
      <Figures
        items={[
          { member: 'totalAnnualCostUsd', label: 'Total cost a year', value: answer.totalAnnualCostUsd, unit: 'USD' },
          {
            member: 'costPerLpReportUsd',
            label: 'All-in back-office cost per LP report',
            value: answer.costPerLpReportUsd,
            unit: 'USD',
          },
          { member: 'costBpOfAum', label: 'Total cost as a share of AUM', value: answer.costBpOfAum, unit: 'bp' },
        ]}
      />
      <LabelledBars
        title="Cost breakdown, USD a year"
        tableId="cost-lines"
        height={320}
        data={answer.lineItems}
        bars={[{ dataKey: 'annualUsd', name: 'USD a year', fill: COLORS.blue }]}
      />
      <DataTable<CostLine>
        id="cost-lines"
        caption="Line items"
        rows={answer.lineItems}
        columns={[
          { key: 'label', label: 'Item' },
          { key: 'annualUsd', label: 'USD a year', num: true },
          { key: 'shareOfTotalPct', label: 'Share %', num: true },
        ]}
      />
    </>
  );
}

function SavingsResult({ answer }: { answer: SavingsAnswer }) {
  // the model names items by id (financeHire): shown by the line items' own labels
  const labelOf = (item: string) => answer.lineItems.find((l) => l.item === item)?.label ?? item;
  const model = answer.assumptions.automationModel.map((m) => ({ ...m, label: labelOf(m.item) }));
  const payback = [
    { label: 'One-time implementation', usd: answer.implementationOneTimeUsd },
    { label: 'Savings a year', usd: answer.annualSavingsUsd },
    { label: 'Net savings over 5 years', usd: answer.fiveYearNetSavingsUsd },
  ];
  return (
    <>
      <Figures
        items={[
          { member: 'annualSavingsUsd', label: 'Savings a year', value: answer.annualSavingsUsd, unit: 'USD' },
          { member: 'savingsPct', label: 'Savings', value: answer.savingsPct, unit: '%' },
          { member: 'savingsBpOfAum', label: 'Savings of AUM', value: answer.savingsBpOfAum, unit: 'bp' },
          { member: 'paybackMonths', label: 'Payback', value: answer.paybackMonths, unit: 'months' },
          { member: 'inHouseAnnualUsd', label: 'In-house a year', value: answer.inHouseAnnualUsd, unit: 'USD' },
          { member: 'automatedAnnualUsd', label: 'Automated a year', value: answer.automatedAnnualUsd, unit: 'USD' },
          {
            member: 'fiveYearNetSavingsUsd',
            label: 'Net savings over 5 years',
            value: answer.fiveYearNetSavingsUsd,
            unit: 'USD',
          },
        ]}
      />
      <LabelledBars
        title="Cost breakdown: in-house vs automated, USD a year"
        tableId="savings-lines"
        height={answer.lineItems.length * 52 + 70}
        labelWidth={190}
        data={answer.lineItems}
        legend
        bars={[
          { dataKey: 'inHouseUsd', name: 'In-house', fill: COLORS.grey },
          { dataKey: 'automatedUsd', name: 'Automated', fill: COLORS.blue },
        ]}
      />
      <DataTable<SavingsLine>
        id="savings-lines"
        caption="Line items (USD a year)"
        rows={answer.lineItems}
        columns={[
          { key: 'label', label: 'Item' },
          { key: 'inHouseUsd', label: 'In-house', num: true },
          { key: 'automatedUsd', label: 'Automated', num: true },
          { key: 'savingsUsd', label: 'Savings', num: true },
        ]}
      />
      <LabelledBars
        title="Payback: the one-time cost against the savings"
        tableId="savings-payback"
        height={200}
        data={payback}
        labelWidth={150}
        bars={[{ dataKey: 'usd', name: 'USD', fill: COLORS.green }]}
      />
      <DataTable
        id="savings-payback"
        caption={`Payback in ${answer.paybackMonths ?? '— (no savings)'} months`}
        rows={payback}
        columns={[
          { key: 'label', label: 'Figure' },
          { key: 'usd', label: 'USD', num: true },
        ]}
      />
      <h3>The automated model (planning assumptions, not prices)</h3>
      <DataTable
        caption={`Platform ${answer.assumptions.platformAnnualUsd} USD a year; reduction per item`}
        rows={model}
        columns={[
          { key: 'label', label: 'Item' },
          { key: 'reductionPct', label: 'Reduction %', num: true },
          { key: 'rationale', label: 'Why' },
        ]}
      />
    </>
  );
}

export const operatingView: ResultView = {
  render: (a) => <OperatingResult answer={a as unknown as OperatingAnswer} />,
  csv: (a) => objectsToCsv((a as unknown as OperatingAnswer).lineItems as unknown as Record<string, unknown>[]),
};

export const savingsView: ResultView = {
  render: (a) => <SavingsResult answer={a as unknown as SavingsAnswer} />,
  csv: (a) => objectsToCsv((a as unknown as SavingsAnswer).lineItems as unknown as Record<string, unknown>[]),
};
