import { shiftParams, StatementTexts } from './sql-fragment.util';

describe('shiftParams', () => {
  it('renumbers a fragment’s parameters after those already in use', () => {
    expect(shiftParams('a = $1 AND b = $2 OR c = $12', 3)).toBe('a = $4 AND b = $5 OR c = $15');
  });
});

describe('StatementTexts', () => {
  it('builds a shape once and gives back the same text for the same parts', () => {
    const texts = new StatementTexts();
    let built = 0;
    const build = jest.fn((): string => `SELECT ${++built}`);
    const first = texts.text(['completed', 'x AS (…)'], build);
    expect(texts.text(['completed', 'x AS (…)'], build)).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    // Other parts, or the same parts split otherwise, are another shape.
    expect(texts.text(['failed', 'x AS (…)'], build)).not.toBe(first);
    expect(texts.text(['completedx AS (…)'], build)).not.toBe(first);
    expect(build).toHaveBeenCalledTimes(3);
  });

  it('starts over rather than grow without end when parts are not fixed text', () => {
    const texts = new StatementTexts();
    const build = jest.fn(() => 'SELECT 1');
    for (let i = 0; i < 200; i++) texts.text([`part ${i}`], build);
    expect(build).toHaveBeenCalledTimes(200);
    texts.text(['part 199'], build);
    expect(build).toHaveBeenCalledTimes(200); // the latest shapes are still kept
    texts.text(['part 0'], build);
    expect(build).toHaveBeenCalledTimes(201);
  });
});
