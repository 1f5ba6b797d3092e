/** An answer in the batch API's envelope: `{error: {type, code, message}}`. */
export class BatchError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type: string = 'invalid_request_error',
  ) {
    super(message);
  }

  body(): { error: { type: string; code: string; message: string } } {
    return { error: { type: this.type, code: this.code, message: this.message } };
  }
}
