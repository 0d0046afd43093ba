import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { extname, join } from 'node:path';
import { Piscina } from 'piscina';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { ProblemError } from '../common/errors/problem';
import { sendProblem } from '../common/errors/problem.filter';
import { DEFER_JSON_BODY_AT, DeferredJsonBody, deferJsonBodyAt } from '../common/http/json-body';
import { type CalculatorDefinition, runCalculator, withDefaults } from './calculators.registry';
import runInWorker, { type WorkerAnswer, type WorkerSettings, type WorkerTask } from './calculator.worker';

/** Text inputs at or above this many characters make a call heavy (CSV parsing, report grading). */
export const HEAVY_TEXT_CHARS = 16 * 1024;
/** Fee schedules of at least this many periods (horizon × periods a year) are heavy. */
export const HEAVY_FEE_PERIODS = 40;
/** Seconds a caller is told to wait when the heavy queue is full. */
export const CALC_RETRY_AFTER_SECONDS = 1;

const TEXT_FIELDS = ['positionsCsv', 'lpRowsCsv', 'reportText'] as const;

/**
 * Route config of a calculator route. A calculator with a text field (CSV, report text) defers a
 * JSON body of HEAVY_TEXT_CHARS characters or more: it is not parsed on the event loop; the handler
 * gets the text, which the worker thread parses and validates (calculator.worker.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any calculator (see isHeavy)
export function calculatorRouteConfig(def: CalculatorDefinition<any, unknown>): Record<string, unknown> {
  return TEXT_FIELDS.some((f) => f in def.defaults) ? { [DEFER_JSON_BODY_AT]: HEAVY_TEXT_CHARS } : {};
}

/** Whether a validated body is worth a thread hop (small calls run inline: the hop costs ~0.1 ms). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any calculator: a definition is invariant in its input (defaults and run both use I), so no other type holds them all
export function isHeavy(def: CalculatorDefinition<any, unknown>, body: Record<string, unknown> | undefined): boolean {
  const input = withDefaults(def.defaults as Record<string, unknown>, body);
  if (def.name === 'fee-calculator') {
    const years = typeof input.horizonYears === 'number' ? input.horizonYears : 0;
    return years * (input.crystallization === 'quarterly' ? 4 : 1) >= HEAVY_FEE_PERIODS;
  }
  return TEXT_FIELDS.some((f) => typeof input[f] === 'string' && input[f].length >= HEAVY_TEXT_CHARS);
}

/**
 * CPU-heavy calculator calls run on a piscina worker-thread pool (CALC_WORKERS threads, default
 * cores − 1, started on the first heavy call) so the event loop keeps serving fund reads. At most CALC_QUEUE_MAX heavy calls wait;
 * beyond that the answer is 503 `unavailable` with Retry-After instead of a growing queue, which
 * also bounds an accepted call's latency to about (CALC_QUEUE_MAX / CALC_WORKERS + 1) service times.
 */
@Injectable()
export class CalculatorPool implements OnModuleDestroy {
  private pool: Piscina | null = null;
  /** Heavy calls on the pool now: running or waiting. */
  private inFlight = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private threads(): Piscina {
    const ext = extname(__filename);
    this.pool ??= new Piscina({
      filename: join(__dirname, `calculator.worker${ext}`),
      minThreads: this.config.calcWorkers,
      maxThreads: this.config.calcWorkers,
      idleTimeout: 60_000,
      workerData: {
        nice: this.config.calcWorkerNice,
        schedIdle: this.config.calcWorkerSched === 'idle',
      } satisfies WorkerSettings,
      // TypeScript sources (development, tests) are compiled on load by the same register hook
      execArgv: ext === '.ts' ? ['-r', '@swc-node/register'] : [],
    });
    return this.pool;
  }

  /** A validated body, or a deferred one (a large text body: always heavy, parsed and validated on the thread). */
  async run<I extends object, O>(
    def: CalculatorDefinition<I, O>,
    body: Partial<I> | DeferredJsonBody | undefined,
  ): Promise<O> {
    if (body instanceof DeferredJsonBody) return this.execute<O>({ name: def.name, json: body.text });
    if (this.config.calcWorkers === 0 || !isHeavy(def, body)) return runCalculator(def, body);
    return this.execute<O>({ name: def.name, body: body ? { ...body } : undefined });
  }

  /** A task on a pool thread, or (CALC_WORKERS=0) inline through the threads' own entry point. */
  private async execute<O>(task: WorkerTask): Promise<O> {
    const answer = this.config.calcWorkers === 0 ? await runInWorker(task) : await this.onThread(task);
    if ('problem' in answer) {
      const p = answer.problem;
      throw new ProblemError(p.code, p.detail, p.errors, p.headers);
    }
    return answer.ok as O;
  }

  /**
   * Runs `task` on a thread within CALC_TASK_TIMEOUT_MS (waiting included): past it piscina takes the
   * task off the queue, or ends the thread running it (a new one replaces it), and the answer is 503 —
   * no input, however pathological, holds a thread for longer. The bound on waiting calls is counted
   * here: piscina keeps abortable tasks in a queue of their own that its maxQueue does not bound.
   */
  private async onThread(task: WorkerTask): Promise<WorkerAnswer> {
    if (this.saturated()) throw calculatorsBusy();
    const signal = AbortSignal.timeout(this.config.calcTaskTimeoutMs);
    this.inFlight++;
    try {
      return (await this.threads().run(task, { signal })) as WorkerAnswer;
    } catch (err) {
      if (signal.aborted) throw stopped(this.config.calcTaskTimeoutMs);
      throw err;
    } finally {
      this.inFlight--;
    }
  }

  /** Every thread busy and the queue full: the next heavy call would be refused. */
  saturated(): boolean {
    // inline (CALC_WORKERS=0) nothing waits on a pool, so nothing is ever refused for it
    return this.config.calcWorkers > 0 && this.inFlight >= this.config.calcWorkers + this.config.calcQueueMax;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool?.close({ force: true });
  }
}

function stopped(ms: number): ProblemError {
  return new ProblemError(
    'unavailable',
    `the calculation did not finish within ${ms} ms and was stopped; try a smaller input`,
    undefined,
    { 'Retry-After': String(CALC_RETRY_AFTER_SECONDS) },
  );
}

/** The answer when the pool's queue is full: REST's early shedding, the pool itself and the MCP tool invoker. */
export function calculatorsBusy(): ProblemError {
  return new ProblemError(
    'unavailable',
    `the calculators are at capacity; retry in ${CALC_RETRY_AFTER_SECONDS} s`,
    undefined,
    { 'Retry-After': String(CALC_RETRY_AFTER_SECONDS) },
  );
}

/**
 * Sheds a large calculator body before it is read, parsed and validated when the pool is
 * saturated: under overload the event loop would otherwise spend its time on bodies that end in
 * 503 anyway, and fund reads would wait behind them.
 */
export function registerEarlyShedding(fastify: FastifyInstance, pool: CalculatorPool): void {
  fastify.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    // cheap checks first: Fastify builds a new routeOptions object on every access
    if (req.method !== 'POST' || !pool.saturated()) return done();
    const deferAt = deferJsonBodyAt(req.routeOptions.config);
    if (deferAt === undefined || Number(req.headers['content-length'] ?? 0) < deferAt) return done();
    sendProblem(reply, req, calculatorsBusy());
  });
}
