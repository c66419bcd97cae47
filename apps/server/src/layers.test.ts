import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The layers hold at run time: no two folders of the server (modules/<name>, lib, db, access,
 * realtime, the root files) or of the web app (features/<name>, app, ui, lib) import each other,
 * however indirectly. ESLint forbids the imports that would start a loop; this reads what the
 * files really import (type-only imports vanish at run time and are left out), so a loop that
 * slipped past the patterns still fails here, and the message names it.
 */

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const isTestFile = (file: string) =>
  /\.(test|spec)\.tsx?$/.test(file) ||
  /\/(test|fixtures)\//.test(file) ||
  /test-support|test-zips|socket-test-client|\.contract\.ts$/.test(file);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      return sourceFiles(full);
    }
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !isTestFile(full)
      ? [full]
      : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) {
    return undefined;
  }
  const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
  return ['.ts', '.tsx', '/index.ts', '/index.tsx', '']
    .map((ending) => base + ending)
    .find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** The files a source file loads at run time (static imports and re-exports, and import()). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const isTypeOnly = ts.isImportDeclaration(node)
        ? (node.importClause?.isTypeOnly ?? false)
        : node.isTypeOnly;
      if (!isTypeOnly) {
        found.push(node.moduleSpecifier.text);
      }
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.flatMap((specifier) => resolveImport(file, specifier) ?? []);
}

/** Folders that import each other in a loop (Tarjan's strongly connected components). */
function folderLoops(root: string, folderOf: (relative: string) => string): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const from = folderOf(path.relative(root, file));
    for (const target of runtimeImports(file)) {
      if (!target.startsWith(root + path.sep) || isTestFile(target)) {
        continue;
      }
      const to = folderOf(path.relative(root, target));
      if (to !== from) {
        edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member !== undefined) {
          component.push(member);
        }
      } while (member !== undefined && member !== node);
      if (component.length > 1) {
        loops.push(component.sort());
      }
    }
  };
  for (const node of edges.keys()) {
    if (!index.has(node)) {
      connect(node);
    }
  }
  return loops;
}

describe('layers', () => {
  it('no server folders import each other in a loop at run time', () => {
    const loops = folderLoops(path.join(REPO, 'apps/server/src'), (relative) => {
      const [first, second] = relative.split(path.sep);
      if (first === 'modules' && second) {
        return `modules/${second}`;
      }
      return relative.includes(path.sep) ? (first ?? '') : '(root)';
    });
    expect(loops).toEqual([]);
  });

  it('no web folders import each other in a loop at run time', () => {
    const loops = folderLoops(path.join(REPO, 'apps/web/src'), (relative) => {
      const [first, second] = relative.split(path.sep);
      if (first === 'features' && second) {
        return `features/${second}`;
      }
      return relative.includes(path.sep) ? (first ?? '') : '(root)';
    });
    expect(loops).toEqual([]);
  });
});
