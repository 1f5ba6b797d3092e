import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchInLibrary, expect, openScreen, screenshot, test } from './studio-fixture';

// A team on one library folder: another person's marks arrive as their own file in the batch
// folder, as their studio (or a sync tool) writes it; this studio shows them, filters by them, and
// its keys still set only this person's own marks.
test.use({ viewport: { width: 1280, height: 800 } });

/** Wei, on another computer: an id as their studio made it. */
const WEI = 'a0b1c2d3e4f5';

const PROMPTS = [
  'A copper kettle on slate',
  'A copper kettle in the rain',
  'A copper kettle at dawn',
  'A copper kettle with steam',
  'A copper kettle, top view',
  'A copper kettle on linen',
];

type MarksFile = { person: { id: string; name: string }; images: Record<string, { mark: string | null }> };
const readMarks = (file: string): MarksFile => JSON.parse(readFileSync(file, 'utf8')) as MarksFile;

test("the team's marks show on the cells and in the loupe, filter the library, and keys change only one's own", async ({
  page,
  studio,
}) => {
  await batchInLibrary(studio, 'team', 'Team kettles', PROMPTS);
  const me = (await studio.call('settings.get')) as { personId: string };
  // The grid's order (newest first), with each image's file in its batch folder.
  const { items } = await studio.call('library.query', { sort: 'newest', limit: 50 });
  const details = await Promise.all(
    (items as { id: string }[]).map((i) => studio.call('library.detail', { id: i.id })),
  );
  const folder = join(details[0].path, '..', '..');
  const ids = details.map((d: { id: string }) => d.id);

  // Wei picked the first three images of the grid.
  const weiFile = join(folder, 'review', `${WEI}.json`);
  mkdirSync(join(folder, 'review'), { recursive: true });
  writeFileSync(
    weiFile,
    JSON.stringify({
      format: 'batch-image-studio.review/2',
      person: { id: WEI, name: 'Wei' },
      images: Object.fromEntries(
        details
          .slice(0, 3)
          .map((d: { file: string }, i: number) => [d.file, { mark: 'picked', stars: 0, seq: i + 1 }]),
      ),
    }),
  );
  const weiBytes = readFileSync(weiFile, 'utf8');

  // Opening the Library looks at every folder, so Wei's file is noticed.
  await openScreen(page, studio, 'Library');
  await expect(page.getByTestId('library-count')).toContainText('6 of 6');
  const cell = (n: number) => page.locator(`[data-testid="library-cell"][data-id="${ids[n]}"]`);
  const team = (n: number) => cell(n).getByTestId('library-team-badges');
  for (const n of [0, 1, 2]) {
    await expect(team(n)).toHaveAttribute('data-picks', '1');
    await expect(team(n)).toHaveAttribute('title', 'Picked by Wei');
    await expect(team(n)).toContainText('✓1');
  }
  await expect(team(3)).toHaveCount(0);

  // My own keys: X on the first (Wei picked it), P on the second. Only my file changes.
  const myFile = join(folder, 'review', `${me.personId}.json`);
  await cell(0).click();
  await page.keyboard.press('x');
  await expect(cell(0)).toHaveAttribute('data-mark', 'rejected');
  await cell(1).click();
  await page.keyboard.press('p');
  await expect(cell(1)).toHaveAttribute('data-mark', 'picked');
  await expect
    .poll(() => existsSync(myFile) && readMarks(myFile).images[details[1].file]?.mark)
    .toBe('picked');
  expect(readMarks(myFile).images[details[0].file]?.mark).toBe('rejected');
  expect(readFileSync(weiFile, 'utf8')).toBe(weiBytes);
  // The cell keeps Wei's pick beside my reject; its title names us both.
  await expect(team(0)).toHaveAttribute('data-picks', '1');
  await expect(team(0)).toHaveAttribute('title', /Picked by Wei · Rejected by .+ \(you\)/);

  // The loupe says who picked and who rejected.
  await cell(0).dblclick();
  await expect(page.getByTestId('lightbox-team')).toContainText('Picked by Wei · Rejected by');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('lightbox')).toHaveCount(0);

  // Anyone's picks: exactly Wei's three; mine alone: the one I picked.
  await page.getByTestId('library-review').selectOption('picked');
  await expect(page.getByTestId('library-count')).toContainText('1 of 6');
  await page.getByTestId('library-whose').selectOption('anyone');
  await expect(page.getByTestId('library-count')).toContainText('3 of 6');
  await expect
    .poll(() =>
      page.getByTestId('library-cell').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-id'))),
    )
    .toEqual(ids.slice(0, 3));
  // Picked by at least two people: the one we both picked.
  await page.getByTestId('library-min-picks').selectOption('2');
  await expect(page.getByTestId('library-count')).toContainText('1 of 6');
  await expect(page.getByTestId('library-cell')).toHaveAttribute('data-id', ids[1]!);
  await page.getByTestId('library-min-picks').selectOption('0');
  await page.getByTestId('library-whose').selectOption('mine');
  await page.getByTestId('library-review').selectOption('any');
  // The team disagrees where I rejected what Wei picked; agrees where we both picked.
  await page.getByTestId('library-agreement').selectOption('disagree');
  await expect(page.getByTestId('library-count')).toContainText('1 of 6');
  await expect(page.getByTestId('library-cell')).toHaveAttribute('data-id', ids[0]!);
  await page.getByTestId('library-agreement').selectOption('agree');
  await expect(page.getByTestId('library-cell')).toHaveAttribute('data-id', ids[1]!);
  await page.getByTestId('library-agreement').selectOption('');
  await expect(page.getByTestId('library-count')).toContainText('6 of 6');

  // Undo takes back only my last mark; Wei's file is untouched.
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('Control+z');
  await expect.poll(() => readMarks(myFile).images[details[1].file]?.mark ?? null).toBe(null);
  expect(readFileSync(weiFile, 'utf8')).toBe(weiBytes);

  // A name in Settings ("You") goes into my marks file with my next mark.
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Settings' })
    .click();
  const name = page.getByTestId('settings-person-name');
  await name.fill('   ');
  await name.press('Enter');
  await expect(page.getByTestId('settings-person-name-problem')).toHaveText('A name cannot be empty.');
  await name.fill('Ana');
  await name.press('Enter');
  await expect(page.getByTestId('settings-person').getByRole('status')).toHaveText('Saved.');
  await expect(page.getByTestId('settings-person-name-problem')).toHaveCount(0);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Library' })
    .click();
  await cell(3).click();
  await page.keyboard.press('p');
  await expect.poll(() => readMarks(myFile).images[details[3].file]?.mark).toBe('picked');
  expect(readMarks(myFile).person).toEqual({ id: me.personId, name: 'Ana' });

  // For the README: the grid with the team's badges, in English and in Chinese.
  await cell(0).click();
  await screenshot(page, 'library-team-en');
  await studio.call('settings.update', { language: 'zh-CN' });
  await expect(page.getByTestId('library-whose')).toContainText('任何人的');
  await expect(team(0)).toHaveAttribute('title', /^Wei 选中 · .+（你） 淘汰$/);
  await screenshot(page, 'library-team-zh-CN');
  await studio.call('settings.update', { language: 'en' });
});

test('a studio whose data folder was copied from a computer still in use says so in Settings, in words', async ({
  page,
  studio,
}) => {
  await studio.call('settings.update', { personName: 'Ana' });
  // As the studio leaves it once it has found its person id in use on studio-b.local and taken a new one.
  await studio.restart(() => {
    const file = join(studio.dataDir, 'settings.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(stored.personId).toMatch(/^[0-9a-f]{12}$/);
    const notice = {
      code: 'PERSON_ID_COPIED',
      host: 'studio-b.local',
      previousId: 'a0b1c2d3e4f5',
      at: Date.now(),
    };
    writeFileSync(file, JSON.stringify({ ...stored, personNotice: notice }));
  });
  await openScreen(page, studio, 'Settings');
  const you = page.getByTestId('settings-person');
  await expect(you.getByRole('heading', { name: 'You' })).toBeVisible();
  await expect(you).toContainText('A label your team sees beside your picks and rejects, not a login');
  await expect(page.getByTestId('settings-person-notice')).toHaveText(
    "This studio's settings were copied from another computer (studio-b.local) that is still in use, so it now marks as a new person. Marks made before stay with the other.",
  );
  // Too long a name is refused in words, and the one saved stays.
  const saved = await page.getByTestId('settings-person-name').inputValue();
  await page.getByTestId('settings-person-name').fill('x'.repeat(61));
  await page.getByTestId('settings-person-name').blur();
  await expect(page.getByTestId('settings-person-name-problem')).toHaveText(
    'A name can be at most 60 characters.',
  );
  expect((await studio.call('settings.get')).personName).toBe(saved);
  await page.getByTestId('language-select').selectOption('zh-CN');
  await expect(page.getByTestId('settings-person-notice')).toContainText('（studio-b.local）');
  await expect(page.getByTestId('settings-person-name-problem')).toHaveText('名称最多 60 个字符。');
  await page.getByTestId('language-select').selectOption('en');
});
