import type { Locator, Page } from '@playwright/test';

import {
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  test,
  uniqueName,
} from '../fixtures';

// The code box against the real runner: standard input, the C++ standard, markers for compiler
// messages, the result line, and share links opened elsewhere.

const CPP_TITLE = 'Hello, World! in C++';
const RUN_TIMEOUT = { timeout: 60_000 };

function editorBox(page: Page): Locator {
  return page.locator('.cpp-editor');
}

function output(page: Page): Locator {
  return page.getByRole('status', { name: 'Output' });
}

/** Replaces the source as a person would: click into the code, select all, type. */
async function replaceSource(page: Page, source: string): Promise<void> {
  await editorBox(page).click();
  await expect(page.locator('.cpp-editor .monaco-editor')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('textbox', { name: `${CPP_TITLE}: C++ source` })).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  // inserted whole so Monaco's auto-indent and auto-close do not change the program
  await page.keyboard.insertText(source);
}

/** The 1-based lines on which Monaco draws an error squiggle. */
async function errorMarkerLines(page: Page): Promise<number[]> {
  const top = (await page.locator('.cpp-editor .view-lines').boundingBox())?.y ?? 0;
  const lines = new Set<number>();
  for (const squiggle of await page.locator('.cpp-editor .squiggly-error').all()) {
    const box = await squiggle.boundingBox();
    if (box) {
      lines.add(Math.floor((box.y - top) / 20) + 1);
    }
  }
  return [...lines].sort((a, b) => a - b);
}

// a name made per run, so no earlier run's cached answer is what the test sees; no indentation,
// which Monaco's auto-indent would carry to the next line as the text is typed in
const CONSTEVAL = (tag: string) =>
  `#include <iostream>\nconsteval int twice(int x) { return 2 * x; }\nint main() {\nstd::cout << "${tag} " << twice(21) << std::endl;\n}\n`;

test('standard input reaches the program; the limits and the result line show', async ({
  page,
}) => {
  await page.goto('/Tutorials');
  await expect(page.getByText(/^Limits: .+ CPU, .+ memory, .+ output$/)).toBeVisible();
  const tag = uniqueName('stdin');
  await replaceSource(
    page,
    `#include <iostream>\n#include <string>\nint main() {\n  std::string name;\n  std::getline(std::cin, name);\n  std::cout << "${tag} hello, " << name << "!" << std::endl;\n  return 3;\n}\n`,
  );
  await page.getByLabel('Standard input').fill('Ada Lovelace\n');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(output(page)).toContainText(`${tag} hello, Ada Lovelace!`, RUN_TIMEOUT);
  await expect(output(page)).toContainText(/Exited with code 3 after \d+(\.\d+)? m?s\./);
  await expect(output(page)).not.toContainText('cached');

  // the same program and input again: the answer comes from the cache, and says so
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(output(page)).toContainText('(cached result)', RUN_TIMEOUT);
  await expect(output(page)).toContainText(`${tag} hello, Ada Lovelace!`);
});

test('the C++ standard decides what compiles; the error is a marker at its line', async ({
  page,
}) => {
  await page.goto('/Tutorials');
  const tag = uniqueName('std');
  await replaceSource(page, CONSTEVAL(tag));

  await page.getByLabel('Standard', { exact: true }).selectOption({ label: 'C++11' });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(output(page)).toContainText('Compilation failed', RUN_TIMEOUT);
  await expect(output(page)).toContainText('the program did not run');
  const messages = output(page).getByRole('button', { name: /^Line 2, column \d+: error: / });
  await expect(messages.first()).toBeVisible();
  await expect.poll(() => errorMarkerLines(page)).toContain(2);

  // choosing the message in the list puts the caret at its place in the editor
  await messages.first().click();
  await expect(page.getByRole('textbox', { name: `${CPP_TITLE}: C++ source` })).toBeFocused();
  await page.keyboard.type('/*moved*/');
  await expect(page.locator('.cpp-editor .view-lines')).toContainText('/*moved*/');
  await page.keyboard.press('ControlOrMeta+Z');

  await page.getByLabel('Standard', { exact: true }).selectOption({ label: 'C++20' });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(output(page)).toContainText(`${tag} 42`, RUN_TIMEOUT);
  await expect(output(page)).toContainText('Exited with code 0');
  // a clean compile clears the markers
  await expect.poll(() => errorMarkerLines(page)).toEqual([]);
});

test('a share link opens the same code, input and settings in another browser', async ({
  page,
  browser,
  baseURL,
}) => {
  await page.goto('/Tutorials');
  const tag = uniqueName('share');
  const source = CONSTEVAL(tag);
  await replaceSource(page, source);
  await page.getByLabel('Standard input').fill('shared input\n');
  await page.getByLabel('Standard', { exact: true }).selectOption({ label: 'C++20' });
  await page.getByLabel('Optimisation').selectOption({ label: '-O1' });
  await page.getByRole('button', { name: 'Share' }).click();
  const link = page.getByLabel('Share link');
  await expect(link).toHaveValue(new RegExp(`^${baseURL}/Tutorials\\?snippet=[\\w-]{10,32}$`));
  const address = await link.inputValue();
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText(/^(Copied\.|Selected: press Ctrl\+C)/)).toBeVisible();

  // sharing the same again gives the same link (snippets are content-addressed)
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(link).toHaveValue(address);

  const other = await browser.newContext();
  try {
    const visitor = await other.newPage();
    await visitor.goto(address);
    await expect(
      visitor.getByText(
        /^Showing the shared snippet [\w-]+ \(C\+\+20, -O1, with standard input\)\.$/,
      ),
    ).toBeVisible();
    await expect(visitor.getByRole('textbox', { name: `${CPP_TITLE}: C++ source` })).toHaveValue(
      source,
    );
    await expect(visitor.getByLabel('Standard input')).toHaveValue('shared input\n');
    await expect(visitor.getByLabel('Standard', { exact: true })).toHaveValue('c++20');
    await expect(visitor.getByLabel('Optimisation')).toHaveValue('O1');
    await visitor.getByRole('button', { name: 'Run' }).click();
    await expect(visitor.getByRole('status', { name: 'Output' })).toContainText(
      `${tag} 42`,
      RUN_TIMEOUT,
    );
  } finally {
    await other.close();
  }
});

test('an unknown or malformed share link says so and keeps the sample', async ({ page }) => {
  await page.goto('/Tutorials?snippet=Unknown_id_000');
  await expect(page.getByRole('alert')).toHaveText(
    'There is no shared snippet "Unknown_id_000": the link may be incomplete or mistyped. ' +
      "The tutorial's own code is shown instead.",
  );
  await expect(editorBox(page)).toContainText('Hello, World!');

  await page.goto('/Tutorials?snippet=not%20an%20id');
  await expect(page.getByRole('alert')).toContainText(
    'This share link is broken: "not an id" is not a snippet id.',
  );
  await expect(page.getByRole('button', { name: 'Run' })).toBeEnabled();
});

test('on a 390 px phone, by keyboard: output under Run, input under it, runs, shares, passes axe', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/Tutorials');
  await expectNoSeriousA11yViolations(page);

  // Tab into the code (the highlighted text takes typing at once), then on to the controls
  const code = page.getByRole('textbox', { name: `${CPP_TITLE}: C++ source` });
  await page.getByRole('link', { name: 'Tutorials' }).first().focus();
  for (
    let step = 0;
    step < 15 && !(await code.evaluate((e) => e === document.activeElement));
    step++
  ) {
    await page.keyboard.press('Tab');
  }
  await expect(code).toBeFocused();
  await expect(page.locator('.cpp-editor .monaco-editor')).toBeVisible({ timeout: 30_000 });
  await expect(code).toBeFocused();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.insertText('// from a phone\n');
  // Ctrl+M: Tab leaves the editor, through Run, the options and Share to the input
  await page.keyboard.press('Control+M');
  const stdin = page.getByLabel('Standard input');
  for (
    let step = 0;
    step < 10 && !(await stdin.evaluate((e) => e === document.activeElement));
    step++
  ) {
    await page.keyboard.press('Tab');
  }
  await expect(stdin).toBeFocused();
  await page.keyboard.type('ignored');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(output(page)).toContainText('Hello, World!', RUN_TIMEOUT);

  // stacked: the output right under the code box's controls (in sight of Run), then the input,
  // all inside
  const stdinBox = await stdin.boundingBox();
  const outputBox = await output(page).boundingBox();
  const runBox = await page.getByRole('button', { name: 'Run' }).boundingBox();
  expect((outputBox?.y ?? 0) + (outputBox?.height ?? 0)).toBeLessThanOrEqual(
    (stdinBox?.y ?? 0) + 1,
  );
  expect((outputBox?.y ?? 0) - ((runBox?.y ?? 0) + (runBox?.height ?? 0))).toBeLessThan(400);
  expect((outputBox?.x ?? 0) + (outputBox?.width ?? 0)).toBeLessThanOrEqual(390);

  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByLabel('Share link')).toHaveValue(/\/Tutorials\?snippet=/);
  await expectNoSeriousA11yViolations(page);
  await expectFitsPhoneWidth(page);
});
