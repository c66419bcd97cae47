import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { createLocalStorage } from './local-storage.js';
import { describeObjectStorageContract } from './object-storage.contract.js';

const root = mkdtempSync(path.join(tmpdir(), 'storage-local-'));
let count = 0;
afterAll(() => rmSync(root, { recursive: true, force: true }));

describeObjectStorageContract('local folder', () =>
  createLocalStorage(path.join(root, String((count += 1)))),
);

describe('the local folder driver', () => {
  it('never follows a link out of its folder, and follows one that stays inside', async () => {
    const dir = path.join(root, 'links');
    const storage = createLocalStorage(dir);
    await storage.put('inside.txt', Buffer.from('inside'));
    writeFileSync(path.join(root, 'outside.txt'), 'secret');
    symlinkSync(path.join(root, 'outside.txt'), path.join(dir, 'out.txt'));
    symlinkSync('inside.txt', path.join(dir, 'alias.txt'));
    symlinkSync('/etc', path.join(dir, 'etc'));
    expect(await storage.head('out.txt')).toBeUndefined();
    expect(await storage.get('etc/hostname')).toBeUndefined();
    expect((await storage.head('alias.txt'))?.size).toBe(6);
    // a scope is a folder of its own: a link to its parent's files leads out of it
    symlinkSync('../inside.txt', path.join(dir, 'sub-link'));
    await storage.put('sub/file.txt', Buffer.from('x'));
    symlinkSync('../inside.txt', path.join(dir, 'sub', 'up.txt'));
    expect(await storage.scoped('sub/').head('up.txt')).toBeUndefined();
  });

  it('keeps work folders (.incoming) out of its listing', async () => {
    const dir = path.join(root, 'dotted');
    const storage = createLocalStorage(dir);
    await storage.put('.incoming/upload', Buffer.from('x'));
    await storage.put('kept.txt', Buffer.from('x'));
    expect((await storage.list('')).map((info) => info.key)).toEqual(['kept.txt']);
  });

  it('says which folder cannot be written', async () => {
    const file = path.join(root, 'a-file');
    writeFileSync(file, 'x');
    await expect(createLocalStorage(path.join(file, 'sub')).check()).rejects.toThrow(file);
  });
});
