'use server'
import { redirect } from 'next/navigation'
import { CredentialsSignin } from 'next-auth'
import { signIn, signOut } from '@/auth'

export async function signInWithPassword(formData: FormData) {
  try {
    await signIn('credentials', formData)
  } catch (error) {
    // A refused password is thrown (next-auth's contract): back to the sign-in page, which names the error. Anything
    // else, and the redirect a successful sign-in throws, goes on.
    if (error instanceof CredentialsSignin) redirect('/api/auth/signin?error=CredentialsSignin')
    throw error
  }
}

export async function signOutAction() {
  await signOut({ redirectTo: '/' })
}

export async function signInWithOidc() {
  await signIn('oidc', { redirectTo: '/dashboard' })
}
