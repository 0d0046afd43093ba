import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import { ReadReplica } from './read-replica';

/** The replica's failure handling without servers: fake sources standing in for the pools. */
describe('ReadReplica', () => {
  const url = 'postgres://nobody@127.0.0.1:1/none';
  const config = {
    databaseUrl: url,
    databaseReadUrl: url,
    readReplicaMaxLagMs: 5000,
    dbStatementTimeoutMs: 1000,
    dbLockTimeoutMs: 1000,
  } as AppConfig;
  const source = (query: (sql: string) => Promise<unknown>) =>
    ({ isInitialized: true, query }) as unknown as DataSource;
  const primary = source(async () => [{ from: 'primary' }]);
  const withReplica = (query: (sql: string) => Promise<unknown>) => {
    const reads = new ReadReplica(config, primary);
    Object.assign(reads, { replica: source(query), freshAsOf: Date.now() });
    return reads;
  };

  it('a replica pool with no free connection in time: this read goes to the primary, the replica stays in use', async () => {
    const reads = withReplica(async () => {
      throw new Error('timeout exceeded when trying to connect');
    });
    expect(await reads.query('SELECT 1')).toEqual([{ from: 'primary' }]);
    expect(reads.lagMs()).toBeLessThan(5000);
  });

  it('a replica that refuses connections: the read goes to the primary, and so do the next ones', async () => {
    const reads = withReplica(async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    });
    expect(await reads.query('SELECT 1')).toEqual([{ from: 'primary' }]);
    expect(reads.lagMs()).toBe(Infinity);
  });

  it('a query error of its own is not the replica failing: it is thrown, the replica stays in use', async () => {
    const reads = withReplica(async () => {
      throw Object.assign(new Error('division by zero'), { code: '22012' });
    });
    await expect(reads.query('SELECT 1/0')).rejects.toThrow('division by zero');
    expect(reads.lagMs()).toBeLessThan(5000);
  });

  it('a probe under way when a read sees the replica fail does not make it fresh again', async () => {
    let answer!: () => void;
    const replayed = new Promise<void>((r) => (answer = r));
    const reads = withReplica(async () => {
      throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    });
    const probeSources = [
      source(async () => [{ lsn: '100' }]),
      source(async () => replayed.then(() => [{ lsn: '200', standby: true }])),
    ];
    Object.assign(reads, { probes: probeSources });
    const probe = reads.probe();
    await new Promise((r) => setImmediate(r)); // the probe has noted the primary's position and waits for the replica
    await reads.query('SELECT 1'); // fails on the replica meanwhile
    answer();
    await probe;
    expect(reads.lagMs()).toBe(Infinity);
    await reads.probe(); // the next probe decides
    expect(reads.lagMs()).toBeLessThan(5000);
  });
});
