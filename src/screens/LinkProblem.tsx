import { Notice } from '../components/Notice'
import { Screen } from '../components/Screen'
import type { LinkProblem as Problem } from '../config/link'
import { linkProblemText } from '../errors/words'

/** A hosted-page or iframe link that does not start: an unknown partner, or a changed or expired link. */
export function LinkProblem({ problem }: { problem: Problem }) {
  const { title, body } = linkProblemText(problem)
  return (
    <div class="widget" data-theme="auto">
      <main>
        <Screen title={title}>
          <Notice tone="error">{body}</Notice>
        </Screen>
      </main>
    </div>
  )
}
