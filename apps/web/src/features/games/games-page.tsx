export function GamesPage() {
  return (
    <section className="page" aria-labelledby="games-title">
      <h1 id="games-title">Games</h1>
      <p className="lead">
        Browser games, single-player and multiplayer. The game list is coming soon.
      </p>
    </section>
  );
}
