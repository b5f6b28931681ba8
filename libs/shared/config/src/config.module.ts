import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { ConfigClass, loadConfig } from './load-config.util';

export interface ConfigModuleOptions {
  pieces: ConfigClass[];
  env: Record<string, string | undefined>;
  /** Per-app defaults, e.g. `{ PORT: '3001' }`. */
  defaults?: Record<string, string>;
}

/**
 * Registers each validated configuration piece as a provider under its own
 * class, so a service asks for exactly the settings it uses:
 * `constructor(private readonly tasks: TaskConfig)`.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(options: ConfigModuleOptions): DynamicModule {
    const providers: Provider[] = options.pieces.map((piece) => ({
      provide: piece,
      useValue: loadConfig(piece, options.env, options.defaults),
    }));
    return {
      module: ConfigModule,
      providers,
      exports: providers.map((p) => (p as { provide: ConfigClass }).provide),
    };
  }
}
