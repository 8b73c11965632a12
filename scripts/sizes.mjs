#!/usr/bin/env node
// Prints the gzip sizes the budget test checks (run after `npm run build`).
import { createServer } from 'vite'

const server = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'silent' })
const { measure } = await server.ssrLoadModule('/test/size/bundleSizes.ts')
const sizes = measure()
await server.close()
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(`initial JS (gzip):    ${kb(sizes.initialJs)}`)
console.log(`initial CSS (gzip):   ${kb(sizes.initialCss)}`)
console.log(`deposit flow (gzip):  ${kb(sizes.depositJs)}`)
for (const [file, size] of Object.entries(sizes.files)) console.log(`  ${file.padEnd(44)} ${kb(size)}`)
