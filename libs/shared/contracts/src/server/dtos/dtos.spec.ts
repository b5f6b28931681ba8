import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { BillingsQueryDto, UsageQueryDto } from './billing.dto';
import { ChatCompletionRequestDto } from './chat.dto';
import { SimulatorInputDto } from './model.dto';
import { SubmitTaskQueryDto } from './task.dto';

function errors<T extends object>(type: new () => T, plain: object): string[] {
  const instance = plainToInstance(type, plain);
  return validateSync(instance, { whitelist: true, forbidNonWhitelisted: true }).map(
    (error) => error.property,
  );
}

describe('request DTOs validate what the interface promises', () => {
  it('SimulatorInputDto: prompt required, ranges enforced, unknown fields refused', () => {
    expect(errors(SimulatorInputDto, { prompt: 'x' })).toEqual([]);
    expect(
      errors(SimulatorInputDto, {
        prompt: 'x',
        duration_ms: 600000,
        num_outputs: 4,
        fail_code: 5004,
        image_url: 'http://127.0.0.1:9000/a.png',
      }),
    ).toEqual([]);
    expect(errors(SimulatorInputDto, {})).toEqual(['prompt']);
    expect(errors(SimulatorInputDto, { prompt: 1 })).toEqual(['prompt']);
    expect(errors(SimulatorInputDto, { prompt: 'x', duration_ms: 600001 })).toEqual([
      'duration_ms',
    ]);
    expect(errors(SimulatorInputDto, { prompt: 'x', num_outputs: 5 })).toEqual(['num_outputs']);
    expect(errors(SimulatorInputDto, { prompt: 'x', num_outputs: 1.5 })).toEqual(['num_outputs']);
    expect(errors(SimulatorInputDto, { prompt: 'x', fail_code: 0 })).toEqual(['fail_code']);
    expect(errors(SimulatorInputDto, { prompt: 'x', fail_code: 1300 })).toEqual(['fail_code']);
    expect(errors(SimulatorInputDto, { prompt: 'x', image_url: 'ftp://a/b' })).toEqual([
      'image_url',
    ]);
    expect(errors(SimulatorInputDto, { prompt: 'x', surprise: 1 })).toEqual(['surprise']);
  });

  it('SubmitTaskQueryDto: sync as a query string, http(s) webhook, safe prefix', () => {
    expect(errors(SubmitTaskQueryDto, { sync: 'true' })).toEqual([]);
    expect(plainToInstance(SubmitTaskQueryDto, { sync: 'true' }).sync).toBe(true);
    expect(plainToInstance(SubmitTaskQueryDto, { sync: 'false' }).sync).toBe(false);
    expect(errors(SubmitTaskQueryDto, { sync: 'maybe' })).toEqual(['sync']);
    expect(errors(SubmitTaskQueryDto, { webhook: 'https://h.example.com/a?b=1&c=2' })).toEqual([]);
    expect(errors(SubmitTaskQueryDto, { webhook: 'javascript:alert(1)' })).toEqual(['webhook']);
    expect(errors(SubmitTaskQueryDto, { prefix: 'a/b-c/d_e.f' })).toEqual([]);
    for (const prefix of ['../x', 'a/../b', 'a//b', '/a', 'a/', '.', 'a/./b', 'a\\b', 'a b']) {
      expect(errors(SubmitTaskQueryDto, { prefix })).toEqual(['prefix']);
    }
  });

  it('BillingsQueryDto and UsageQueryDto: paging bounds and date formats', () => {
    expect(plainToInstance(BillingsQueryDto, { page: '2' }).page).toBe(2);
    expect(errors(BillingsQueryDto, { page: '2', per_page: '100', type: 'usage' })).toEqual([]);
    expect(errors(BillingsQueryDto, { page: '0' })).toEqual(['page']);
    expect(errors(BillingsQueryDto, { per_page: '101' })).toEqual(['per_page']);
    expect(errors(BillingsQueryDto, { type: 'refund' })).toEqual(['type']);
    expect(errors(UsageQueryDto, { period: '2025-01', start_date: '2025-01-31' })).toEqual([]);
    expect(errors(UsageQueryDto, { period: '2025-13' })).toEqual(['period']);
    expect(errors(UsageQueryDto, { end_date: '2025-1-1' })).toEqual(['end_date']);
  });

  it('ChatCompletionRequestDto: messages validated deeply', () => {
    expect(
      errors(ChatCompletionRequestDto, { model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    ).toEqual([]);
    expect(errors(ChatCompletionRequestDto, { model: 'm', messages: [] })).toEqual(['messages']);
    expect(
      errors(ChatCompletionRequestDto, { model: 'm', messages: [{ role: 'robot', content: 'x' }] }),
    ).toEqual(['messages']);
  });
  it('ChatCompletionRequestDto: streaming, stop as string or list, one choice', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    expect(
      errors(ChatCompletionRequestDto, {
        ...base,
        stream: true,
        stream_options: { include_usage: true },
        stop: 'END',
        n: 1,
        max_completion_tokens: 10,
      }),
    ).toEqual([]);
    expect(plainToInstance(ChatCompletionRequestDto, { ...base, stop: 'END' }).stop).toEqual([
      'END',
    ]);
    expect(errors(ChatCompletionRequestDto, { ...base, stop: ['a', 'b', 'c', 'd', 'e'] })).toEqual([
      'stop',
    ]);
    expect(errors(ChatCompletionRequestDto, { ...base, stop: 3 })).toEqual(['stop']);
    expect(errors(ChatCompletionRequestDto, { ...base, n: 2 })).toEqual(['n']);
    expect(errors(ChatCompletionRequestDto, { ...base, stream: 'yes' })).toEqual(['stream']);
  });
});
