import { describe, expect, it } from 'vitest';
import type { BatchView } from '../../src-shared/batch-view';
import { BatchesInFlight } from '../electron/taskbar-progress';
import { clampToArea, MIN_SIZE } from '../electron/window-bounds';

const display = { x: 0, y: 0, width: 1920, height: 1040 };

describe('the window comes back where it was, on a screen that is there', () => {
  it('keeps bounds that fit', () => {
    expect(clampToArea({ x: 100, y: 80, width: 1200, height: 800 }, display)).toEqual({
      x: 100,
      y: 80,
      width: 1200,
      height: 800,
    });
  });

  it('brings a window left on an unplugged second monitor back onto the display', () => {
    const back = clampToArea({ x: 2500, y: 200, width: 1200, height: 800 }, display);
    expect(back).toEqual({ x: 720, y: 200, width: 1200, height: 800 });
  });

  it('shrinks a window larger than a smaller display, never below the minimum size', () => {
    const laptop = { x: 0, y: 25, width: 1280, height: 775 };
    expect(clampToArea({ x: -50, y: -30, width: 2400, height: 1300 }, laptop)).toEqual({
      x: 0,
      y: 25,
      width: 1280,
      height: 775,
    });
    const tiny = clampToArea({ x: 0, y: 0, width: 400, height: 300 }, display);
    expect([tiny.width, tiny.height]).toEqual([MIN_SIZE.width, MIN_SIZE.height]);
  });
});

function batch(id: string, done: number, total: number, terminal = false): BatchView {
  return { id, successCount: done, failCount: 0, itemCount: total, terminal } as BatchView;
}

describe('taskbar progress of the batches in flight', () => {
  it('is the items done over all running batches, and no bar when none runs', () => {
    const inFlight = new BatchesInFlight();
    expect(inFlight.fraction()).toBe(-1);
    inFlight.update(batch('a', 5, 10));
    inFlight.update(batch('b', 0, 30));
    expect(inFlight.fraction()).toBe(5 / 40);
    inFlight.update({ ...batch('b', 10, 30), failCount: 5 });
    expect(inFlight.fraction()).toBe(20 / 40);
    inFlight.update(batch('a', 10, 10, true));
    expect(inFlight.fraction()).toBe(15 / 30);
    inFlight.update(batch('b', 30, 30, true));
    expect(inFlight.fraction()).toBe(-1);
  });
});
