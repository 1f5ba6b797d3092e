import { describe, expect, it } from 'vitest';
import { en } from '../../src-shared/i18n/en';
import { zhCN } from '../../src-shared/i18n/zh-CN';
import { keyHandler, keysLabel, matchesCombo, SCREEN_SHORTCUTS } from '../shell/shortcuts';

type Keys = Partial<Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>>;
const press = (e: Keys) =>
  ({
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    preventDefault() {},
    ...e,
  }) as KeyboardEvent;

describe('the shortcut lists', () => {
  it('describe every shortcut and every heading in English and in Chinese', () => {
    for (const messages of [en.shortcuts, zhCN.shortcuts] as Record<string, unknown>[]) {
      for (const groups of Object.values(SCREEN_SHORTCUTS)) {
        for (const group of groups) {
          expect((messages.where as Record<string, string>)[group.where], group.where).toBeTruthy();
          for (const s of group.shortcuts) expect(messages[s.id], s.id).toBeTruthy();
        }
      }
    }
  });

  it('show keys as people read them', () => {
    expect(keysLabel({ id: 'redo', keys: ['mod+shift+z', 'mod+y'] })).toBe('Ctrl+Shift+Z / Ctrl+Y');
    expect(keysLabel({ id: 'zoomIn', keys: ['+', '='] })).toBe('+ / =');
    expect(keysLabel({ id: 'moveRow', keys: ['alt+arrowup', 'alt+arrowdown'] })).toBe('Alt+↑ / Alt+↓');
  });
});

describe('matching a key press', () => {
  it('takes the modifiers into account, exactly', () => {
    expect(matchesCombo('mod+z', press({ key: 'z', ctrlKey: true }))).toBe(true);
    expect(matchesCombo('mod+z', press({ key: 'Z', ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(matchesCombo('mod+shift+z', press({ key: 'Z', ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(matchesCombo('p', press({ key: 'p', ctrlKey: true }))).toBe(false);
    // A symbol needs Shift on some layouts and not on others.
    expect(matchesCombo('?', press({ key: '?', shiftKey: true }))).toBe(true);
  });

  it('runs the first matching handler, and leaves the key alone when the handler declines', () => {
    const group = { shortcuts: [{ id: 'cellMove', keys: ['arrowup'] }] as const };
    let ran = 0;
    expect(keyHandler(group, { cellMove: () => void ran++ })(press({ key: 'ArrowUp' }))).toBe(true);
    expect(keyHandler(group, { cellMove: () => false })(press({ key: 'ArrowUp' }))).toBe(false);
    expect(keyHandler(group, { cellMove: () => void ran++ })(press({ key: 'ArrowDown' }))).toBe(false);
    expect(ran).toBe(1);
  });
});
