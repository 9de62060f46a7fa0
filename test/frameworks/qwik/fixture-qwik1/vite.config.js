// The client build (`vite build`); adapters/node-server/vite.config.js extends it for the server build.
import { defineConfig } from 'vite'
import { qwikVite } from '@builder.io/qwik/optimizer'
import { qwikCity } from '@builder.io/qwik-city/vite'

export default defineConfig(() => ({
  plugins: [qwikCity(), qwikVite()],
}))
