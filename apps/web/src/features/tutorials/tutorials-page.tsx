export function TutorialsPage() {
  return (
    <section className="page" aria-labelledby="tutorials-title">
      <h1 id="tutorials-title">Tutorials</h1>
      <p className="lead">C++ and Unreal Engine tutorials are coming soon.</p>
    </section>
  );
}
