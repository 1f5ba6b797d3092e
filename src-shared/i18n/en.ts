/** English strings. Every string people see goes through here or zh-CN.ts, key for key. */
export const en = {
  app: {
    title: 'Batch Image Studio',
    skipToContent: 'Skip to content',
  },
  nav: {
    label: 'Main navigation',
    compose: 'Compose',
    batches: 'Batches',
    library: 'Library',
    realtime: 'Realtime',
    kb: 'Knowledge base',
    settings: 'Settings',
  },
  connection: {
    label: 'Connection of profile {{profile}}',
    checking: 'Checking…',
    ok: 'Connected',
    okDetail: '{{count}} batch models available',
    error: 'Not connected',
    retry: 'Check again',
  },
  theme: {
    label: 'Theme',
    system: 'Follow system',
    light: 'Light',
    dark: 'Dark',
  },
  language: {
    label: 'Language',
    en: 'English',
    'zh-CN': '简体中文',
  },
  placeholder: {
    body: 'This screen arrives in a coming release. The connection, settings and profiles already work.',
  },
  common: {
    save: 'Save',
    cancel: 'Cancel',
    delete: 'Delete',
    edit: 'Edit',
    add: 'Add',
    close: 'Close',
    loading: 'Loading…',
    saved: 'Saved',
    active: 'Active',
  },
  settings: {
    title: 'Settings',
    appearance: 'Appearance',
    profiles: 'Connection profiles',
    profilesHelp:
      'A profile is one gateway account: its address and API keys. The Sandbox profile talks to the gateway built into the studio, so you can try everything without an account.',
    addProfile: 'Add profile',
    editProfile: 'Edit profile {{name}}',
    newProfile: 'New profile',
    activate: 'Use this profile',
    test: 'Test connection',
    testing: 'Testing…',
    testOk: 'Connection works: {{count}} batch models.',
    deleteConfirm: 'Delete profile {{name}} and its stored keys?',
    builtIn: 'Built in',
    sandboxAddress: 'Built-in sandbox at {{url}}',
    name: 'Name',
    baseUrl: 'Gateway address',
    baseUrlHelp: 'For example https://gateway.example.com — batch and realtime APIs live under it.',
    kbBaseUrl: 'Knowledge-base address',
    kbBaseUrlHelp: 'Leave empty when it is the same as the gateway address.',
    gatewayKey: 'Gateway API key',
    kbKey: 'Knowledge-base API key',
    keySet: 'Key set, ending in {{last4}}',
    keyNotSet: 'No key set',
    keyPlaceholderKeep: 'Leave empty to keep the current key',
    keyPlaceholderNew: 'Paste the key',
    removeKey: 'Remove key',
    defaultAppId: 'Default app id',
    defaultKbId: 'Default knowledge base id',
    storage: 'Storage',
    libraryDir: 'Library folder',
    libraryDirHelp: 'Downloaded batches are kept here, one readable folder per batch.',
    chooseFolder: 'Choose…',
    autoDownload: 'Download results automatically when a batch completes',
    notifications: 'Notify me when a batch finishes',
    secretsOs:
      'API keys are encrypted with your operating system’s keychain and never leave the main process.',
    secretsFile:
      'Browser mode keeps API keys in a file only your user account can read ({{path}}), unencrypted. They never reach this page.',
    about: 'About',
    version: 'Version {{version}}',
    dataDir: 'Data folder: {{path}}',
  },
  errors: {
    title: 'Something went wrong',
    code: 'Code',
    httpStatus: 'HTTP status',
    requestId: 'Request id',
    copy: 'Copy details',
    unknown: 'The gateway reported an error the studio does not know. Its message is shown below.',
    // Batch API (batch-image-api.md and gateway-notes.md)
    BATCH_IMAGE_DISABLED: 'Batch image generation is not enabled on this gateway.',
    BATCH_IMAGE_GROUP_DISABLED:
      'This API key’s group is not allowed to run batch image jobs. Ask the gateway administrator, or use another key.',
    BATCH_IMAGE_NO_ACCOUNT_AVAILABLE:
      'The gateway has no capacity for batch jobs right now. Try again later.',
    BATCH_IMAGE_SETTLEMENT_PRICING_MISSING:
      'This model has no batch price configured on the gateway. Choose another model.',
    BATCH_IMAGE_INVALID_MODEL: 'The model is missing or not a batch image model.',
    BATCH_IMAGE_INVALID_ITEMS: 'Some items or fields of the request are invalid.',
    BATCH_IMAGE_DUPLICATE_CUSTOM_ID: 'Two items have the same id. Every row needs its own id.',
    BATCH_IMAGE_PROMPT_TOO_LONG:
      'A prompt is too long: at most 8000 bytes of UTF-8 (about 2,600 Chinese characters).',
    BATCH_IMAGE_TOO_MANY_OUTPUT_IMAGES:
      'The batch asks for more images than the gateway allows in one batch. Split it.',
    BATCH_IMAGE_INVALID_REFERENCE_IMAGE:
      'A reference image has a wrong format or size. Use PNG, JPEG or WebP up to 10 MiB.',
    BATCH_IMAGE_TOO_MANY_REFERENCE_IMAGES: 'Too many reference images for this model.',
    BATCH_IMAGE_REFERENCE_IMAGES_TOO_LARGE: 'The reference images of this batch are too large in total.',
    BATCH_IMAGE_INSUFFICIENT_BALANCE:
      'Your balance is too low to place the hold for this batch. Top up, or send fewer images.',
    BATCH_IMAGE_IDEMPOTENCY_CONFLICT:
      'This submission key was already used for a different batch. The studio will use a new key.',
    BATCH_IMAGE_PROVIDER_SUBMIT_FAILED:
      'The upstream provider failed to create the batch. You can try again in a while.',
    BATCH_IMAGE_QUEUE_FAILED: 'The gateway’s task queue is temporarily unavailable. Try again shortly.',
    BATCH_IMAGE_NOT_READY: 'The results are not ready yet.',
    BATCH_IMAGE_OUTPUT_DELETED:
      'The gateway has already deleted the outputs of this batch; they cannot be downloaded again.',
    BATCH_IMAGE_ITEM_FAILED: 'This item has no image because it failed.',
    BATCH_IMAGE_DOWNLOAD_LIMITED:
      'Too many downloads at once for this account. The studio waits and tries again.',
    BATCH_IMAGE_REQUEST_TOO_LARGE:
      'The request is too large for the gateway. Use fewer or smaller reference images.',
    BATCH_IMAGE_NOT_FOUND: 'The gateway does not know this batch (deleted, or created with another key).',
    BATCH_IMAGE_INVALID_JSON: 'The gateway could not read the request.',
    BATCH_IMAGE_ZIP_TOO_MANY_ITEMS:
      'The batch has more images than one ZIP may hold; they are downloaded one by one.',
    BATCH_IMAGE_ITEM_IMAGE_INDEX_OUT_OF_RANGE: 'That image does not exist for this item.',
    BATCH_IMAGE_CANCEL_FAILED: 'The gateway could not cancel the batch upstream. Try again.',
    BATCH_IMAGE_OUTPUT_DELETE_NOT_READY: 'Outputs can only be deleted from a completed batch.',
    BATCH_IMAGE_RECORD_DELETE_NOT_READY: 'Only a finished batch can be removed from the gateway’s list.',
    BATCH_IMAGE_NO_MODEL_AVAILABLE: 'No model is available for batch jobs right now.',
    BATCH_IMAGE_PRICING_NOT_READY: 'The gateway’s pricing is not ready yet. Try again shortly.',
    BATCH_IMAGE_BILLING_HOLD_FAILED:
      'The gateway could not place the balance hold. Nothing was charged; try again.',
    BATCH_IMAGE_RESULT_MISSING: 'The gateway lost a result of this batch.',
    BATCH_IMAGE_DOWNLOAD_FAILED: 'The gateway failed while preparing the download.',
    // Item failures
    SAFETY_BLOCKED: 'Blocked by the provider’s safety filter. Rephrase the prompt.',
    INVALID_ARGUMENT: 'The provider refused a parameter of this request.',
    PROVIDER_RATE_LIMITED: 'The provider was rate-limited for this item. Retrying it usually works.',
    PROVIDER_ITEM_FAILED: 'The provider failed to generate this item.',
    EMPTY_IMAGE_OUTPUT: 'The provider answered without an image.',
    PROVIDER_RESULT_MISSING: 'The result of this item went missing upstream.',
    // Gateway layer
    INVALID_API_KEY: 'The API key is not valid. Check it in Settings.',
    API_KEY_REQUIRED: 'No API key was sent. Add one to the profile in Settings.',
    RATE_LIMITED: 'Too many requests. The studio slows down and tries again.',
    INTERNAL_ERROR: 'The gateway had an internal error.',
    UNAUTHENTICATED: 'The API key is missing, invalid or disabled.',
    RESOURCE_EXHAUSTED: 'Rate limit or concurrency limit reached. The studio backs off and retries.',
    UNAVAILABLE: 'The service is overloaded or unavailable. Try again later.',
    DEADLINE_EXCEEDED: 'The gateway or the provider timed out.',
    FAILED_PRECONDITION: 'The account cannot do this: check the balance and the key’s group.',
    PERMISSION_DENIED: 'The key has no permission for this.',
    NOT_FOUND: 'Not found on the gateway.',
    INTERNAL: 'The service had an internal error.',
    // Knowledge base
    unAuthApiKey: 'The knowledge-base API key is not valid.',
    unAuthKb: 'The key has no permission for this knowledge base.',
    unAuthModel: 'The key has no permission for this app.',
    invalidParams: 'The knowledge base refused the request’s parameters.',
    // Network and studio
    NETWORK_ERROR: 'Could not reach the gateway. Check the address and your network.',
    NETWORK_TIMEOUT: 'The gateway did not answer in time.',
    GATEWAY_BAD_RESPONSE: 'The gateway answered with something unexpected.',
    STUDIO_KEY_MISSING: 'This profile has no API key. Add one in Settings.',
    STUDIO_INVALID_INPUT: 'The studio refused invalid input.',
    STUDIO_PROFILE_NOT_FOUND: 'That profile no longer exists.',
    STUDIO_PROFILE_BUILT_IN: 'The Sandbox profile is built in and cannot be deleted.',
    STUDIO_LINK_BLOCKED: 'The studio does not open links to that site.',
    STUDIO_INTERNAL: 'The studio had an internal error.',
    STUDIO_UNAUTHORIZED:
      'This page lost its access token. Open the address the studio printed when it started.',
    STUDIO_OFFLINE: 'The studio is not running any more. Start it again.',
    HTTP_502: 'A proxy in front of the gateway reported a bad gateway.',
    HTTP_503: 'The gateway is temporarily unavailable.',
    HTTP_504: 'A proxy in front of the gateway timed out.',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
/** The shape every language provides: the same keys as English. */
export type Messages = Widen<typeof en>;
