import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BackupError, latestMigration, restoreBackup } from './archive.js';

/*
 * Archives a hostile hand wrote: links, devices, FIFOs and `../` names. Restore refuses each
 * before it writes anything, naming the entry. The archives are written header by header here
 * (tar itself would strip `../` and never store a device it cannot read).
 */

let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'hostile-archive-'));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

interface Entry {
  name: string;
  /** ustar type: '0' file, '1' hard link, '2' symbolic link, '3' char device, '5' folder, '6' FIFO. */
  type: '0' | '1' | '2' | '3' | '5' | '6';
  data?: string;
  linkName?: string;
}

function octal(value: number, length: number): string {
  return `${value.toString(8).padStart(length - 1, '0')}\0`;
}

/** One ustar header block and its data blocks. */
function tarEntry(entry: Entry): Buffer {
  const data = Buffer.from(entry.data ?? '');
  const header = Buffer.alloc(512);
  header.write(entry.name, 0, 100, 'utf8');
  header.write(octal(entry.type === '5' ? 0o755 : 0o644, 8), 100, 'latin1');
  header.write(octal(0, 8), 108, 'latin1');
  header.write(octal(0, 8), 116, 'latin1');
  header.write(octal(data.length, 12), 124, 'latin1');
  header.write(octal(Math.floor(Date.now() / 1000), 12), 136, 'latin1');
  header.write(entry.type, 156, 'latin1');
  header.write(entry.linkName ?? '', 157, 100, 'utf8');
  header.write('ustar\0', 257, 'latin1');
  header.write('00', 263, 'latin1');
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) {
    sum += byte;
  }
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([header, data, padding]);
}

/** A tar.gz of a plausible backup (manifest, database) followed by `extra`. */
async function archiveWith(name: string, extra: Entry[]): Promise<string> {
  const manifest = {
    format: 2,
    createdAt: new Date().toISOString(),
    database: 'pglite',
    migration: (await latestMigration()).tag,
    gameFiles: 1,
    mediaFiles: 1,
  };
  const entries: Entry[] = [
    { name: './', type: '5' },
    { name: './manifest.json', type: '0', data: JSON.stringify(manifest) },
    { name: './database/', type: '5' },
    { name: './database/pglite.tar', type: '0', data: 'not read: refused first' },
    { name: './games/', type: '5' },
    { name: './games/WolfScape/1/index.html', type: '0', data: '<!DOCTYPE html>' },
    ...extra,
  ];
  const file = path.join(work, `${name}.tar.gz`);
  writeFileSync(file, gzipSync(Buffer.concat([...entries.map(tarEntry), Buffer.alloc(1024)])));
  return file;
}

function freshTarget(name: string) {
  const dataDir = path.join(work, name, 'data');
  return {
    dataDir,
    gamesDir: path.join(work, name, 'games'),
    mediaDir: path.join(dataDir, 'media'),
  };
}

/** Nothing of the restore is on disk: no target folder, no staging folder beside them. */
function expectNothingWritten(target: ReturnType<typeof freshTarget>) {
  expect(existsSync(target.gamesDir)).toBe(false);
  expect(existsSync(target.mediaDir)).toBe(false);
  expect(existsSync(path.join(target.dataDir, 'pglite'))).toBe(false);
  const parent = path.dirname(target.gamesDir);
  expect(existsSync(parent) ? readdirSync(parent) : []).toEqual([]);
}

describe('restore refuses a hostile archive before writing anything', () => {
  it.each([
    {
      case: 'a symbolic link to /etc/passwd in a build',
      entry: { name: './games/WolfScape/1/passwd.html', type: '2', linkName: '/etc/passwd' },
      says: 'the entry "./games/WolfScape/1/passwd.html" is a symbolic link (to "/etc/passwd")',
    },
    {
      case: 'a symbolic link among the media',
      entry: { name: `./media/${'a'.repeat(64)}.png`, type: '2', linkName: '/etc/hostname' },
      says: `the entry "./media/${'a'.repeat(64)}.png" is a symbolic link (to "/etc/hostname")`,
    },
    {
      case: 'a hard link',
      entry: {
        name: './games/WolfScape/1/copy.html',
        type: '1',
        linkName: './games/WolfScape/1/index.html',
      },
      says: 'the entry "./games/WolfScape/1/copy.html" is a hard link (to "./games/WolfScape/1/index.html")',
    },
    {
      case: 'a character device',
      entry: { name: './media/zero.png', type: '3' },
      says: 'the entry "./media/zero.png" is a character device',
    },
    {
      case: 'a FIFO',
      entry: { name: './games/WolfScape/1/pipe.js', type: '6' },
      says: 'the entry "./games/WolfScape/1/pipe.js" is a fifo',
    },
    {
      case: 'a ../ path out of the archive',
      entry: { name: './games/../../escaped.html', type: '0', data: 'planted' },
      says: 'the entry "./games/../../escaped.html" has a path that climbs out of the archive (..)',
    },
    {
      case: 'an absolute path',
      entry: { name: '/tmp/planted.html', type: '0', data: 'planted' },
      says: 'the entry "/tmp/planted.html" has an absolute or backslashed path',
    },
    {
      case: 'a top-level name restore does not read',
      entry: { name: './etc/cron.d/job', type: '0', data: 'planted' },
      says: 'the entry "./etc/cron.d/job" is outside what a backup restores',
    },
  ] satisfies { case: string; entry: Entry; says: string }[])(
    'refuses $case',
    async ({ case: label, entry, says }) => {
      const name = label.replace(/\W+/g, '-');
      const archive = await archiveWith(name, [entry]);
      const target = freshTarget(name);
      const refusal = restoreBackup(archive, target);
      await expect(refusal).rejects.toBeInstanceOf(BackupError);
      await expect(refusal).rejects.toThrow(`${archive}: ${says}; nothing was restored`);
      expectNothingWritten(target);
    },
  );

  it('refuses a damaged header instead of skipping over it', async () => {
    const archive = path.join(work, 'damaged.tar.gz');
    const block = tarEntry({ name: './manifest.json', type: '0', data: '{}' });
    block[0] = 0x2f; // '/': the name changed, the checksum not
    writeFileSync(archive, gzipSync(Buffer.concat([block, Buffer.alloc(1024)])));
    const target = freshTarget('damaged');
    await expect(restoreBackup(archive, target)).rejects.toThrow(
      `${archive} is not a readable tar.gz: a header is damaged (its checksum does not match)`,
    );
    expectNothingWritten(target);
  });
});
