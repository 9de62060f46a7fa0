import adapter from '@sveltejs/adapter-node'

/** @type {import('@sveltejs/kit').Config} */
export default {
  kit: {
    adapter: adapter(),
    // A partner origin the app trusts for its own forms: sign-in must still refuse it (login CSRF is not a form
    // like the others), which the test checks.
    csrf: { trustedOrigins: ['http://trusted-partner.test'] },
  },
}
