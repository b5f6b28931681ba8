import { TasksController } from './tasks.controller';

/** The parameter types Nest's pipes see (`design:paramtypes`, as the global ValidationPipe reads them). */
const paramTypes = (method: keyof TasksController): unknown[] =>
  Reflect.getMetadata('design:paramtypes', TasksController.prototype, method);

describe('TasksController on the hot path (decision 0072)', () => {
  it('hands submit its query and body untouched: no DTO class for the ValidationPipe to build', () => {
    const [, , , , query, body] = paramTypes('create');
    // Object means "no class": the global ValidationPipe skips it, nothing is instantiated.
    expect(query).toBe(Object);
    expect(body).toBe(Object);
  });

  it('has no class-typed parameter on poll either', () => {
    for (const type of paramTypes('result')) expect([Object, String]).toContain(type);
  });
});
