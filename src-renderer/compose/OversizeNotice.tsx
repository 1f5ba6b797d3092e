import { useTranslation } from 'react-i18next';
import type { ReferenceImage } from '../../src-shared/draft';
import { useStudioMutation } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { useCompose } from '../shared/compose-store';
import { draftActions } from '../shared/draft-actions';

/** A reference over the gateway's size for one image, with the offer to make it smaller. */
export function OversizeNotice({ reference, onDone }: { reference: ReferenceImage; onDone(): void }) {
  const { t } = useTranslation();
  const change = useCompose((s) => s.change);
  const downscale = useStudioMutation('references.downscale');
  return (
    <>
      <p className="notice warn">
        {t('compose.oversize', { name: reference.name })}{' '}
        <button
          type="button"
          disabled={downscale.isPending}
          onClick={() =>
            downscale.mutate(
              { reference },
              {
                onSuccess: ({ converted: _c, ...small }) => {
                  change(draftActions.replaceReference(reference.id, small));
                  onDone();
                },
              },
            )
          }
        >
          {t('compose.downscale')}
        </button>
      </p>
      {downscale.error && <ErrorNotice error={downscale.error.toView()} compact />}
    </>
  );
}
