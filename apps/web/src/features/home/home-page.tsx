import { Link } from 'react-router';

const CARDS = [
  {
    to: '/games',
    title: 'Games',
    text: 'Play single-player and multiplayer browser games made with GameMaker, Godot and more.',
  },
  {
    to: '/gallery',
    title: 'Gallery',
    text: 'Browse projects, prototypes and visual effects with videos and screenshots.',
  },
  {
    to: '/tutorials',
    title: 'Tutorials',
    text: 'Learn C++ and Unreal Engine with runnable code samples and guides.',
  },
] as const;

export function HomePage() {
  return (
    <section className="page home" aria-labelledby="home-title">
      <div className="home__intro">
        <h1 id="home-title">Welcome to my portfolio</h1>
        <p className="lead">
          I am a passionate game developer and designer. Here you can play my games, explore my
          projects and learn from my tutorials.
        </p>
      </div>
      <ul className="card-grid">
        {CARDS.map((card) => (
          <li key={card.to}>
            <Link to={card.to} className="card card--link">
              <h2>{card.title}</h2>
              <p>{card.text}</p>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
