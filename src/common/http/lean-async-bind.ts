import { AsyncResource } from 'node:async_hooks';

type Bind = (
  this: AsyncResource,
  fn: (...args: unknown[]) => unknown,
  thisArg?: unknown,
) => (...args: unknown[]) => unknown;

const original = AsyncResource.prototype.bind as unknown as Bind;
let installed = false;

/**
 * `AsyncResource#bind` without the deprecated `asyncResource` accessor (DEP0172). On Node 20 every
 * bound function gets that accessor built from two `util.deprecate` wrappers: ≈ 8 µs per call
 * (a bare `runInAsyncScope` closure costs 0.06 µs), and Fastify binds one for every request that
 * has a body (`ContentTypeParser.run`: every POST, MCP included). This is the same binding — the
 * function runs in the resource's async scope, with the same `this` rules and `length` — minus the
 * accessor, which Node is removing (nodejs/node#58618) and nothing we run reads. Installed once per
 * process by createApp; a no-op once installed.
 */
export function installLeanAsyncResourceBind(): void {
  if (installed) return;
  installed = true;
  const lean: Bind = function bind(this: AsyncResource, fn, thisArg) {
    if (typeof fn !== 'function') return original.call(this, fn, thisArg); // Node's own validation error
    const bound = thisArg === undefined ? callerThis(this, fn) : this.runInAsyncScope.bind(this, fn, thisArg);
    Object.defineProperty(bound, 'length', {
      configurable: true,
      enumerable: false,
      value: fn.length,
      writable: false,
    });
    return bound as (...args: unknown[]) => unknown;
  };
  AsyncResource.prototype.bind = lean as unknown as typeof AsyncResource.prototype.bind;
}

/** Without thisArg the bound function passes its own caller's `this` on, as Node's does. */
function callerThis(resource: AsyncResource, fn: (...args: unknown[]) => unknown) {
  return function (this: unknown, ...args: unknown[]) {
    return resource.runInAsyncScope(fn, this, ...args);
  };
}
