import { mkdirSync, writeFileSync } from 'node:fs'
// @ts-expect-error: plain ESM module of the sandbox, typed by e2e/sandbox.d.ts
import { startStack } from '../test/sandbox/stack.mjs'
import { STACK_FILE, type StackConfig } from './stack'

export default async function globalSetup() {
  const stack = await startStack({ sourcePort: 19545, destPort: 19546, apiPort: 19787, quiet: true, widgetBase: 'http://127.0.0.1:4173' })
  mkdirSync('.sandbox-state', { recursive: true })
  writeFileSync(STACK_FILE, JSON.stringify(stack.config satisfies StackConfig))
  return async () => {
    await stack.stop()
  }
}
