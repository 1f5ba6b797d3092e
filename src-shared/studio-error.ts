import { z } from 'zod';

/**
 * An error as people see it, and as it crosses from main to renderer: the gateway's code and
 * request id where there is one, so a message can be explained in the user's language and reported.
 */
export const studioErrorSchema = z.object({
  /** A gateway code (BATCH_IMAGE_...), a native status (INVALID_ARGUMENT), or a studio code (STUDIO_...). */
  code: z.string(),
  message: z.string(),
  httpStatus: z.number().int().optional(),
  requestId: z.string().optional(),
  /** Whether sending the same request again is safe and may succeed. */
  retryable: z.boolean(),
  source: z.enum(['gateway', 'network', 'studio']),
});
export type StudioErrorView = z.infer<typeof studioErrorSchema>;

/** Thrown by services and hosts; serialised with `toView()` for the renderer. */
export class StudioError extends Error {
  readonly code: string;
  readonly httpStatus?: number;
  readonly requestId?: string;
  readonly retryable: boolean;
  readonly source: StudioErrorView['source'];

  constructor(
    view: Omit<StudioErrorView, 'retryable' | 'source'> &
      Partial<Pick<StudioErrorView, 'retryable' | 'source'>>,
  ) {
    super(view.message);
    this.name = 'StudioError';
    this.code = view.code;
    this.httpStatus = view.httpStatus;
    this.requestId = view.requestId;
    this.retryable = view.retryable ?? false;
    this.source = view.source ?? 'studio';
  }

  toView(): StudioErrorView {
    return {
      code: this.code,
      message: this.message,
      ...(this.httpStatus !== undefined ? { httpStatus: this.httpStatus } : {}),
      ...(this.requestId !== undefined ? { requestId: this.requestId } : {}),
      retryable: this.retryable,
      source: this.source,
    };
  }

  static from(error: unknown): StudioError {
    if (error instanceof StudioError) return error;
    const parsed = studioErrorSchema.safeParse(error);
    if (parsed.success) return new StudioError(parsed.data);
    return new StudioError({
      code: 'STUDIO_INTERNAL',
      message: error instanceof Error ? error.message : String(error),
    });
  }
}
