import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { API_KEY_SCOPE_METADATA, ApiKeyGuard } from '@genhub/accounts-feature';
import { API_KEY_SCOPES } from '@genhub/contracts/server';
import { TaskEventsAuthGuard } from '../tasks/task-events-auth.guard';

type Class = abstract new (...args: never[]) => unknown;

/** Every controller class of the gateway: each `*.controller.ts` under src, whatever it exports. */
function gatewayControllers(): Class[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.controller.ts')) files.push(path);
    }
  };
  walk(join(__dirname, '..'));
  return files.flatMap((file) =>
    Object.values(require(file) as Record<string, unknown>).filter(
      (value): value is Class =>
        typeof value === 'function' && Reflect.getMetadata(PATH_METADATA, value) !== undefined,
    ),
  );
}

const KEY_GUARDS: unknown[] = [ApiKeyGuard, TaskEventsAuthGuard];
const guardedByKey = (target: object): boolean =>
  ((Reflect.getMetadata(GUARDS_METADATA, target) as unknown[] | undefined) ?? []).some((guard) =>
    KEY_GUARDS.includes(guard),
  );

/** Every route of a controller: its handler methods (those with a request method). */
function routes(controller: Class): { name: string; handler: object }[] {
  const proto = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto)
    .filter((name) => name !== 'constructor' && typeof proto[name] === 'function')
    .map((name) => ({ name, handler: proto[name] as object }))
    .filter(({ handler }) => Reflect.getMetadata(METHOD_METADATA, handler) !== undefined);
}

/**
 * Issue 37: every route an API key opens names the scope it needs
 * (`@RequiresScope`) or says it needs none (`@AnyValidKey`), so a new route
 * cannot forget it and silently let a read-only key write.
 */
describe('every API-key route declares its scope', () => {
  const controllers = gatewayControllers();

  it('finds the controllers', () => {
    expect(controllers.map((c) => c.name)).toEqual(
      expect.arrayContaining(['TasksController', 'ChatController', 'KeysController']),
    );
  });

  it('has a scope (or an explicit none) on each route behind a key guard', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const controller of controllers)
      for (const { name, handler } of routes(controller)) {
        if (!guardedByKey(controller) && !guardedByKey(handler)) continue;
        checked++;
        const scope =
          Reflect.getMetadata(API_KEY_SCOPE_METADATA, handler) ??
          Reflect.getMetadata(API_KEY_SCOPE_METADATA, controller);
        if (scope === undefined) missing.push(`${controller.name}.${name}`);
        else expect([...API_KEY_SCOPES, 'none']).toContain(scope);
      }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
