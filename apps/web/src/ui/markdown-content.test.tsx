import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { MarkdownContent } from './markdown-content';
import { tutorials } from '../test/content-fixtures';

describe('MarkdownContent', () => {
  it('renders GFM: tables, task lists, strikethrough, footnotes and autolinks', () => {
    const { container } = render(
      <MarkdownContent>
        {[
          '| A | B |',
          '| --- | --- |',
          '| 1 | 2 |',
          '',
          '- [x] done',
          '- [ ] open',
          '',
          '~~old~~ text[^1] and https://example.com/docs',
          '',
          '[^1]: A note.',
        ].join('\n')}
      </MarkdownContent>,
    );
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['A', 'B']);
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.map((box) => (box as HTMLInputElement).checked)).toEqual([true, false]);
    expect(container.querySelector('del')).toHaveTextContent('old');
    expect(screen.getByRole('link', { name: 'https://example.com/docs' })).toHaveAttribute(
      'rel',
      'noopener noreferrer',
    );
    expect(container.querySelector('section.footnotes')).toHaveTextContent('A note.');
  });

  it('renders links with other protocols as inert text', () => {
    const { container } = render(
      <MarkdownContent>
        {
          '[bad](javascript:alert(1)) [launcher](com.epicgames.launcher://apps) [mail](mailto:a@b.c) [chat](ircs://irc.example.org/x) ![img](javascript:alert(2))'
        }
      </MarkdownContent>,
    );
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull();
    expect(screen.getByText('bad').tagName).toBe('SPAN');
    expect(screen.queryByRole('link', { name: 'launcher' })).toBeNull();
    expect(screen.getByRole('link', { name: 'mail' })).toHaveAttribute('href', 'mailto:a@b.c');
    expect(screen.getByRole('link', { name: 'chat' })).toHaveAttribute(
      'href',
      'ircs://irc.example.org/x',
    );
    expect(container.innerHTML).not.toContain('javascript:');
  });

  it('shows raw HTML as text: no script, no image, no event handler reaches the page', () => {
    const { container } = render(
      <MarkdownContent>
        {[
          'Before <script>window.hacked = 1</script> after.',
          '',
          '<img src=x onerror=alert(1)>',
          '',
          '<a href="javascript:alert(2)" onclick="alert(3)">click</a> and [x](javascript:alert(4))',
          '',
          '<div style="position:fixed" onmouseover="alert(5)">cover</div>',
        ].join('\n')}
      </MarkdownContent>,
    );
    expect(container.querySelector('script, img, div[onmouseover], a[onclick]')).toBeNull();
    expect(container.querySelector('[onerror], [onclick], [onmouseover], [style]')).toBeNull();
    expect(container.querySelector('a[href^="javascript"]')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(container).toHaveTextContent('<script>window.hacked = 1</script>');
  });

  it("renders the multiplayer framework table with the spec's rows and columns, all filled", () => {
    const tutorial = tutorials.find((t) => t.id === 'unreal-multiplayer-framework');
    render(<MarkdownContent>{tutorial?.content ?? ''}</MarkdownContent>);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Class', 'Server instances', 'Client instances', 'Network presence', 'Details']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'GameInstance',
      'GameMode',
      'GameState',
      'PlayerController',
      'PlayerState',
      'Pawn/Character',
      'HUD',
      'PlayerCameraManager',
      'SpectatorPawn',
    ]);
    for (const row of rows) {
      const cells = within(row).getAllByRole('cell');
      expect(cells).toHaveLength(5);
      for (const cell of cells) {
        expect(cell.textContent?.trim().length).toBeGreaterThan(2);
      }
    }
  });

  it('shows markdown nested past the limits as its plain text, at once', () => {
    const deep = `${'- '.repeat(40000)}x`;
    const started = performance.now();
    const { container } = render(<MarkdownContent>{deep}</MarkdownContent>);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(container.querySelector('li')).toBeNull();
    expect(container.querySelector('.markdown__plain')?.textContent).toBe(deep);
  });
});
