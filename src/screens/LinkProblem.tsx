import { Notice } from '../components/Notice'
import { Screen } from '../components/Screen'
import type { LinkProblem as Problem } from '../config/link'
import { t } from '../i18n/i18n'

/** A hosted-page or iframe link that does not start: an unknown partner, or a changed or expired link. */
export function LinkProblem({ problem }: { problem: Problem }) {
  const changed = problem.code === 'bad_signature'
  return (
    <div class="widget" data-theme="auto">
      <main>
        <Screen title={t(changed ? 'link.changed' : 'link.invalid')}>
          <Notice tone="error">{t(changed ? 'link.changedBody' : 'link.invalidBody')}</Notice>
        </Screen>
      </main>
    </div>
  )
}
