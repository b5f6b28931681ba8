import { SeededRandom, seedFrom } from '../seeded-random.util';
import type { FrameSize } from './frame-size.util';

export interface DrawingInput {
  prompt: string;
  negativePrompt?: string;
  seed: number;
  /** Which of several outputs of one task: each gets its own drawing. */
  index: number;
}

const MAX_PALETTE_WORDS = 6;

function wordHue(word: string): number {
  return seedFrom(0, word) % 360;
}

function words(text: string | undefined): string[] {
  return (text ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The drawing's hues: one per distinct prompt word (so the prompt really
 * shapes the colours); a hue near a negative-prompt word's hue is turned to
 * the opposite side of the colour wheel.
 */
export function promptHues(
  prompt: string,
  negativePrompt: string | undefined,
  random: SeededRandom,
) {
  const avoid = words(negativePrompt).map(wordHue);
  const hues = [...new Set(words(prompt))].slice(0, MAX_PALETTE_WORDS).map(wordHue);
  if (!hues.length) hues.push(random.int(0, 359));
  return hues.map((hue) =>
    avoid.some((a) => Math.min(Math.abs(a - hue), 360 - Math.abs(a - hue)) < 30)
      ? (hue + 180) % 360
      : hue,
  );
}

const fixed = (n: number) => n.toFixed(1);

/**
 * An SVG of seeded abstract shapes over a gradient: what
 * the offline text-to-image model draws. Pure function of its input and size.
 */
export function abstractDrawingSvg(input: DrawingInput, size: FrameSize): string {
  const random = new SeededRandom(
    seedFrom(input.seed, String(input.index), input.prompt, input.negativePrompt ?? ''),
  );
  const hues = promptHues(input.prompt, input.negativePrompt, random);
  const { width: w, height: h } = size;
  const colour = () =>
    `hsl(${(random.pick(hues) + random.int(-15, 15) + 360) % 360},${random.int(45, 90)}%,${random.int(30, 75)}%)`;
  const shapes: string[] = [];
  const count = random.int(8, 16);
  for (let i = 0; i < count; i++) {
    const x = random.between(0, w);
    const y = random.between(0, h);
    const r = random.between(0.05, 0.35) * Math.min(w, h);
    const style = `fill="${colour()}" fill-opacity="${random.between(0.35, 0.85).toFixed(2)}"`;
    switch (random.int(0, 3)) {
      case 0:
        shapes.push(`<circle cx="${fixed(x)}" cy="${fixed(y)}" r="${fixed(r)}" ${style}/>`);
        break;
      case 1:
        shapes.push(
          `<ellipse cx="${fixed(x)}" cy="${fixed(y)}" rx="${fixed(r)}" ry="${fixed(r * random.between(0.3, 0.9))}" transform="rotate(${random.int(0, 179)} ${fixed(x)} ${fixed(y)})" ${style}/>`,
        );
        break;
      case 2:
        shapes.push(
          `<rect x="${fixed(x - r)}" y="${fixed(y - r / 2)}" width="${fixed(2 * r)}" height="${fixed(r)}" rx="${fixed(r / 6)}" transform="rotate(${random.int(0, 179)} ${fixed(x)} ${fixed(y)})" ${style}/>`,
        );
        break;
      default: {
        const points = [0, 1, 2]
          .map(
            () =>
              `${fixed(x + random.between(-r, r) * 1.5)},${fixed(y + random.between(-r, r) * 1.5)}`,
          )
          .join(' ');
        shapes.push(`<polygon points="${points}" ${style}/>`);
      }
    }
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    '<defs>',
    `<linearGradient id="bg" x1="0" y1="0" x2="${random.float().toFixed(2)}" y2="1">`,
    `<stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/>`,
    '</linearGradient>',
    '</defs>',
    `<rect width="${w}" height="${h}" fill="url(#bg)"/>`,
    ...shapes,
    '</svg>',
  ].join('');
}
