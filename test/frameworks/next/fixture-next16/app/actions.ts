'use server'
import { signIn, signOut } from '@/auth'

export async function signInWithPassword(formData: FormData) {
  await signIn('credentials', formData)
}

export async function signOutAction() {
  await signOut({ redirectTo: '/' })
}

export async function signInWithOidc() {
  await signIn('oidc', { redirectTo: '/dashboard' })
}
