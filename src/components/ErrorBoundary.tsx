import { Component, type ComponentChildren } from 'preact'
import { t } from '../i18n/i18n'
import { Notice } from './Notice'
import { Screen } from './Screen'

type Props = { children: ComponentChildren; onError?: (error: unknown) => void }

/**
 * A screen that throws while rendering shows a readable message instead of a blank widget. It
 * touches no storage: the flow's saved state is still there when the page is reloaded.
 */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false }

  static override getDerivedStateFromError() {
    return { failed: true }
  }

  override componentDidCatch(error: unknown) {
    this.props.onError?.(error)
  }

  override render() {
    if (!this.state.failed) return this.props.children
    return (
      <Screen title={t('app.crashed')}>
        <Notice tone="error" code="render_failed">
          {t('app.crashedBody')}
        </Notice>
      </Screen>
    )
  }
}
