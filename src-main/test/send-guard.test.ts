import { describe, expect, it } from 'vitest';
import type { Draft } from '../../src-shared/draft';
import { draftFingerprint } from '../../src-shared/draft-fingerprint';
import { RUN_METADATA_KEY } from '../../src-shared/batch-run';
import { promptsDraft } from './helpers/prompts-draft';
import type { CallResult } from '../services/dispatch/studio-dispatcher';
import { call, startServices, waitUntil, type TestServices } from './helpers/studio-fixture';
import { seededRandom } from './helpers/seeded-random';

const MODELS = ['imgvendor-3.1-flash-image', 'imgvendor-3-pro-image'];
const KEYS = { alice: 'sk-sandbox-alice', bob: 'sk-sandbox-bob' } as const;
type Who = keyof typeof KEYS;
/** At least this many random interleavings run in CI; SEND_GUARD_ROUNDS asks for more. */
const ROUNDS = Math.max(200, Number(process.env.SEND_GUARD_ROUNDS ?? 0));

/** The value of an answer that must have gone through. */
function valueOf(result: CallResult): any {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Batches created per key, as the gateway counts them: over HTTP, from the sandbox itself. */
async function atSandbox(s: TestServices): Promise<Record<Who, number>> {
  const res = await fetch(`${s.sandbox.url.replace(/\/+$/, '')}/_sandbox/state`);
  const state = (await res.json()) as { accounts: Record<string, { batches: number }> };
  return { alice: state.accounts[KEYS.alice]?.batches ?? 0, bob: state.accounts[KEYS.bob]?.batches ?? 0 };
}

/** The studio with two profiles on the sandbox, one key each; nothing downloads by itself. */
async function twoProfiles() {
  const s = await startServices();
  await call(s, 'settings.update', { autoDownload: false });
  const info = await call(s, 'app.info');
  const alice = (await call(s, 'settings.get')).activeProfileId as string;
  const bob = (
    await call(s, 'profiles.save', { name: 'Bob', baseUrl: info.sandboxUrl, gatewayKey: KEYS.bob })
  ).id as string;
  const ids: Record<Who, string> = { alice, bob };
  /**
   * Starts a call as `who`: the active profile is read when the call starts, synchronously, so the
   * calls of both profiles can be in flight together.
   */
  const start = (who: Who, method: string, input: unknown) => {
    s.profiles.activate(ids[who]);
    return s.dispatch(method, input);
  };
  return { s, ids, start };
}

/** The contents each round draws from: two single drafts, one two-model run, one retry per profile. */
const CONTENTS = ['A', 'B'] as const;
const single = (content: string, id: string): Draft =>
  promptsDraft(id, `Guard ${content}`, [`guard ${content} one`, `guard ${content} two`]);
const runDraft = (id: string): Draft => promptsDraft(id, 'Guard run', ['guard run one']);

type Key = string;
interface Call {
  who: Who;
  key: Key;
  method: 'batches.submit' | 'batches.submitRun' | 'batches.retryFailed';
  input: (confirm: { resendOf: string[] } | undefined) => unknown;
  /** How many batches a call that goes through makes: a run makes one per model. */
  makes: number;
  /** With the user's confirmation: of the latest earlier send, or of an older one (stale). */
  confirm: 'none' | 'latest' | 'stale';
}

describe('the send guard: exactly once, whatever the timing', () => {
  it(`random interleavings of 2–20 concurrent paid calls make what the rule allows, at the sandbox (${ROUNDS} rounds)`, async () => {
    const { s, ids, start } = await twoProfiles();
    // A parent batch per profile with one failed item, for "Retry failed".
    const parents = {} as Record<Who, string>;
    for (const who of ['alice', 'bob'] as const) {
      const draft = promptsDraft(`parent-${who}`, `Parent ${who}`, [
        'guard parent ok',
        'guard parent [fail]',
      ]);
      const result = await start(who, 'batches.submit', { draft });
      if (!result.ok) throw new Error(result.error.code);
      const id = (result.value as { batch: { id: string } }).batch.id;
      s.profiles.activate(ids[who]);
      await waitUntil(
        () => call(s, 'batches.get', { id }),
        (b: any) => b.terminal,
      );
      parents[who] = id;
    }
    // Every submission per key, oldest first, as the guard's refusals name them.
    const history = new Map<Key, string[][]>();
    const seed = Number(process.env.SEND_GUARD_SEED ?? Date.now() % 1_000_000);
    const random = seededRandom(seed);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    let checked = 0;
    let refused = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const count = 2 + Math.floor(random() * 19);
      const calls: Call[] = [];
      for (let i = 0; i < count; i++) {
        const who = pick(['alice', 'bob'] as const);
        const kind = pick(['submit', 'submit', 'run', 'retry'] as const);
        const confirm = pick(['none', 'none', 'latest', 'stale'] as const);
        const tag = `${round}-${i}`;
        if (kind === 'submit') {
          const content = pick(CONTENTS);
          // Each call its own draft id, as copies of a draft or two windows would be.
          calls.push({
            who,
            key: `${who}/${content}`,
            method: 'batches.submit',
            makes: 1,
            confirm,
            input: (c) => ({ draft: single(content, `d-${tag}`), ...(c ? { confirm: c } : {}) }),
          });
        } else if (kind === 'run') {
          calls.push({
            who,
            key: `${who}/run`,
            method: 'batches.submitRun',
            makes: 2,
            confirm,
            // Each call its own run id, as each click makes.
            input: (c) => ({
              runId: `run-${tag}-${Math.floor(random() * 1e9)}`,
              draft: runDraft(`r-${tag}`),
              models: MODELS,
              ...(c ? { confirm: c } : {}),
            }),
          });
        } else {
          calls.push({
            who,
            key: `${who}/retry`,
            method: 'batches.retryFailed',
            makes: 1,
            confirm,
            input: (c) => ({ id: parents[who], ...(c ? { confirm: c } : {}) }),
          });
        }
      }
      // The rule, per key: one send when nothing was sent before, or when a call confirms the
      // latest earlier send; none otherwise (a stale confirmation confirms nothing).
      const expected: Record<Who, number> = { alice: 0, bob: 0 };
      const keys = new Map<Key, Call[]>();
      for (const c of calls) keys.set(c.key, [...(keys.get(c.key) ?? []), c]);
      for (const [key, group] of keys) {
        const sent = history.get(key) ?? [];
        const goes = sent.length === 0 || group.some((c) => c.confirm === 'latest');
        if (goes) expected[group[0]!.who] += group[0]!.makes;
      }
      const before = await atSandbox(s);
      const results = await Promise.all(
        calls.map((c) => {
          const sent = history.get(c.key) ?? [];
          const named =
            c.confirm === 'latest'
              ? sent.at(-1)
              : c.confirm === 'stale' && sent.length > 1
                ? sent.at(-2)
                : undefined;
          return start(
            c.who,
            c.method,
            c.input(c.confirm === 'none' ? undefined : { resendOf: named ?? [] }),
          );
        }),
      );
      const after = await atSandbox(s);
      const made = { alice: after.alice - before.alice, bob: after.bob - before.bob };
      expect(
        made,
        `seed ${seed}, round ${round}: ${JSON.stringify(calls.map((c) => [c.key, c.confirm]))}`,
      ).toEqual(expected);
      // Refusals are the guard's own, with what the question needs; nothing else fails.
      for (const [i, r] of results.entries()) {
        if (r.ok) {
          const value = r.value as any;
          const made = value.results ? value.results.map((x: any) => x.submission.id) : [value.submission.id];
          const list = history.get(calls[i]!.key) ?? [];
          if (!list.some((ids) => ids.join() === made.join())) history.set(calls[i]!.key, [...list, made]);
          continue;
        }
        refused++;
        expect(['STUDIO_SENT_BEFORE', 'STUDIO_SEND_IN_PROGRESS'], `seed ${seed}`).toContain(r.error.code);
        expect(r.error.earlier?.length, `seed ${seed}`).toBeGreaterThan(0);
      }
      checked++;
    }
    expect(checked).toBe(ROUNDS);
    expect(refused).toBeGreaterThan(ROUNDS);
  }, 600_000);

  it('a confirmation names what it confirms: the refusal names the earlier batch, and only that one unlocks a resend', async () => {
    const { s, start } = await twoProfiles();
    const draft = single('named', 'named-1');
    const first = await start('alice', 'batches.submit', { draft });
    expect(first.ok).toBe(true);
    const again = await start('alice', 'batches.submit', {
      draft: { ...draft, id: 'named-2', name: 'Other name' },
    });
    expect(again.ok).toBe(false);
    if (again.ok) return;
    expect(again.error.code).toBe('STUDIO_SENT_BEFORE');
    const earlier = again.error.earlier![0]!;
    expect(earlier).toMatchObject({
      state: 'created',
      taskName: 'Guard named',
      model: MODELS[0],
      batchId: valueOf(first).batch.id,
    });
    expect(Math.abs(earlier.sentAt - Date.now())).toBeLessThan(60_000);
    // Another profile has its own money: the same content there is a first send.
    expect((await start('bob', 'batches.submit', { draft })).ok).toBe(true);
    // Confirmed: sent once more; the same confirmation again names a send that is no longer the latest.
    const before = await atSandbox(s);
    const confirmed = await start('alice', 'batches.submit', {
      draft,
      confirm: { resendOf: [earlier.submissionId] },
    });
    expect(confirmed.ok).toBe(true);
    const replayed = await start('alice', 'batches.submit', {
      draft,
      confirm: { resendOf: [earlier.submissionId] },
    });
    expect(!replayed.ok && replayed.error.earlier?.[0]?.submissionId).toBe(valueOf(confirmed).submission.id);
    expect((await atSandbox(s)).alice - before.alice).toBe(1);
    // A run refused for one model sends none: the run is never left half sent.
    const run = await start('alice', 'batches.submitRun', { runId: 'run-named-0001', draft, models: MODELS });
    expect(!run.ok && run.error.code).toBe('STUDIO_SENT_BEFORE');
    expect((await atSandbox(s)).alice - before.alice).toBe(1);
    expect(draftFingerprint({ ...draft, metadata: { [RUN_METADATA_KEY]: 'x' } })).toBe(
      draftFingerprint(draft),
    );
  });

  it('the budget question is asked inside the turn: two different drafts cannot both slip under it', async () => {
    const { s, ids, start } = await twoProfiles();
    // One batch first, so that the model has a per-image estimate to weigh against the budget.
    const seedBatch = await start('alice', 'batches.submit', {
      draft: promptsDraft('b0', 'Budget seed', ['budget seed']),
    });
    expect(seedBatch.ok).toBe(true);
    const perImage = valueOf(seedBatch).batch.estimatedCost as number;
    const spent = (await call(s, 'batches.budget', { timeZone: 'UTC' })).spent as number;
    // Room for one more two-image batch, not for two.
    const profile = s.profiles.list().find((p) => p.id === ids.alice)!;
    await call(s, 'profiles.save', {
      id: ids.alice,
      name: profile.name,
      baseUrl: (await call(s, 'app.info')).sandboxUrl,
      monthlyBudget: spent + perImage * 3,
    });
    s.profiles.activate(ids.alice);
    const before = await atSandbox(s);
    const results = await Promise.all(
      ['x', 'y', 'z'].map((c) =>
        start('alice', 'batches.submit', {
          draft: promptsDraft(`budget-${c}`, `Budget ${c}`, [`budget ${c} one`, `budget ${c} two`]),
          timeZone: 'UTC',
        }),
      ),
    );
    expect((await atSandbox(s)).alice - before.alice).toBe(1);
    const refusals = results.flatMap((r) => (r.ok ? [] : [r.error]));
    expect(refusals.map((e) => e.code)).toEqual(['STUDIO_BUDGET_CONFIRM', 'STUDIO_BUDGET_CONFIRM']);
    expect(refusals[0]!.budget).toMatchObject({ verdict: 'crosses' });
    // Confirmed past the budget: sent.
    const confirmed = await start('alice', 'batches.submit', {
      draft: promptsDraft('budget-y', 'Budget y', ['budget y one', 'budget y two']),
      confirm: { overBudget: true },
      timeZone: 'UTC',
    });
    expect(confirmed.ok).toBe(true);
    expect((await atSandbox(s)).alice - before.alice).toBe(2);
  });
});
