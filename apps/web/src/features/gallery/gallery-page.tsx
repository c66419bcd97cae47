export function GalleryPage() {
  return (
    <section className="page" aria-labelledby="gallery-title">
      <h1 id="gallery-title">My Gallery</h1>
      <p className="lead">Projects, prototypes and visual effects. The gallery is coming soon.</p>
    </section>
  );
}
