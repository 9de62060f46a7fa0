/** Japanese, in the polite form (です・ます) and with the ログイン wording most Japanese sites use. */
import type { PageMessages } from '../../types/page-messages.js'

export const ja: PageMessages = {
  signInTitle: 'ログイン',
  signInWith: '{provider}でログイン',
  emailLabel: 'メールアドレス',
  emailPlaceholder: 'name@example.com',
  passkeyFailed: 'パスキーでのログインを完了できませんでした。もう一度お試しください。',
  signOutTitle: 'ログアウト',
  signOutQuestion: 'ログアウトしてもよろしいですか？',
  signOutButton: 'ログアウト',
  verifyRequestTitle: 'メールをご確認ください',
  verifyRequestText: 'ログイン用のリンクをメールアドレスに送信しました。',
  homeLink: 'ホームに戻る',
  signInLink: 'ログイン',
  emailConfirmTitle: 'ログインを完了する',
  emailConfirmAs: '{email} としてログインします。',
  emailConfirmButton: 'ログイン',
  unavailableTitle: 'しばらくしてからお試しください',
  unavailableText: '現在、一時的にログインできません。しばらくしてからもう一度お試しください。',
  signInErrors: {
    Signin: 'もう一度ログインしてください。',
    OAuthSignin: 'このプロバイダーでのログインを開始できませんでした。もう一度お試しください。',
    OAuthCallbackError: 'ログインプロバイダーからの応答を受け付けられませんでした。もう一度お試しください。',
    OAuthCreateAccount: 'アカウントを作成できませんでした。もう一度お試しください。',
    EmailCreateAccount: 'アカウントを作成できませんでした。もう一度お試しください。',
    Callback: 'ログインを完了できませんでした。もう一度お試しください。',
    OAuthAccountNotLinked: '本人確認のため、最初にご利用になったアカウントでログインしてください。',
    EmailSignin: 'メールを送信できませんでした。',
    CredentialsSignin: 'ログインに失敗しました。入力内容が正しいかご確認ください。',
    SessionRequired: 'このページを表示するにはログインしてください。',
    default: 'ログインできませんでした。',
  },
  errorPages: {
    Configuration: {
      title: 'サーバーエラー',
      text: 'サーバーの設定に問題があります。サイトの管理者にお問い合わせください。',
    },
    AccessDenied: { title: 'アクセスが拒否されました', text: 'ログインする権限がありません。' },
    Verification: {
      title: 'ログインできません',
      text: 'このログインリンクは無効です。すでに使用されたか、有効期限が切れている可能性があります。',
    },
    default: { title: 'エラー', text: 'ログイン中にエラーが発生しました。' },
  },
}
