// Types of firstPaint.mjs (inlined into the pages by scripts/build.mjs).
export type FirstPaintData = {
  /** Link parameters that leave the first screen as drawn. */
  free: readonly string[]
  /** The themes a link may name, and the one where it names none. */
  themes: readonly string[]
  defaultTheme: string
  /** Per flow, the registry entry's fields the flow needs (config.ts FLOW_NEEDS). */
  needs: Readonly<Record<string, readonly string[]>>
  /** The flows an entry offers when it names none (config.ts defaultFlows for this build). */
  flows: readonly string[]
  /** The live region's words while a held action waits for the app. */
  loading: string
  /** The flow that lists the buyer's wallets. */
  discovers: string
  /** Where the widget's stored keys start (the partner's scope follows), and the scoped names that never change the first screen. */
  stored: string
  unrelated: readonly string[]
  /** The catalogs besides English (a locale that picks one is not drawn). */
  catalogs: readonly string[]
}
export function firstPaint(d: FirstPaintData): void
