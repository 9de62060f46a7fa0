// The server build for Node (Qwik City's node-server adapter), run after the client build.
import { nodeServerAdapter } from '@builder.io/qwik-city/adapters/node-server/vite'
import { extendConfig } from '@builder.io/qwik-city/vite'
import baseConfig from '../../vite.config.js'

export default extendConfig(baseConfig, () => ({
  build: { ssr: true, rollupOptions: { input: ['src/entry.node-server.jsx', '@qwik-city-plan'] } },
  plugins: [nodeServerAdapter({ name: 'node-server' })],
}))
