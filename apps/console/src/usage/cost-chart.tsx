import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Colours with enough contrast on white, one per category in turn. */
const COLOURS = ['#0b5cb8', '#c25e00', '#0a6b2a', '#7a1fa2', '#a4000f', '#00687a'];

interface Props {
  days: string[];
  series: { category: string; costs: number[] }[];
  currency: string;
}

/** Daily cost, stacked by category (Chart.js on a canvas, with a table for screen readers). */
export function CostChart({ days, series, currency }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: days.map((d) => d.slice(5)),
        datasets: series.map((s, i) => ({
          label: s.category,
          data: s.costs,
          backgroundColor: COLOURS[i % COLOURS.length],
        })),
      },
      options: {
        animation: false,
        responsive: true,
        scales: {
          x: { stacked: true },
          y: { stacked: true, title: { display: true, text: currency } },
        },
      },
    });
    return () => chart.destroy();
  }, [days, series, currency]);
  return (
    <figure className="chart">
      <canvas ref={canvas} role="img" aria-label={`Daily cost by category, in ${currency}`} />
      <figcaption className="visually-hidden">
        <table>
          <caption>Daily cost by category ({currency})</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th scope="col" key={s.category}>
                  {s.category}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {series.map((s) => (
                  <td key={s.category}>{s.costs[i]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
