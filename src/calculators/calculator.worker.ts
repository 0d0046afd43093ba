import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread, workerData } from 'node:worker_threads';
import { ProblemError, type FieldError, type ProblemCode } from '../common/errors/problem';
import { createValidationPipe } from '../common/errors/validation';
import { parseJsonBody } from '../common/http/json-body';
import { CALCULATORS, type CalculatorDefinition, runCalculator, type CalculatorName } from './calculators.registry';

/** What crosses the thread boundary: a ProblemError loses its class in a structured clone. */
export type WorkerAnswer =
  | { ok: unknown }
  | { problem: { code: ProblemCode; detail: string; errors?: FieldError[]; headers?: Record<string, string> } };

/** A validated body, or a deferred body's JSON text, parsed and validated here. */
export type WorkerTask = { name: CalculatorName } & ({ body: object | undefined } | { json: string });

export interface WorkerSettings {
  nice: number;
  /** Also move the thread to SCHED_IDLE (Linux). */
  schedIdle: boolean;
}

/**
 * Each calculator thread lowers its own priority (on Linux the nice value and the scheduling
 * policy are per thread, and `setPriority(0, …)` applies to the calling thread only): when the CPU
 * is contended the event loop serving fund reads, and PostgreSQL, run first; idle cores still go to
 * the calculators. SCHED_IDLE goes further than nice 19 (a waking event loop preempts the thread at
 * once); Node has no call for it, so the thread runs util-linux's `chrt` on its own thread id
 * (unprivileged processes may always move their own threads to SCHED_IDLE). Either step is skipped
 * where the platform refuses it.
 */
function lowerOwnPriority(settings: Partial<WorkerSettings> | undefined): void {
  try {
    if (settings?.nice) setPriority(0, settings.nice);
  } catch {
    // not permitted on this platform: the thread keeps its nice value
  }
  if (!settings?.schedIdle || process.platform !== 'linux') return;
  try {
    const tid = readlinkSync('/proc/thread-self').split('/').pop() ?? '';
    execFileSync('chrt', ['--idle', '--pid', '0', tid], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    // no chrt (util-linux) or not permitted: the nice value alone applies
  }
}

if (!isMainThread) lowerOwnPriority(workerData as Partial<WorkerSettings> | undefined);

const pipe = createValidationPipe();

/**
 * A deferred body (a large CSV or report) made into exactly what the request thread would have
 * handed the handler: parsed by the one JSON body parser and validated by the global validation
 * pipe against the calculator's DTO, here on the thread rather than on the event loop.
 */
async function deferredBody(def: CalculatorDefinition, text: string): Promise<object> {
  return (await pipe.transform(parseJsonBody(text), { type: 'body', metatype: def.dto, data: undefined })) as object;
}

/** Piscina's entry point: runs one calculator body, exactly as the request thread would. */
export default async function runInWorker(task: WorkerTask): Promise<WorkerAnswer> {
  const def = CALCULATORS.find((d) => d.name === task.name);
  if (!def) throw new Error(`unknown calculator ${task.name}`);
  try {
    const body = 'json' in task ? await deferredBody(def, task.json) : task.body;
    return { ok: runCalculator(def, body) };
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
    return { problem: { code: err.code, detail: err.detail, errors: err.errors, headers: err.headers } };
  }
}
