export interface Stat {
  label: string;
  value: string | number;
  /** What the number is taken over, said under it (e.g. 'per day, over the 12 days with data'). */
  note?: string;
}

/** A grid of labelled numbers; a description list so each value is tied to its label. */
export function StatCards({ stats }: { stats: readonly Stat[] }) {
  return (
    <dl className="stat-grid">
      {stats.map((stat) => (
        <div key={stat.label} className="stat-card">
          <dt className="stat-card__label">{stat.label}</dt>
          <dd className="stat-card__value">{stat.value}</dd>
          {stat.note ? <dd className="stat-card__note">{stat.note}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
