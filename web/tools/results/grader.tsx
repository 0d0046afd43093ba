import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { objectsToCsv } from '../csv-table';
import { axisTick, Chart, COLORS, DataTable, Figures, StatusBadge } from './common';
import type { ResultView } from './view';

interface Criterion {
  id: string;
  title: string;
  weight: number;
  status: string;
  points: number;
  evidence: string[];
  missing: string[];
}
interface GraderAnswer {
  score: number;
  grade: string;
  criteria: Criterion[];
  summary: { pass: number; partial: number; missing: number };
}

function GraderResult({ answer }: { answer: GraderAnswer }) {
  return (
    <>
      <Figures
        items={[
          { member: 'score', label: 'Score', value: answer.score, unit: '0..100' },
          { member: 'grade', label: 'Grade', value: answer.grade },
        ]}
      />
      <p>
        {answer.summary.pass} criteria met, {answer.summary.partial} partly, {answer.summary.missing} missing.
      </p>
      <Chart title="Points earned against each criterion’s weight" tableId="grader-criteria" height={380}>
        <ResponsiveContainer>
          <BarChart
            data={answer.criteria}
            layout="vertical"
            margin={{ top: 8, right: 24, bottom: 8, left: 8 }}
            accessibilityLayer={false}
          >
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" tickFormatter={axisTick} />
            <YAxis type="category" dataKey="id" width={120} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Legend />
            <Bar dataKey="weight" name="Weight" fill={COLORS.grey} isAnimationActive={false} />
            <Bar dataKey="points" name="Points" fill={COLORS.green} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </Chart>
      <h3>The checklist</h3>
      <ul className="checklist">
        {answer.criteria.map((c) => (
          <li key={c.id}>
            <StatusBadge status={c.status} /> <strong>{c.title}</strong> ({c.points} of {c.weight} points)
            {c.evidence.length > 0 && <div className="small">Found: {c.evidence.map((e) => `“${e}”`).join(' · ')}</div>}
            {c.missing.length > 0 && <div className="small">Missing: {c.missing.join(', ')}</div>}
          </li>
        ))}
      </ul>
      <DataTable<Criterion>
        id="grader-criteria"
        caption="Criteria"
        rows={answer.criteria}
        columns={[
          { key: 'id', label: 'Id' },
          { key: 'title', label: 'Criterion' },
          { key: 'status', label: 'Status' },
          { key: 'points', label: 'Points', num: true },
          { key: 'weight', label: 'Weight', num: true },
        ]}
      />
    </>
  );
}

export const graderView: ResultView = {
  render: (a) => <GraderResult answer={a as unknown as GraderAnswer} />,
  csv: (a) =>
    objectsToCsv(
      (a as unknown as GraderAnswer).criteria.map((c) => ({
        ...c,
        evidence: c.evidence.join(' | '),
        missing: c.missing.join(' | '),
      })),
    ),
};
