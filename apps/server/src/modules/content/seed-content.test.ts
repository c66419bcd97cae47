import { describe, expect, it } from 'vitest';

import { GalleryProject, Tutorial } from '@portfolio/types';

import { SEED_GALLERY as galleryProjects, SEED_TUTORIALS } from './seed-content.js';

/** Whether a video plays from YouTube or Vimeo (the web app frames those). */
const isOnVideoSite = (source: string) =>
  /^https:\/\/(www\.|m\.|player\.)?(youtube\.com|youtu\.be|vimeo\.com)\//.test(source);

function project(id: string): GalleryProject {
  const found = galleryProjects.find((candidate) => candidate.id === id);
  if (!found) {
    throw new Error(`no project ${id}`);
  }
  return found;
}

function count(project: GalleryProject, type: string) {
  return project.media.filter((item) => item.type === type).length;
}

describe("the spec's seeded content", () => {
  it('matches the contract', () => {
    for (const project of galleryProjects) {
      expect(GalleryProject.parse(project)).toEqual(project);
    }
    expect(new Set(galleryProjects.map((project) => project.id)).size).toBe(galleryProjects.length);
  });

  it("holds the spec's three projects with their media counts", () => {
    expect(galleryProjects.map((p) => [p.id, p.title])).toEqual([
      ['item1', 'Visuals and VFX'],
      ['item2', 'Prototype Online'],
      ['item3', 'ProjectX'],
    ]);
    const vfx = project('item1');
    expect([count(vfx, 'video'), count(vfx, 'image'), vfx.media.length]).toEqual([1, 5, 6]);
    const prototype = project('item2');
    expect([count(prototype, 'video'), count(prototype, 'image'), prototype.media.length]).toEqual([
      1, 2, 3,
    ]);
    const projectX = project('item3');
    expect([count(projectX, 'video'), projectX.media.length]).toEqual([7, 7]);
    const onVideoSite = projectX.media.filter((item) => isOnVideoSite(item.source));
    expect(onVideoSite).toHaveLength(6);
    expect(project('item1').repositoryLink).toBeUndefined();
  });

  it('serves local files from /assets in modern formats', () => {
    for (const project of galleryProjects) {
      for (const path of [
        project.thumbnail,
        ...project.media.flatMap((m) => [m.source, m.thumbnail]),
      ]) {
        if (path === undefined || path.startsWith('https://')) {
          continue;
        }
        expect(path).toMatch(/^\/assets\/gallery\/[a-z0-9-]+\.(webp|avif|mp4)$/);
      }
    }
  });

  it('holds the three tutorials, each matching the contract', () => {
    for (const tutorial of SEED_TUTORIALS) {
      expect(Tutorial.parse(tutorial)).toEqual(tutorial);
    }
    expect(SEED_TUTORIALS.map((t) => [t.id, t.section, t.type])).toEqual([
      ['cpp-hello-world', 'cpp', 'code'],
      ['unreal-blueprint-example', 'unreal', 'iframe'],
      ['unreal-multiplayer-framework', 'unreal', 'code'],
    ]);
  });
});
