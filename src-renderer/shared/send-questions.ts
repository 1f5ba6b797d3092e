import type { TFunction } from 'i18next';
import { SEND_REFUSALS } from '../../src-shared/send-refusal-codes';
import type { SendConfirmation } from '../../src-shared/send-refusal';
import type { StudioError } from '../../src-shared/studio-error';
import { confirmAction } from '../shell/confirm-store';
import type { Money } from '../shared/money-format';

export interface QuestionWords {
  t: TFunction;
  money: Money;
  ago: (ms: number) => string;
}

type Confirmation = Required<Pick<SendConfirmation, 'resendOf' | 'overBudget'>>;

export const noConfirmation = (): Confirmation => ({ resendOf: [], overBudget: false });

/**
 * Main refused a paid send and said why: the question it carries is asked here, and the answer is
 * the confirmation to send again with, naming exactly what the user agreed to (the earlier
 * submissions, or going past the budget). Undefined when the user says no, or when the refusal is
 * no question (the same content is still being sent: nothing to do but wait).
 */
export async function askAboutRefusal(
  error: StudioError,
  confirmed: Confirmation,
  { t, money, ago }: QuestionWords,
): Promise<Confirmation | undefined> {
  if (error.code === SEND_REFUSALS.sentBefore && error.earlier?.length) {
    const [first] = error.earlier;
    const models = [...new Set(error.earlier.map((e) => e.model))];
    const yes = await confirmAction(
      models.length > 1 || error.earlier.length > 1
        ? t('run.confirmResend', { model: models.join(', '), name: first!.taskName, ago: ago(first!.sentAt) })
        : t('compose.confirmResend', { name: first!.taskName, ago: ago(first!.sentAt) }),
    );
    return yes
      ? { ...confirmed, resendOf: [...confirmed.resendOf, ...error.earlier.map((e) => e.submissionId)] }
      : undefined;
  }
  if (error.code === SEND_REFUSALS.budget && error.budget) {
    const { verdict, estimate, spent, budget, unknownModels } = error.budget;
    const yes = await confirmAction(
      verdict === 'crosses'
        ? t(
            'spending.warnCrosses',
            money.line({ estimate: estimate ?? 0, total: spent + (estimate ?? 0), budget, spent }),
          )
        : t('spending.warnUnknown', { models: unknownModels.join(', '), ...money.line({ spent, budget }) }),
    );
    return yes ? { ...confirmed, overBudget: true } : undefined;
  }
  return undefined;
}

/**
 * Sends a paid call, and for each refusal that is a question, asks it and sends again with the
 * answer. Answers the call's result, or undefined when the user declined. Other errors are thrown.
 */
export async function sendWithQuestions<R>(
  send: (confirm: Confirmation) => Promise<R>,
  words: QuestionWords,
  toError: (err: unknown) => StudioError,
): Promise<R | undefined> {
  let confirm = noConfirmation();
  // Each round can only add a confirmation (resend, then budget), so a few rounds always end it.
  for (let round = 0; round < 4; round++) {
    try {
      return await send(confirm);
    } catch (err) {
      const error = toError(err);
      if (error.code !== SEND_REFUSALS.sentBefore && error.code !== SEND_REFUSALS.budget) throw error;
      const next = await askAboutRefusal(error, confirm, words);
      if (!next) return undefined;
      confirm = next;
    }
  }
  return undefined;
}
