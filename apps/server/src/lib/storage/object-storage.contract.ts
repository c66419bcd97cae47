import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';

import { describe, expect, it } from 'vitest';

import { InvalidKeyError, isFolder, type ObjectStorage } from './object-storage.js';

/**
 * The behaviour every ObjectStorage driver must have. `makeStorage` returns a fresh, empty
 * storage (a new folder, a new prefix in the bucket).
 */
export function describeObjectStorageContract(
  name: string,
  makeStorage: () => ObjectStorage,
  options: { skip?: boolean } = {},
) {
  describe.skipIf(options.skip ?? false)(`ObjectStorage contract: ${name}`, () => {
    it('writes from a buffer and a stream, then reads whole objects and their facts', async () => {
      const storage = makeStorage();
      await storage.put('a/b/one.txt', Buffer.from('hello'));
      await storage.put('a/two.txt', Readable.from([Buffer.from('wor'), Buffer.from('ld!')]));
      const head = await storage.head('a/b/one.txt');
      expect(head).toMatchObject({ key: 'a/b/one.txt', size: 5 });
      expect(head?.etag).toMatch(/^"[^"]+"$/);
      expect(head?.lastModified).toBeInstanceOf(Date);
      const read = await storage.get('a/two.txt');
      expect(read?.size).toBe(6);
      expect(await text(read?.body ?? Readable.from([]))).toBe('world!');
    });

    it('reads a byte range, both ends included', async () => {
      const storage = makeStorage();
      await storage.put('range.bin', Buffer.from('0123456789'));
      const read = await storage.get('range.bin', { start: 2, end: 5 });
      expect(read?.size).toBe(10);
      expect(await text(read?.body ?? Readable.from([]))).toBe('2345');
    });

    it('keeps empty objects', async () => {
      const storage = makeStorage();
      await storage.put('empty.txt', Buffer.alloc(0));
      expect((await storage.head('empty.txt'))?.size).toBe(0);
      expect(await text((await storage.get('empty.txt'))?.body ?? Readable.from(['x']))).toBe('');
    });

    it('answers undefined for a missing object and for a folder', async () => {
      const storage = makeStorage();
      await storage.put('dir/file.txt', Buffer.from('x'));
      expect(await storage.head('missing.txt')).toBeUndefined();
      expect(await storage.get('missing.txt')).toBeUndefined();
      expect(await storage.head('dir')).toBeUndefined();
      expect(await isFolder(storage, 'dir')).toBe(true);
      expect(await isFolder(storage, 'missing')).toBe(false);
    });

    it('changes the ETag when an object is replaced with other bytes', async () => {
      const storage = makeStorage();
      await storage.put('etag.txt', Buffer.from('first'));
      const first = await storage.head('etag.txt');
      await new Promise((resolve) => setTimeout(resolve, 5));
      await storage.put('etag.txt', Buffer.from('second!'));
      const second = await storage.head('etag.txt');
      expect(second?.size).toBe(7);
      expect(second?.etag).not.toBe(first?.etag);
    });

    it('lists by prefix in key order, with a limit', async () => {
      const storage = makeStorage();
      for (const key of ['g/2/b.js', 'g/1/index.html', 'g/1/a/deep.js', 'g/10/x', 'h/1/y']) {
        await storage.put(key, Buffer.from(key));
      }
      const keys = async (prefix: string, limit?: number) =>
        (await storage.list(prefix, limit)).map((info) => info.key);
      expect(await keys('g/1/')).toEqual(['g/1/a/deep.js', 'g/1/index.html']);
      expect(await keys('g/1')).toEqual(['g/1/a/deep.js', 'g/1/index.html', 'g/10/x']);
      expect(await keys('')).toHaveLength(5);
      expect(await keys('g/', 2)).toEqual(['g/1/a/deep.js', 'g/1/index.html']);
      expect(await keys('nothing/')).toEqual([]);
      const [info] = await storage.list('h/1/y');
      expect(info?.size).toBe(5);
    });

    it('deletes one object, and every object under a prefix', async () => {
      const storage = makeStorage();
      for (const key of ['v/1/a', 'v/1/b/c', 'v/2/a', 'v/10/a']) {
        await storage.put(key, Buffer.from('x'));
      }
      await storage.delete('v/2/a');
      await storage.delete('v/2/never-was');
      expect(await storage.head('v/2/a')).toBeUndefined();
      expect(await storage.deletePrefix('v/1/')).toBe(2);
      expect((await storage.list('v/')).map((info) => info.key)).toEqual(['v/10/a']);
      expect(await storage.deletePrefix('v/1/')).toBe(0);
    });

    it('sees a scope as its own storage', async () => {
      const storage = makeStorage();
      await storage.put('game/3/index.html', Buffer.from('<html>'));
      const scope = storage.scoped('game/3/');
      expect((await scope.head('index.html'))?.size).toBe(6);
      await scope.put('more/file.js', Buffer.from('js'));
      expect((await storage.list('game/')).map((info) => info.key)).toEqual([
        'game/3/index.html',
        'game/3/more/file.js',
      ]);
    });

    it('refuses keys that are not plain relative paths', async () => {
      const storage = makeStorage();
      for (const key of ['', '../x', 'a/../../x', '/abs', 'a//b', 'a\\b', 'a/./b']) {
        await expect(storage.put(key, Buffer.from('x')), key).rejects.toBeInstanceOf(
          InvalidKeyError,
        );
        await expect(storage.head(key), key).rejects.toBeInstanceOf(InvalidKeyError);
      }
    });

    it('answers the check when it can be used', async () => {
      await expect(makeStorage().check()).resolves.toBeUndefined();
    });
  });
}
