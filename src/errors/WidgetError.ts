// Errors in viem's style: a short message, optional details, a cause chain that `walk` follows.

export type WidgetErrorOptions = { cause?: unknown; details?: string }

export class WidgetError extends Error {
  override name = 'WidgetError'
  readonly shortMessage: string
  readonly details?: string

  constructor(shortMessage: string, options: WidgetErrorOptions = {}) {
    super(options.details ? `${shortMessage}\n\nDetails: ${options.details}` : shortMessage, {
      cause: options.cause,
    })
    this.shortMessage = shortMessage
    this.details = options.details
  }

  /** The innermost cause, or the first one `match` accepts. */
  walk(match?: (error: unknown) => boolean): unknown {
    return walk(this, match)
  }
}

export function walk(error: unknown, match?: (error: unknown) => boolean): unknown {
  let current: unknown = error
  for (let depth = 0; depth < 20; depth++) {
    if (match?.(current)) return current
    const next = (current as { cause?: unknown } | null)?.cause
    if (next === undefined || next === null) return match ? undefined : current
    current = next
  }
  return match ? undefined : current
}
