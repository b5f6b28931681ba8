import { ModelAdapter } from '../contract/model-adapter.types';

/** Adapter key (a route's `adapter`) → the adapter that runs it. */
export class AdapterRegistry {
  private readonly adapters = new Map<string, ModelAdapter>();

  /** Each adapter declares its own input type; the worker hands it the validated DTO instance. */
  register<I>(key: string, adapter: ModelAdapter<I>): this {
    if (this.adapters.has(key)) throw new Error(`adapter ${key} registered twice`);
    this.adapters.set(key, adapter as unknown as ModelAdapter);
    return this;
  }

  has(key: string): boolean {
    return this.adapters.has(key);
  }

  get(key: string): ModelAdapter {
    const adapter = this.adapters.get(key);
    if (!adapter) throw new Error(`no adapter registered under ${key}`);
    return adapter;
  }

  keys(): string[] {
    return [...this.adapters.keys()];
  }
}
