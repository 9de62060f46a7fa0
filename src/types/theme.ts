/** Styling of the built-in pages. */
export interface Theme {
  colorScheme?: 'auto' | 'dark' | 'light'
  logo?: string
  brandColor?: string
  buttonText?: string
}
