import {
  expect,
  expectNoSeriousA11yIssues,
  gotoCompose,
  pasteText,
  screenshot,
  test,
  type RunningStudio,
} from './studio-fixture';

/** The rows of the draft being edited, as main has saved them (autosave, a moment after a change). */
async function savedItems(studio: RunningStudio, rows: number): Promise<any[]> {
  let items: any[] = [];
  await expect
    .poll(async () => {
      const drafts = await studio.call('drafts.list');
      const newest = [...drafts].sort((a: any, b: any) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0))[0];
      items = newest ? (await studio.call('drafts.get', { id: newest.id })).items : [];
      return items.filter((i: any) => i.parts).length;
    })
    .toBe(rows);
  return items;
}

test('rows typed by hand get their parts, in English and in Chinese, accepted or changed', async ({
  page,
  studio,
}) => {
  await gotoCompose(page, studio);
  await pasteText(
    page,
    '[data-testid="new-row"]',
    [
      'A red cat on wood, soft light',
      'A big blue dog on marble, hard light',
      'A red cat on stone, soft light',
    ].join('\n'),
  );
  await expect(page.getByTestId('totals-bar')).toContainText('3 rows');
  await page.getByTestId('open-find-parts').click();
  const dialog = page.getByRole('dialog', { name: 'Find the parts of your prompts' });
  await expect(dialog.getByTestId('find-parts-template')).toHaveValue('A {part1} on {part2}, {part3} light');
  await expect(dialog.getByTestId('find-parts-preview')).toContainText('big blue dog');
  // Renamed, and the template changed so that "light" is part of the value.
  await dialog.getByTestId('find-parts-name-part2').fill('surface');
  await dialog.getByTestId('find-parts-name-part2').press('Enter');
  await dialog.getByTestId('find-parts-template').fill('A {part1} on {surface}, {light}');
  await expect(dialog.getByTestId('find-parts-accept')).toContainText('3 rows get parts');
  await expectNoSeriousA11yIssues(page);
  await screenshot(page, 'find-parts');
  await dialog.getByTestId('find-parts-accept').click();
  const english = await savedItems(studio, 3);
  expect(english[1].parts).toEqual({
    template: 'A {part1} on {surface}, {light}',
    values: { part1: 'big blue dog', surface: 'marble', light: 'hard light' },
    source: 'edited',
  });

  // Chinese rows, with no spaces between words: only the rows without parts are looked at.
  await page.getByTestId('language-select').selectOption('zh-CN');
  await pasteText(
    page,
    '[data-testid="new-row"]',
    ['一只猫在木头上，柔和的光', '一只狗在大理石上，强烈的光'].join('\n'),
  );
  await page.getByTestId('open-find-parts').click();
  const zh = page.getByRole('dialog', { name: '找出提示词的组成部分' });
  await expect(zh.getByTestId('find-parts-template')).toHaveValue('一只{部分1}在{部分2}上，{部分3}的光');
  await expect(zh).toContainText('正在查看 2 行没有组成部分的提示词。');
  await screenshot(page, 'find-parts-zh-CN');
  await zh.getByTestId('find-parts-accept').click();
  const all = await savedItems(studio, 5);
  expect(all[4].parts).toEqual({
    template: '一只{部分1}在{部分2}上，{部分3}的光',
    values: { 部分1: '狗', 部分2: '大理石', 部分3: '强烈' },
    source: 'suggested',
  });
  await page.getByTestId('language-select').selectOption('en');
});
