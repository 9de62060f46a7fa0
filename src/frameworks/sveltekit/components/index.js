// The Svelte components of authchart/sveltekit/components, shipped as source: the app's SvelteKit build compiles them.
export { default as SignIn } from './SignIn.svelte'
export { default as SignOut } from './SignOut.svelte'
