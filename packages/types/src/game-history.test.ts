import { describe, expect, it } from 'vitest';

import {
  type AuditedGameFields,
  describeGameChanges,
  readableAuditDetail,
} from './game-history.js';

const game: AuditedGameFields = {
  title: 'Sky Island',
  description: 'Fly.',
  instructions: 'Arrows.',
  section: 'godot',
  access: 'public',
  order: 3,
  published: false,
  frame: { mode: 'default' },
  touch: 'playable',
  orientation: 'any',
};

describe('describeGameChanges', () => {
  it('writes every audited field as a sentence, never as raw values', () => {
    const cases: [Partial<AuditedGameFields>, string][] = [
      [{ published: true }, 'Published'],
      [{ title: 'Sky Island 2' }, "Renamed from 'Sky Island' to 'Sky Island 2'"],
      [{ access: 'subscriber' }, 'Access changed from Public to Subscribers'],
      [{ section: 'html5' }, 'Moved from Godot to Other HTML5'],
      [{ order: 1 }, 'Position changed from 3 to 1'],
      [{ description: 'Fly higher.' }, 'Description changed'],
      [{ instructions: '' }, 'Instructions removed'],
      [
        { frame: { mode: 'fixed', width: 960, height: 540 } },
        'Frame changed from the standard frame to a fixed 960 × 540 px frame',
      ],
      [{ touch: 'keyboard-only' }, 'Touch screens changed from playable to keyboard only'],
      [{ orientation: 'landscape' }, 'Orientation changed from Any to Landscape'],
    ];
    for (const [change, text] of cases) {
      expect(describeGameChanges(game, { ...game, ...change })).toBe(text);
    }
    const published = { ...game, published: true };
    expect(describeGameChanges(published, game)).toBe('Unpublished');
  });

  it('joins several changes and says nothing when nothing changed', () => {
    expect(describeGameChanges(game, { ...game, published: true, access: 'subscriber' })).toBe(
      'Access changed from Public to Subscribers; Published',
    );
    expect(describeGameChanges(game, { ...game })).toBe('');
    const text = describeGameChanges(game, { ...game, published: true, title: 'X' });
    expect(text).not.toMatch(/→|true|false/);
  });
});

describe('readableAuditDetail', () => {
  it('rewrites the raw entries written before the log held sentences as the same sentences', () => {
    expect(readableAuditDetail('published: false → true')).toBe('Published');
    expect(readableAuditDetail('published: true → false')).toBe('Unpublished');
    expect(
      readableAuditDetail('title: "Sky Island" → "Sky Island 2"; access: "public" → "subscriber"'),
    ).toBe(
      "Renamed from 'Sky Island' to 'Sky Island 2'; Access changed from Public to Subscribers",
    );
    expect(
      readableAuditDetail('frame: {"mode":"default"} → {"mode":"aspect","width":16,"height":9}'),
    ).toBe('Frame changed from the standard frame to a 16 × 9 aspect ratio');
  });

  it('leaves sentences and anything it cannot read as they are', () => {
    expect(readableAuditDetail('Published')).toBe('Published');
    expect(readableAuditDetail('Version 2 made live (was version 1)')).toBe(
      'Version 2 made live (was version 1)',
    );
    expect(readableAuditDetail('colour: "red" → "blue"')).toBe('colour: "red" → "blue"');
    expect(readableAuditDetail('title: not json → "B"')).toBe('title: not json → "B"');
  });
});
