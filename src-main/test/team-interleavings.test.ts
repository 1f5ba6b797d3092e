import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './helpers/seeded-random';
import { Collections } from '../services/library/folders/boards';
import { personMarksOnDisk } from './helpers/marks-on-disk';
import { promptsDraft } from './helpers/prompts-draft';
import {
  call,
  startServices,
  submitAndDownload,
  waitUntil,
  type TestServices,
} from './helpers/studio-fixture';

/**
 * Two studios (each with its own data folder, catalog and gateway) on one library folder, doing
 * what two people culling together do, at the same moment: marks, stars, undo, board changes and
 * downloads. After each round the disk itself is read, as a new machine would read it: every
 * person's every mark and every board change is there.
 */
const ROUNDS = Number(process.env.TEAM_ROUNDS ?? 200);
const SEED = Number(process.env.TEAM_SEED ?? 35);

type Mark = 'picked' | 'rejected' | 'alternative' | null;
type Entry = { mark: Mark; stars: number };

interface Side {
  name: string;
  studio: TestServices;
  id: string;
  /** What this person's marks must be, by image id. */
  marks: Map<string, Entry>;
  /** The marks before this person's last change, for an undo. */
  undo?: Map<string, Entry>;
  /** What this person did, for the message of a failure. */
  log: string[];
}

const MARKS: Mark[] = ['picked', 'rejected', 'alternative', null];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function some<T>(random: () => number, list: readonly T[], most: number): T[] {
  const count = 1 + Math.floor(random() * most);
  return [...new Set(Array.from({ length: count }, () => pick(random, list)))];
}

/** Every person's marks as their files on disk hold them, by image id: the truth a rebuild reads. */
function marksOnDisk(root: string, personId: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const folder of readdirSync(root)) {
    if (folder.startsWith('.') || !existsSync(join(root, folder, 'review', `${personId}.json`))) continue;
    for (const [image, e] of Object.entries(personMarksOnDisk(join(root, folder), personId).images))
      out.set(`${folder}/${image}`, e as Entry);
  }
  return out;
}

describe('two studios on one library folder', () => {
  it(
    `lose no mark and no board change over ${ROUNDS} random interleavings`,
    { timeout: 600_000 },
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'team-library-'));
      const sides: Side[] = [];
      for (const name of ['Ana', 'Wei']) {
        const studio = await startServices();
        await call(studio, 'settings.update', { libraryDir: root, personName: name, autoDownload: true });
        sides.push({
          name,
          studio,
          id: (await call(studio, 'settings.get')).personId,
          marks: new Map(),
          log: [],
        });
      }
      const [ana, wei] = sides as [Side, Side];
      const first = await submitAndDownload(
        ana.studio,
        promptsDraft('team-1', 'Team cull', ['a mug', 'a cup', 'a jug', 'a vase', 'a bowl', 'a plate']),
      );
      expect(first.download.state).toBe('done');
      const images: string[] = await call(ana.studio, 'library.ids', {});
      const boardIds: string[] = [];
      for (const name of ['Client', 'Mood'])
        boardIds.push((await call(wei.studio, 'collections.create', { name })).id);
      /** What each board must hold, with who last changed each image's place in it this round. */
      const boards = new Map(boardIds.map((id) => [id, new Set<string>()]));
      const random = seededRandom(SEED);
      let downloads = 0;

      for (let round = 0; round < ROUNDS; round++) {
        /** Per board and image, each side's last placing this round. */
        const touched = new Map<string, Map<string, Map<string, boolean>>>();
        const run = async (side: Side) => {
          const steps = 1 + Math.floor(random() * 5);
          const plan = Array.from({ length: steps }, () => random());
          for (const roll of plan) {
            // A moment between steps, as keys are pressed: the two sides' steps interleave differently each round.
            await new Promise((r) => setTimeout(r, Math.floor(random() * 3)));
            if (roll < 0.45) {
              const ids = some(random, images, 4);
              const change =
                random() < 0.6 ? { mark: pick(random, MARKS) } : { stars: Math.floor(random() * 6) };
              side.undo = new Map(
                (
                  (await call(side.studio, 'library.marksOf', { ids })) as {
                    id: string;
                    mark: Mark;
                    stars: number;
                  }[]
                ).map((m) => [m.id, { mark: m.mark, stars: m.stars }]),
              );
              await call(side.studio, 'library.mark', { ids, ...change });
              side.log.push(
                `${round} mark ${JSON.stringify(change)} ${ids.map((i) => i.slice(-7)).join(' ')}`,
              );
              for (const id of ids) {
                const was = side.marks.get(id) ?? side.undo.get(id) ?? { mark: null, stars: 0 };
                side.marks.set(id, {
                  mark: 'mark' in change ? change.mark! : was.mark,
                  stars: change.stars ?? was.stars,
                });
              }
            } else if (roll < 0.6 && side.undo) {
              // Undo: each image back to what the person had before their last change, as Ctrl+Z does.
              for (const [id, entry] of side.undo) {
                await call(side.studio, 'library.mark', { ids: [id], mark: entry.mark, stars: entry.stars });
                side.log.push(`${round} undo ${JSON.stringify(entry)} ${id.slice(-7)}`);
                side.marks.set(id, entry);
              }
              side.undo = undefined;
            } else if (roll < 0.97) {
              const board = pick(random, boardIds);
              const ids = some(random, images, 3);
              const present = random() < 0.6;
              await call(side.studio, 'collections.setImages', { id: board, ids, present });
              const places = touched.get(board) ?? new Map<string, Map<string, boolean>>();
              touched.set(board, places);
              for (const id of ids) places.set(id, (places.get(id) ?? new Map()).set(side.name, present));
            } else {
              const n = ++downloads;
              // Content of its own: the same content twice is (rightly) refused as sent before.
              await submitAndDownload(
                side.studio,
                promptsDraft(`team-${n}`, `Round ${round}`, [`${side.name} teapot${n}`]),
              );
              images.push(
                ...((await call(side.studio, 'library.ids', { search: `teapot${n}` })) as string[]),
              );
            }
          }
        };
        await Promise.all([run(ana), run(wei)]);

        // Counted on disk, by a reader that is neither studio.
        for (const side of sides) {
          const onDisk = marksOnDisk(root, side.id);
          for (const [id, expected] of side.marks) {
            const got = onDisk.get(id) ?? { mark: null, stars: 0 };
            if (got.mark !== expected.mark || got.stars !== expected.stars)
              throw new Error(
                `round ${round}: ${side.name}'s mark on ${id} is ${JSON.stringify(got)}, not ${JSON.stringify(expected)}; ${side.log.slice(-12).join('; ')}`,
              );
          }
        }
        const read = new Map(
          (await new Collections(() => root).read()).map((c) => [c.id, new Set(c.images)]),
        );
        for (const [board, places] of touched)
          for (const [id, bySide] of places) {
            const wanted = new Set(bySide.values());
            // Both people placed it, one in and one out, at the same moment: either may be last.
            const present = wanted.size > 1 ? read.get(board)!.has(id) : wanted.has(true);
            if (present) boards.get(board)!.add(id);
            else boards.get(board)!.delete(id);
          }
        for (const [board, expected] of boards)
          expect([...read.get(board)!].sort(), `round ${round}, board ${board}`).toEqual(
            [...expected].sort(),
          );
      }

      // Each studio's own catalog comes to agree with the disk, as another studio's changes reach it
      // (its journal read within a few seconds): the other person's picks, counted by both.
      for (const side of sides) {
        const other = side === ana ? wei : ana;
        const picked = [...other.marks].filter(([, e]) => e.mark === 'picked').map(([id]) => id);
        await waitUntil(
          () => call(side.studio, 'library.ids', { review: 'picked', whose: 'anyone' }) as Promise<string[]>,
          (theirs) => picked.every((id) => theirs.includes(id)),
          15_000,
        );
      }
      expect(downloads).toBeGreaterThan(0);
    },
  );
});
