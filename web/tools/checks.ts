import { sizeProblem } from './download';
import type { FormValues } from './form-state';
import type { FieldSpec } from './schema';

/** Thousands separators, spaces, currency or percent signs around digits: "10,000,000", "15%", "$5". */
const DIGIT = /\d/;
const DECORATION = /[,%$€£_'\s]/;

function numberProblem(f: FieldSpec, text: string): string | null {
  if (text === '') return f.nullable ? null : 'required: enter a number.';
  if (DIGIT.test(text) && DECORATION.test(text))
    return `enter digits only, without thousands separators, spaces, currency or % signs (for example ${
      f.unit === '%' ? '15 for 15 %' : '10000000'
    }).`;
  return null;
}

/**
 * What the browser refuses before sending: an empty required number, a number typed with
 * separators or signs (never guessed: "10,5" may mean ten and a half), a CSV or text over its size
 * limit. Anything else (a word, a value out of bounds) goes to the calculator, which names it.
 */
export function clientProblems(fields: FieldSpec[], values: FormValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const text = String(values[f.name] ?? '');
    if (f.kind === 'number' || f.kind === 'integer') {
      const problem = numberProblem(f, text.trim());
      if (problem) out[f.name] = problem;
    } else {
      const problem = sizeProblem(text, f.limit);
      if (problem) out[f.name] = `${f.label} ${problem}; nothing was sent.`;
    }
  }
  return out;
}
