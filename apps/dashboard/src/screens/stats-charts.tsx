import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartFigure {
  key: string;
  name: string;
  colour: string;
}

/**
 * One chart of the stats series (Recharts): lines for a level, bars for counts per period. Its own
 * chunk, loaded by the stats screen once it has figures to draw, so no other screen and not even
 * the stats screen's first paint waits for the charting code.
 */
export function TrendChart({ series, kind, figures }: { series: object[]; kind: 'line' | 'bars'; figures: ChartFigure[] }) {
  const axes = [
    <CartesianGrid key="grid" strokeDasharray="3 3" />,
    <XAxis key="x" dataKey="label" />,
    <YAxis key="y" allowDecimals={false} />,
    <Tooltip key="tooltip" />,
    <Legend key="legend" />,
  ];
  return (
    <ResponsiveContainer width="100%" height="100%">
      {kind === 'line' ? (
        <LineChart data={series}>
          {axes}
          {figures.map((figure) => (
            <Line key={figure.key} type="linear" dataKey={figure.key} name={figure.name} stroke={figure.colour} isAnimationActive={false} />
          ))}
        </LineChart>
      ) : (
        <BarChart data={series}>
          {axes}
          {figures.map((figure) => (
            <Bar key={figure.key} dataKey={figure.key} name={figure.name} fill={figure.colour} isAnimationActive={false} />
          ))}
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}
