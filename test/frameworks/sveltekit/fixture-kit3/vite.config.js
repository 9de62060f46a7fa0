import adapter from '@sveltejs/adapter-node'
import { sveltekit } from '@sveltejs/kit/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [
    // SvelteKit 3 takes its configuration here (svelte.config.js is no longer read).
    sveltekit({
      adapter: adapter(),
      // A partner origin the app trusts for its own forms: sign-in must still refuse it (login CSRF is not a form
      // like the others), which the test checks.
      csrf: { trustedOrigins: ['http://trusted-partner.test'] },
    }),
  ],
})
