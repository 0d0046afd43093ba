import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import { installLeanAsyncResourceBind } from './lean-async-bind';

describe('installLeanAsyncResourceBind', () => {
  beforeAll(() => installLeanAsyncResourceBind());

  it('runs the function in the resource’s async scope, with its arguments and result', () => {
    const resource = new AsyncResource('test');
    const bound = resource.bind((a: number, b: number) => [executionAsyncId(), a + b]);
    expect(bound(2, 3)).toEqual([resource.asyncId(), 5]);
  });

  it('keeps Node’s `this` rules: the caller’s `this` without thisArg, thisArg when given', () => {
    const resource = new AsyncResource('test');
    function self(this: unknown) {
      return this;
    }
    const target = { f: resource.bind(self) };
    expect(target.f()).toBe(target);
    // Node's bind takes a thisArg (since v16); @types/node declares only the one-argument form
    const bindWithThis = resource.bind.bind(resource) as (fn: () => unknown, thisArg: unknown) => () => unknown;
    const fixed = { g: bindWithThis(self, 'bound') };
    expect(fixed.g()).toBe('bound');
  });

  it('keeps `length`, drops only the deprecated `asyncResource` accessor', () => {
    const bound = new AsyncResource('test').bind((_a: number, _b: number, _c: number) => 0);
    expect(bound.length).toBe(3);
    expect('asyncResource' in bound).toBe(false);
  });

  it('the static AsyncResource.bind carries the caller’s AsyncLocalStorage context', () => {
    const als = new AsyncLocalStorage<string>();
    const bound = als.run('request-1', () => AsyncResource.bind(() => als.getStore()));
    expect(als.run('request-2', () => bound())).toBe('request-1');
  });

  it('refuses a non-function as Node does', () => {
    expect(() => new AsyncResource('test').bind(42 as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
  });

  it('is installed once (idempotent)', () => {
    const bind = AsyncResource.prototype.bind;
    installLeanAsyncResourceBind();
    expect(AsyncResource.prototype.bind).toBe(bind);
  });
});
