// A few checks for the widget's options, without zod (which the response schemas load with the
// first request). They follow zod/mini's rules for what the option schemas used: a value's type
// first, then its rules in order; an object's fields in the order written, an array's items before
// its length; only the first problem is reported, with the rule's words or zod's "Invalid input";
// unknown fields are dropped, and an optional field absent from the input stays absent.

export type Path = PropertyKey[]
export type Issue = { path: Path; message: string }
/** Returns the checked value, or throws the first Issue. */
export type Schema<T> = (input: unknown, path: Path) => T
/** A rule on a value of the right type, and its words when it fails (zod's default: "Invalid input"). */
export type Rule<T> = [(value: T) => boolean, string?]

const INVALID = 'Invalid input'
const fail = (path: Path, message = INVALID): never => {
  throw { path, message } satisfies Issue
}

function typed<T>(is: (input: unknown) => boolean, rules: Rule<T>[]): Schema<T> {
  return (input, path) => {
    if (!is(input)) fail(path)
    for (const [ok, message] of rules) if (!ok(input as T)) fail(path, message)
    return input as T
  }
}

export const string = (...rules: Rule<string>[]): Schema<string> => typed((v) => typeof v === 'string', rules)
/** A finite number, as z.number(): NaN and ±Infinity are refused. */
export const number = (...rules: Rule<number>[]): Schema<number> => typed((v) => typeof v === 'number' && Number.isFinite(v), rules)
export const boolean: Schema<boolean> = typed((v) => typeof v === 'boolean', [])
export const oneOf = <const T extends string>(values: readonly T[]): Schema<T> => typed((v) => (values as readonly unknown[]).includes(v), [])

export const optional =
  <T>(schema: Schema<T>): Schema<T | undefined> =>
  (input, path) =>
    input === undefined ? undefined : schema(input, path)

export const array =
  <T>(item: Schema<T>, minLength = 0): Schema<T[]> =>
  (input, path) => {
    if (!Array.isArray(input)) fail(path)
    const list = input as unknown[]
    const out: T[] = []
    for (let i = 0; i < list.length; i++) out.push(item(list[i], [...path, i]))
    if (out.length < minLength) fail(path)
    return out
  }

export const object =
  <S extends Record<string, Schema<unknown>>>(shape: S): Schema<{ [K in keyof S]: ReturnType<S[K]> }> =>
  (input, path) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) fail(path)
    const given = input as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(shape)) {
      const value = shape[key](given[key], [...path, key])
      if (value !== undefined || key in given) out[key] = value
    }
    return out as { [K in keyof S]: ReturnType<S[K]> }
  }

export function check<T>(schema: Schema<T>, input: unknown): { success: true; data: T } | { success: false; issue: Issue } {
  try {
    return { success: true, data: schema(input, []) }
  } catch (error) {
    if (error && typeof error === 'object' && 'path' in error && 'message' in error) return { success: false, issue: error as Issue }
    throw error
  }
}
