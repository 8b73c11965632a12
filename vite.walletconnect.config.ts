import { defineConfig } from 'vite'

// The WalletConnect client (src/wallet/walletConnect/client.ts and @walletconnect/sign-client, about
// 130 KB gzip), built on its own before the app (scripts/build.mjs): one ES module with everything
// it needs inside, so the CommonJS helpers its dependencies want never reach the chunk every flow
// shares. The app names its file (__WALLETCONNECT_CLIENT__) and loads it only when the buyer picks
// WalletConnect (src/wallet/walletConnectLoader.ts).
export default defineConfig({
  define: { __SANDBOX_BUILD__: JSON.stringify(process.env.WIDGET_SANDBOX === '1') },
  build: {
    target: 'es2022',
    sourcemap: false,
    emptyOutDir: true,
    copyPublicDir: false,
    manifest: '.vite/walletconnect.json',
    rollupOptions: {
      input: { walletconnect: 'src/wallet/walletConnect/client.ts' },
      preserveEntrySignatures: 'exports-only',
      output: { entryFileNames: 'assets/walletconnect-[hash].js', inlineDynamicImports: true },
    },
  },
})
