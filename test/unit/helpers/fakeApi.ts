// A fake of the service's widget path (ApiClient) that records every call and answers per test.
// Answers go through the contract's schema, as the real client's do, so a fixture that breaks the
// contract fails loudly; a thrown error (an ApiError, say) is what the call throws.
import type { ApiClient } from '../../../src/api/client'

export type ApiCall = { path: string; body: unknown; priority?: string }
export type Answer = (call: ApiCall, nth: number) => unknown

export type FakeApi = ApiClient & {
  calls: ApiCall[]
  /** The calls to one path. */
  to(path: string): ApiCall[]
  /** Sets how `path` answers from now on (`nth` counts that path's calls from 0). */
  answer(path: string, answer: Answer): void
}

export function fakeApi(answers: Record<string, Answer> = {}): FakeApi {
  const calls: ApiCall[] = []
  const table = { ...answers }
  return {
    calls,
    to: (path) => calls.filter((c) => c.path === path),
    answer: (path, answer) => void (table[path] = answer),
    async post(path, body, schema, priority) {
      const call = { path, body, priority }
      const nth = calls.filter((c) => c.path === path).length
      calls.push(call)
      const answer = table[path]
      if (!answer) throw new Error(`fakeApi: no answer for ${path}`)
      // A schema, or (as the api modules pass them) a loader of one.
      return (typeof schema === 'function' ? await schema() : schema).parse(await answer(call, nth))
    },
  }
}

/** Answers in turn: each value is returned (or, when an Error, thrown); the last one repeats. */
export function inTurn(...answers: unknown[]): Answer {
  return (_call, nth) => {
    const answer = answers[Math.min(nth, answers.length - 1)]
    if (answer instanceof Error) throw answer
    return answer
  }
}
