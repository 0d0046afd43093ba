import { DelayedError, type Job } from 'bullmq';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { developmentKeyRing, SecretSealer } from '../common/crypto/sealer';
import type { AppConfig } from '../config/config';
import type { AttemptOutcome, ClaimedAttempt } from './deliveries.repository';
import {
  CAPS,
  DeliveryAttemptFailed,
  DeliveryProcessor,
  JobAdmission,
  jobDeliveries,
  mapLimit,
  Slots,
} from './delivery-processor';
import type { DeliveryJobData } from './outbox-dispatcher';
import { newSigningSecret } from './signing';

describe('jobDeliveries', () => {
  it('answers the batch a job carries', () => {
    const deliveries = [
      { id: 'a', generation: 1 },
      { id: 'b', generation: 2 },
    ];
    expect(jobDeliveries({ deliveries })).toEqual(deliveries);
  });

  it('reads a job enqueued before batching (one delivery) as a batch of one', () => {
    expect(jobDeliveries({ deliveryId: 'd', generation: 3 })).toEqual([{ id: 'd', generation: 3 }]);
  });
});

/** Work that records how many holders run at once; `release()` lets every started one finish. */
function gauge() {
  let running = 0;
  let peak = 0;
  const gates: (() => void)[] = [];
  const work = async <T>(value: T): Promise<T> => {
    running++;
    peak = Math.max(peak, running);
    await new Promise<void>((resolve) => gates.push(resolve));
    running--;
    return value;
  };
  const release = async () => {
    while (gates.length > 0 || running > 0) {
      gates.splice(0).forEach((open) => open());
      await new Promise((r) => setImmediate(r));
    }
  };
  return { work, release, peak: () => peak, holding: () => gates.length };
}

describe('Slots (the process-wide in-flight cap)', () => {
  it('never lets more than its slots run at once, and runs every waiter in the end', async () => {
    const slots = new Slots(3);
    const g = gauge();
    const all = Promise.all(Array.from({ length: 10 }, (_, i) => slots.run(() => g.work(i))));
    await new Promise((r) => setImmediate(r));
    expect(g.holding()).toBe(3); // the other seven wait for a slot
    await g.release();
    expect(await all).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(g.peak()).toBe(3);
  });

  it('frees the slot when the work fails', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(slots.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});

describe('mapLimit (the per-job cap)', () => {
  it('keeps at most `limit` in flight and answers in the order of the items', async () => {
    const g = gauge();
    const done = mapLimit([5, 4, 3, 2, 1, 0], 2, (n) => g.work(n * 10));
    await new Promise((r) => setImmediate(r));
    expect(g.holding()).toBe(2);
    await g.release();
    expect(await done).toEqual([50, 40, 30, 20, 10, 0]);
    expect(g.peak()).toBe(2);
  });
});

/** A processor over a fake repository (the claim answers the attempts of the job), sending to real local receivers. */
function processorWith(config: Partial<AppConfig>) {
  const recorded: AttemptOutcome[] = [];
  const attempts = new Map<string, ClaimedAttempt>();
  const repo = {
    claim: async (refs: { id: string }[]) => refs.map((r) => attempts.get(r.id)!),
    facts: async () => [],
    cancel: async () => undefined,
    record: async (o: AttemptOutcome[]) => void recorded.push(...o),
  };
  const base = {
    role: 'worker',
    webhookTimeoutMs: 2000,
    webhookAllowPrivate: true,
    webhookRequireHttps: false,
    webhookRetryDelaysMs: [5_000, 300_000],
  };
  const processor = new DeliveryProcessor({ ...base, ...config } as AppConfig, repo as never, sealer);
  /** A job of `claimed` (one subscription's), owned by `fundId`; `delayed` records a re-delay. */
  const jobOf = (claimed: ClaimedAttempt[], fundId = randomUUID()) => {
    for (const c of claimed) attempts.set(c.id, c);
    const job = {
      data: {
        deliveries: claimed.map(({ id, generation }) => ({ id, generation })),
        subscriptionId: claimed[0].subscription_id,
        fundId,
      },
      attemptsMade: 0,
      opts: { attempts: 3 },
      updateData: async () => undefined,
      delayed: null as number | null,
      moveToDelayed: async (at: number) => void (job.delayed = at),
    };
    return job;
  };
  const run = (job: ReturnType<typeof jobOf>) => processor.process(job as unknown as Job<DeliveryJobData>);
  return { processor, recorded, jobOf, run };
}

const sealer = new SecretSealer(developmentKeyRing());
function attempt(url: string, subscriptionId = randomUUID()): ClaimedAttempt {
  return {
    id: randomUUID(),
    generation: 1,
    subscription_id: subscriptionId,
    attempt_no: 1,
    url,
    signing_secret: sealer.seal(newSigningSecret()),
    previous_signing_secret: null,
    previous_secret_expires_at: null,
    event_id: `evt_${randomUUID()}`,
    body: '{}',
  };
}

async function listen(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const close = () => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  };
  return { url, close };
}

describe('DeliveryProcessor.process', () => {
  it('WEBHOOK_REQUIRE_HTTPS refuses an http:// target at send time: a failed attempt saying why, nothing sent', async () => {
    let hits = 0;
    const rx = await listen((_q, res) => {
      hits++;
      res.writeHead(204).end();
    });
    try {
      const { run, jobOf, recorded } = processorWith({ webhookRequireHttps: true });
      await expect(run(jobOf([attempt(rx.url)]))).rejects.toThrow(DeliveryAttemptFailed);
      expect(recorded).toHaveLength(1);
      // the first failure of the job: its next attempt is due after the schedule's first step
      expect(recorded[0]).toMatchObject({ status: 'pending', result: { statusCode: null }, retryInMs: 5_000 });
      expect(recorded[0].result.error).toContain('WEBHOOK_REQUIRE_HTTPS');
      expect(hits).toBe(0);
    } finally {
      await rx.close();
    }
  });

  it('a failed attempt leaves its delivery pending with the wait BullMQ takes next (the schedule step of the job attempt), none on the last or on success', async () => {
    const rx = await listen((q, res) => res.writeHead(q.url?.endsWith('/ok') ? 204 : 500).end());
    try {
      const { run, jobOf, recorded } = processorWith({ webhookRetryDelaysMs: [2_000, 60_000] });
      for (const attemptsMade of [0, 1, 2]) {
        const job = Object.assign(jobOf([attempt(`${rx.url}/fail`)]), { attemptsMade });
        await expect(run(job)).rejects.toThrow(DeliveryAttemptFailed);
      }
      await run(jobOf([attempt(`${rx.url}/ok`)]));
      expect(recorded.map((o) => [o.status, o.retryInMs])).toEqual([
        ['pending', 2_000],
        ['pending', 60_000],
        ['failed', null], // attempts: 3, so the third is the last
        ['succeeded', null],
      ]);
    } finally {
      await rx.close();
    }
  });

  it('a subscription or fund seen slow keeps its slow caps for the jobs that replace timed-out ones, even before they are slow', () => {
    let now = 1_000_000;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const admission = new JobAdmission({ ...CAPS, slowAfterMs: 1000, slowMemoryMs: 60_000 });
      const enter = (sub: string) => admission.enter(sub, 'fund-a');
      // a burst: jobs are not slow yet, so only the fund's total cap applies
      const burst = Array.from({ length: 20 }, (_, i) => enter(`tarpit-${i % 4}`));
      expect(burst.every((a) => a !== null)).toBe(true);
      now += 15_000; // they all time out together
      for (const a of burst) a!.leave();
      // their replacements: at most the slow caps, though none of them has run 1 s yet
      const sameSub = [enter('tarpit-0'), enter('tarpit-0'), enter('tarpit-0')];
      expect(sameSub.map((a) => a !== null)).toEqual([true, true, false]);
      const others = Array.from({ length: 10 }, (_, i) => enter(`other-${i}`));
      expect(others.filter((a) => a !== null)).toHaveLength(CAPS.slowJobsPerFund - 2);
      // another fund is not touched; the memory fades
      expect(admission.enter('elsewhere', 'fund-b')).not.toBeNull();
      for (const a of [...sameSub, ...others]) a?.leave();
      now += 60_001;
      expect(Array.from({ length: 20 }, (_, i) => enter(`tarpit-${i % 4}`)).every((a) => a !== null)).toBe(true);
    } finally {
      clock.mockRestore();
    }
  });

  it('a fund whose receivers never answer holds only its caps: slow jobs over them are re-delayed unclaimed, POSTs per subscription capped, another fund runs at once', async () => {
    const saved = { ...CAPS };
    Object.assign(CAPS, { slowAfterMs: 200, postsPerSubscription: 4 }); // read when a processor is built
    const held = new Map<string, number>();
    const peak = new Map<string, number>();
    const tarpit = await listen((req) => {
      const s = String(req.url);
      held.set(s, (held.get(s) ?? 0) + 1);
      peak.set(s, Math.max(peak.get(s) ?? 0, held.get(s)!));
      req.on('close', () => held.set(s, held.get(s)! - 1));
    });
    const normal = await listen((_q, res) => res.writeHead(204).end());
    try {
      const { run, jobOf, recorded } = processorWith({ webhookTimeoutMs: 1000 });
      const fund = randomUUID();
      const subs = Array.from({ length: CAPS.slowJobsPerFund }, () => randomUUID());
      const target = (sub: string) => `${tarpit.url}?s=${sub}`;
      // subscription 0: as many slow jobs as it may have (6 deliveries each); the others one each, up to the fund's cap
      const first = Array.from({ length: CAPS.slowJobsPerSubscription }, () =>
        jobOf(
          Array.from({ length: 12 }, () => attempt(target(subs[0]), subs[0])),
          fund,
        ),
      );
      const rest = subs
        .slice(1, CAPS.slowJobsPerFund - CAPS.slowJobsPerSubscription + 1)
        .map((sub) => jobOf([attempt(target(sub), sub)], fund));
      const running = [...first, ...rest].map((j) => run(j).catch((e: Error) => e));
      await new Promise((r) => setTimeout(r, 300)); // all of them slow now
      const overSubscription = jobOf([attempt(target(subs[0]), subs[0])], fund);
      const overFund = jobOf([attempt(target(randomUUID()))], fund);
      await expect(run(overSubscription)).rejects.toThrow(DelayedError);
      await expect(run(overFund)).rejects.toThrow(DelayedError);
      expect([overSubscription.delayed, overFund.delayed].every((at) => at !== null && at > Date.now())).toBe(true);
      const started = Date.now();
      await expect(run(jobOf([attempt(normal.url)]))).resolves.toBe('1 delivered or ended'); // another fund
      expect(Date.now() - started).toBeLessThan(500); // not behind the tarpit's 1 s
      expect(peak.get(`/hook?s=${subs[0]}`)).toBe(CAPS.postsPerSubscription); // 12 deliveries, 4 at a time
      const outcomes = await Promise.all(running);
      expect(outcomes.every((o) => o instanceof DeliveryAttemptFailed)).toBe(true); // timed out, to retry
      const attempted = new Set(recorded.map((o) => o.id));
      for (const j of [overSubscription, overFund]) expect(attempted.has(j.data.deliveries[0].id)).toBe(false);
      // the caps are free again: a re-delayed job runs when it comes back
      overFund.delayed = null;
      await expect(run(overFund)).rejects.toThrow(DeliveryAttemptFailed);
      expect(overFund.delayed).toBeNull();
    } finally {
      Object.assign(CAPS, saved);
      await tarpit.close();
      await normal.close();
    }
  });
});
