import { setPriority } from 'node:os';
import { isMainThread, workerData } from 'node:worker_threads';
import { ProblemError, type FieldError, type ProblemCode } from '../common/errors/problem';
import { CALCULATORS, runCalculator, type CalculatorName } from './calculators.registry';

/** What crosses the thread boundary: a ProblemError loses its class in a structured clone. */
export type WorkerAnswer =
  | { ok: unknown }
  | { problem: { code: ProblemCode; detail: string; errors?: FieldError[]; headers?: Record<string, string> } };

export interface WorkerTask {
  name: CalculatorName;
  body: object | undefined;
}

export interface WorkerSettings {
  nice: number;
}

/**
 * Each calculator thread lowers its own priority (on Linux the nice value is per thread, and
 * `setPriority(0, …)` applies to the calling thread only): when the CPU is contended the event loop
 * serving fund reads, and PostgreSQL, run first; idle cores still go to the calculators.
 */
if (!isMainThread) {
  const settings = workerData as Partial<WorkerSettings> | undefined;
  try {
    if (settings?.nice) setPriority(0, settings.nice);
  } catch {
    // not permitted on this platform: the threads run at normal priority
  }
}

/** Piscina's entry point: runs one validated calculator body, exactly as the request thread would. */
export default function runInWorker(task: WorkerTask): WorkerAnswer {
  const def = CALCULATORS.find((d) => d.name === task.name);
  if (!def) throw new Error(`unknown calculator ${task.name}`);
  try {
    return { ok: runCalculator(def, task.body) };
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
    return { problem: { code: err.code, detail: err.detail, errors: err.errors, headers: err.headers } };
  }
}
