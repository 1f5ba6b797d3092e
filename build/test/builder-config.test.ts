import { describe, expect, it } from 'vitest';
import { builderConfig } from '../../electron-builder.config';
import { PUBLISHER_NAME } from '../../src-main/electron/product';

const FEED = 'https://updates.batch-image-studio.example/stable/';

/** The publisher the installer is signed as, and the one the installed updater expects. */
function publishers(env: NodeJS.ProcessEnv) {
  const config = builderConfig({ STUDIO_UPDATE_URL: FEED, ...env });
  const feed = config.publish as { publisherName?: string[] };
  return { signedAs: config.win?.signtoolOptions?.publisherName, expected: feed.publisherName };
}

describe('the Windows publisher', () => {
  it('is the studio contributors by default, for signing and for the updater alike', () => {
    expect(publishers({})).toEqual({ signedAs: [PUBLISHER_NAME], expected: [PUBLISHER_NAME] });
  });

  it('follows STUDIO_WINDOWS_PUBLISHER in both, so updates signed by that certificate are accepted', () => {
    expect(publishers({ STUDIO_WINDOWS_PUBLISHER: ' Example Studio GmbH ' })).toEqual({
      signedAs: ['Example Studio GmbH'],
      expected: ['Example Studio GmbH'],
    });
  });
});
