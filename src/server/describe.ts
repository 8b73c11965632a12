/** An error as a log line: its name, its message and its cause's message; never its stack. */
export function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
    return `${error.name}: ${error.message}${cause}`
  }
  return String(error)
}
