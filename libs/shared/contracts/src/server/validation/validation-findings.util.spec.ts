import { Type } from 'class-transformer';
import { IsInt, IsString, Min, ValidateNested, validate } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { validationFindings } from './validation-findings.util';

class Inner {
  @IsString() text!: string;
}
class Outer {
  @IsInt() @Min(1) count!: number;
  @ValidateNested({ each: true }) @Type(() => Inner) parts!: Inner[];
}

describe('validationFindings', () => {
  it('flattens nested errors with dotted paths, one entry per broken constraint', async () => {
    const errors = await validate(
      plainToInstance(Outer, { count: 0.5, parts: [{ text: 'ok' }, { text: 3 }], extra: 1 }),
      { whitelist: true, forbidNonWhitelisted: true },
    );
    const findings = validationFindings(errors);
    expect(findings).toEqual(
      expect.arrayContaining([
        { field: 'count', constraint: 'isInt', message: 'count must be an integer number' },
        { field: 'count', constraint: 'min', message: 'count must not be less than 1' },
        { field: 'parts.1.text', constraint: 'isString', message: 'text must be a string' },
        {
          field: 'extra',
          constraint: 'whitelistValidation',
          message: 'property extra should not exist',
        },
      ]),
    );
    expect(findings).toHaveLength(4);
  });
});
