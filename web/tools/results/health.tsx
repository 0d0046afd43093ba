import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { objectsToCsv } from '../csv-table';
import { Chart, COLORS, DataTable, Figures, StatusBadge } from './common';
import type { ResultView } from './view';

interface Section {
  id: string;
  title: string;
  weight: number;
  score: number | null;
  assessed: boolean;
}
interface Finding {
  section: string;
  severity: string;
  points: number;
  message: string;
}
interface HealthAnswer {
  overallScore: number;
  grade: string;
  sections: Section[];
  findings: Finding[];
}

const SEVERITY_TONE: Record<string, string> = { high: 'fail', medium: 'warn', low: 'warn', info: 'pass' };

function HealthResult({ answer }: { answer: HealthAnswer }) {
  return (
    <>
      <Figures
        items={[
          { member: 'overallScore', label: 'Overall score', value: answer.overallScore, unit: '0..100' },
          { member: 'grade', label: 'Grade', value: answer.grade },
        ]}
      />
      <Chart title="Score per section (0..100)" tableId="health-sections" height={260}>
        <ResponsiveContainer>
          <BarChart
            data={answer.sections}
            margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
            accessibilityLayer={false}
          >
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="title" interval={0} tick={{ fontSize: 12 }} />
            <YAxis domain={[0, 100]} width={40} />
            <Tooltip />
            <Bar dataKey="score" name="Score" fill={COLORS.blue} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </Chart>
      <DataTable<Section>
        id="health-sections"
        caption="Sections"
        rows={answer.sections}
        columns={[
          { key: 'title', label: 'Section' },
          { key: 'score', label: 'Score', num: true, render: (s) => (s.assessed ? String(s.score) : 'not assessed') },
          { key: 'weight', label: 'Weight %', num: true },
        ]}
      />
      <DataTable<Finding>
        caption={`Findings (${answer.findings.length}), most severe first`}
        rows={answer.findings}
        columns={[
          {
            key: 'severity',
            label: 'Severity',
            render: (f) => <StatusBadge status={f.severity} tone={SEVERITY_TONE[f.severity]} />,
          },
          { key: 'section', label: 'Section' },
          { key: 'points', label: 'Points off', num: true },
          { key: 'message', label: 'Finding' },
        ]}
      />
    </>
  );
}

export const healthView: ResultView = {
  render: (a) => <HealthResult answer={a as unknown as HealthAnswer} />,
  csv: (a) => objectsToCsv((a as unknown as HealthAnswer).findings as unknown as Record<string, unknown>[]),
};
