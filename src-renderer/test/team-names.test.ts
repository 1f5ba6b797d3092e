import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { translatorIn } from '../../src-shared/i18n/translator';
import type { TeamMarks } from '../../src-shared/person';
import type { LibraryFilter, LibraryImage, LibraryResult } from '../../src-shared/library-view';
import { marksFromEvent, patchMarks, windowKey } from '../library/library-windows';
import { teamNames, teamSummary } from '../library/team-names';

const team: TeamMarks = {
  picks: 2,
  rejects: 2,
  marked: 4,
  by: [
    { name: 'Ana', me: false, mark: 'picked', stars: 3 },
    { name: 'Wei', me: false, mark: 'picked', stars: 0 },
    { name: 'Bo', me: true, mark: 'rejected', stars: 0 },
    { name: '', me: false, mark: 'rejected', stars: 0 },
    { name: 'Kim', me: false, mark: null, stars: 4 },
  ],
};

describe("the team's marks in words", () => {
  it('names who picked and who rejected, counting only the others for the badges', () => {
    const en = translatorIn('en');
    const names = teamNames(team, en);
    expect(names).toMatchObject({ otherPicks: 2, otherRejects: 1 });
    expect(teamSummary(names, en)).toBe('Picked by Ana, Wei · Rejected by Bo (you), Earlier');
    const zh = translatorIn('zh-CN');
    expect(teamSummary(teamNames(team, zh), zh)).toBe('Ana、Wei 选中 · Bo（你）、早先 淘汰');
  });

  it('says nothing where nobody else marked the image', () => {
    const en = translatorIn('en');
    expect(teamSummary(teamNames(undefined, en), en)).toBe('');
    expect(teamNames(undefined, en)).toMatchObject({ otherPicks: 0, otherRejects: 0 });
  });
});

describe("a marks event's team, in the cached windows", () => {
  const filter: LibraryFilter = { review: 'any', minStars: 0, sort: 'newest' };
  const image: LibraryImage = {
    id: 'a',
    batchId: 'b',
    taskName: 'Batch',
    model: 'm',
    customId: 'c',
    prompt: 'p',
    createdAt: 1,
    mime: 'image/png',
    bytes: 1,
    mark: 'picked',
    stars: 0,
  };
  const cached = (client: QueryClient) => client.getQueryData<LibraryResult>(windowKey(filter, 0))!.items[0]!;

  it("takes the team's marks from the event, and only those while one's own mark is on its way", () => {
    const client = new QueryClient();
    client.setQueryData<LibraryResult>(windowKey(filter, 0), { total: 1, offset: 0, items: [image] });
    // One's own X is in flight: the echo of an earlier P must not undo it, but Wei's pick is news.
    patchMarks(client, new Map([['a', { mark: 'rejected' }]]));
    patchMarks(
      client,
      marksFromEvent([{ id: 'a', mark: 'picked', stars: 0, team }], (id) => id === 'a'),
    );
    expect(cached(client)).toMatchObject({ mark: 'rejected', team });
    // Nothing in flight: the event is the truth, and no team means nobody else marks it any more.
    patchMarks(client, marksFromEvent([{ id: 'a', mark: 'rejected', stars: 2 }]));
    expect(cached(client)).toMatchObject({ mark: 'rejected', stars: 2 });
    expect(cached(client).team).toBeUndefined();
  });
});
