export function SubscribePage() {
  return (
    <section className="page" aria-labelledby="subscribe-title">
      <h1 id="subscribe-title">Subscribe</h1>
      <div className="card">
        <p className="price">$10.00 / quarter</p>
        <p>Billed every 3 months - Cancel anytime</p>
      </div>
    </section>
  );
}
