import sharp from 'sharp';
import { TASK_CODES } from '@genhub/errors';
import { AdapterError, RunContext } from '../contract/model-adapter.types';
import { SIMULATOR_MODEL } from './local-provider.util';
import { SimulatorAdapter } from './simulator.adapter';
import { SimulatorInputDto } from '@genhub/contracts/server';

function context(input: Partial<SimulatorInputDto>, signal = new AbortController().signal) {
  const fetched: string[] = [];
  const ctx: RunContext<SimulatorInputDto> = {
    taskId: 't1',
    input: { prompt: 'a cat', ...input } as SimulatorInputDto,
    route: SIMULATOR_MODEL.channels.stable?.[0] ?? {
      adapter: 'x',
      upstreamModel: 'x',
      priceUnits: 0,
    },
    signal,
    fetchMedia: async (url) => {
      fetched.push(url);
      if (url.includes('bad')) throw new AdapterError(1402);
      return { data: Buffer.from('x'), contentType: 'image/png' };
    },
  };
  return { ctx, fetched };
}

describe('SimulatorAdapter', () => {
  const adapter = new SimulatorAdapter();

  it('produces one real PNG by default, deterministic for the same prompt and seed', async () => {
    const a = await adapter.run(context({}).ctx);
    const b = await adapter.run(context({}).ctx);
    const c = await adapter.run(context({ prompt: 'a dog' }).ctx);
    expect(a.outputs).toHaveLength(1);
    const out = a.outputs[0];
    if (out.kind !== 'bytes') throw new Error('expected bytes');
    expect(out.contentType).toBe('image/png');
    expect(out.data.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    const meta = await sharp(out.data).metadata();
    expect(meta.format).toBe('png');
    expect(b.outputs[0]).toEqual(out);
    expect(c.outputs[0]).not.toEqual(out);
  });

  it('honours num_outputs (0..4) with distinct images', async () => {
    expect((await adapter.run(context({ num_outputs: 0 }).ctx)).outputs).toEqual([]);
    const four = await adapter.run(context({ num_outputs: 4 }).ctx);
    expect(four.outputs).toHaveLength(4);
    const bodies = new Set(
      four.outputs.map((o) => (o.kind === 'bytes' ? o.data.toString('hex') : '')),
    );
    expect(bodies.size).toBe(4);
  });

  it('waits duration_ms', async () => {
    const started = Date.now();
    await adapter.run(context({ duration_ms: 150 }).ctx);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('stops at once when the signal aborts during duration_ms', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = adapter.run(context({ duration_ms: 60_000 }, controller.signal).ctx);
    setTimeout(() => controller.abort(new Error('deleted')), 50);
    await expect(run).rejects.toThrow('deleted');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('fails with fail_code and the catalogue text', async () => {
    const run = adapter.run(context({ fail_code: 1201 }).ctx);
    await expect(run).rejects.toBeInstanceOf(AdapterError);
    await expect(run).rejects.toMatchObject({ code: 1201, message: TASK_CODES[1201].message });
  });

  it('downloads image_url first and fails with its error', async () => {
    const ok = context({ image_url: 'http://img/ok.png' });
    await adapter.run(ok.ctx);
    expect(ok.fetched).toEqual(['http://img/ok.png']);
    await expect(adapter.run(context({ image_url: 'http://img/bad' }).ctx)).rejects.toMatchObject({
      code: 1402,
    });
  });
});
