// Types of scripts/firstPaint.mjs (inlined into the pages by scripts/build.mjs).
export type FirstPaintData = {
  /** Link parameters that leave the first screen as drawn. */
  free: readonly string[]
  /** The themes a link may name; the first is the default. */
  themes: readonly string[]
  /** Per flow, the registry entry's field the flow needs. */
  needs: Readonly<Record<string, string>>
  /** The live region's words while a held action waits for the app. */
  loading: string
  /** The flow that lists the buyer's wallets. */
  discovers: string
  /** The prefix of the widget's stored keys, and those that never change the first screen. */
  stored: string
  unrelated: readonly string[]
  /** The catalogs besides English (a locale that picks one is not drawn). */
  catalogs: readonly string[]
}
export function firstPaint(d: FirstPaintData): void
