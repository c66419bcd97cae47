import type { ChatLine } from '@portfolio/types/rooms';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { roomError } from './room-connection';
import { RoomChat } from './room-chat';

function line(id: string, from: string, text: string): ChatLine {
  return { id, from: { id: from, name: `Name ${from}` }, text, at: '2026-12-07T00:00:00.000Z' };
}

function renderChat(props: Partial<Parameters<typeof RoomChat>[0]> = {}) {
  const onSend = vi.fn((_text: string) => Promise.resolve());
  const onReport = vi.fn((_id: string) => Promise.resolve());
  render(
    <RoomChat
      lines={[]}
      playerId="me"
      status="allowed"
      onSend={onSend}
      onReport={onReport}
      {...props}
    />,
  );
  return { onSend, onReport };
}

describe('the room chat', () => {
  it('shows a message with markup as its text, never as HTML', () => {
    renderChat({ lines: [line('1', 'other', '<script>alert(1)</script><b>bold</b>')] });
    expect(screen.getByText('<script>alert(1)</script><b>bold</b>')).toBeInTheDocument();
    expect(document.querySelector('.room-chat script, .room-chat b')).toBeNull();
  });

  it('sends by Enter, counts the characters and empties the field after sending', async () => {
    const user = userEvent.setup();
    const { onSend } = renderChat();
    const field = screen.getByLabelText('Message');
    await user.type(field, 'hello there');
    expect(screen.getByText('11/300')).toBeInTheDocument();

    await user.keyboard('{Enter}');

    expect(onSend).toHaveBeenCalledWith('hello there');
    expect(field).toHaveValue('');
    expect(screen.getByText('0/300')).toBeInTheDocument();
  });

  it('takes no more than the cap', async () => {
    const user = userEvent.setup();
    renderChat();
    const field = screen.getByLabelText('Message');
    await user.click(field);
    await user.paste('x'.repeat(320));
    expect(field).toHaveValue('x'.repeat(300));
  });

  it("offers Report on others' lines only and confirms a report", async () => {
    const user = userEvent.setup();
    const { onReport } = renderChat({
      lines: [line('1', 'me', 'mine'), line('2', 'other', 'rude words')],
    });
    expect(screen.getAllByRole('button', { name: /^Report message/ })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Report message from Name other' }));

    expect(onReport).toHaveBeenCalledWith('2');
    expect(await screen.findByText('Reported. Thank you.')).toBeInTheDocument();
  });

  it("shows the catalogue's message when the player is muted", async () => {
    const user = userEvent.setup();
    renderChat({ onSend: () => Promise.reject(roomError('CHAT_MUTED', 'Muted by an admin')) });
    await user.type(screen.getByLabelText('Message'), 'hi{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('You cannot use chat right now.');
  });

  it('says so and takes no typing when the status is muted', () => {
    renderChat({ status: 'muted' });
    expect(screen.getByText('You cannot use chat right now.')).toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toBeDisabled();
  });
});
