import { dataSourceOptions } from './data-source.factory';

describe('dataSourceOptions', () => {
  const options = dataSourceOptions({ url: 'postgres://u@127.0.0.1:5432/db', poolSize: 4 });

  it('never synchronizes the schema: migrations own it', () => {
    expect(options).toMatchObject({ synchronize: false, migrationsRun: false });
  });

  it('pipelines the statements queued on one connection (a batch transaction, decision 0118)', () => {
    expect(options.extra).toMatchObject({ max: 4, pipeline: true, connectionTimeoutMillis: 1000 });
  });
});
