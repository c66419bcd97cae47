export interface Stat {
  label: string;
  value: string | number;
}

/** A grid of labelled numbers; a description list so each value is tied to its label. */
export function StatCards({ stats }: { stats: readonly Stat[] }) {
  return (
    <dl className="stat-grid">
      {stats.map((stat) => (
        <div key={stat.label} className="stat-card">
          <dt className="stat-card__label">{stat.label}</dt>
          <dd className="stat-card__value">{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}
